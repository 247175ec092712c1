import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validate } from '#lib/api-shapes/validate.ts';
import { wordOf } from '#lib/api-shapes/schemas.ts';
import { layerAttributes } from '#lib/escalation-policies/schema.ts';
import { eventUpdate } from '#lib/schedule-events/schema.ts';
import { integrationUpdate } from '#lib/integrations/schema.ts';
import { teamUpdate } from '#lib/teams/schema.ts';
import { validationMessages as messages } from '../support.ts';

describe('fixed words are matched in any case and stored lower-case', () => {
  it('wordOf: trims and lower-cases strings; other values and unknown words are refused with the one message', () => {
    const schema = z.object({ unit: wordOf(['minutes', 'hours'] as const) });
    expect(validate(schema, { unit: ' Hours ' })).toEqual({ unit: 'hours' });
    expect(messages(schema, { unit: 'weeks' })).toEqual(['unit must be one of minutes, hours']);
    expect(messages(schema, { unit: 5 })).toEqual(['unit must be one of minutes, hours']);
  });

  it('every enum parameter of the API takes capitalised words', () => {
    expect(validate(integrationUpdate, { urgency: 'HIGH' })).toMatchObject({ urgency: 'high' });
    expect(validate(eventUpdate, { frequency_unit: 'Weekly' })).toMatchObject({ frequency_unit: 'weekly' });
    expect(validate(layerAttributes, { timeout: 5, timeout_unit: 'Hours' })).toMatchObject({ timeout_unit: 'hours' });
    expect(validate(teamUpdate, { drop_notifications: 'Team_All' })).toMatchObject({ drop_notifications: 'team_all' });
    expect(messages(integrationUpdate, { urgency: 'urgent' })).toEqual(['urgency must be one of low, medium, high, critical']);
  });
});
