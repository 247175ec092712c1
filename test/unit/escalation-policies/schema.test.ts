import { describe, expect, it } from 'vitest';
import { policyCreate, policyUpdate } from '#lib/escalation-policies/schema.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { validationMessages as messages } from '../support.ts';

describe('escalation policy schema', () => {
  it('requires name on create only', () => {
    expect(messages(policyCreate, {})).toEqual(['name is required']);
    expect(messages(policyCreate, { name: ' ' })).toEqual(["name can't be blank"]);
    expect(messages(policyUpdate, {})).toEqual([]);
  });

  it('takes repeat 0..3 as an integer', () => {
    for (const repeat of [0, 1, 2, 3]) expect(messages(policyCreate, { name: 'P', repeat })).toEqual([]);
    for (const repeat of [-1, 4, 1.5, '1', null]) {
      expect(messages(policyCreate, { name: 'P', repeat })).toEqual(['repeat must be an integer between 0 and 3']);
    }
  });

  it('takes id lists for reassign targets', () => {
    expect(messages(policyCreate, { name: 'P', reassign_team_ids: 'tem_x' })).toEqual(['reassign_team_ids must be a list of ids']);
    expect(messages(policyCreate, { name: 'P', reassign_account_user_ids: [1] })).toEqual(['reassign_account_user_ids[0] must be a list of ids']);
    expect(messages(policyCreate, { name: 'P', reassign_team_ids: Array.from({ length: 51 }, (_, i) => `t${i}`) })).toEqual([
      'reassign_team_ids must hold at most 50 ids',
    ]);
  });

  it('validates every layer field, naming its position', () => {
    const layer = (fields: Record<string, unknown>) => messages(policyCreate, { name: 'P', escalation_layers_attributes: [{ timeout: 5, ...fields }] });
    expect(layer({})).toEqual([]);
    for (const value of [0, -1, 1.5, '2', null]) {
      expect(layer({ layer: value })).toEqual(['escalation_layers_attributes[0].layer must be an integer of at least 1']);
    }
    for (const value of [0, -5, 2.5, '5', null]) {
      expect(layer({ timeout: value })).toEqual(['escalation_layers_attributes[0].timeout must be a positive integer']);
    }
    for (const value of ['seconds', 'm', 5, null]) {
      expect(layer({ timeout_unit: value })).toEqual(['escalation_layers_attributes[0].timeout_unit must be one of minutes, hours, days']);
    }
    for (const value of ['red', '#12345', '#1234567', '123456', '#GGGGGG', 5]) {
      expect(layer({ color_hex: value })).toEqual(['escalation_layers_attributes[0].color_hex must be a colour like #1E88E5']);
    }
    expect(layer({ color_hex: null })).toEqual([]);
    for (const value of ['yes', 2, {}]) {
      expect(layer({ _destroy: value })).toEqual(['escalation_layers_attributes[0]._destroy must be true or false']);
    }
    expect(layer({ id: 5 })).toEqual(['escalation_layers_attributes[0].id must be a string']);
    expect(messages(policyCreate, { name: 'P', escalation_layers_attributes: {} })).toEqual(['escalation_layers_attributes must be a list of layers']);
    expect(messages(policyCreate, { name: 'P', escalation_layers_attributes: ['x'] })).toEqual(['escalation_layers_attributes[0] must be an object']);
  });

  it('reads _destroy the Rails way', () => {
    const destroy = (value: unknown) => validate(policyUpdate, { escalation_layers_attributes: [{ id: 'x', _destroy: value }] }).escalation_layers_attributes![0]!._destroy;
    for (const value of [true, 1, '1', 'true']) expect(destroy(value)).toBe(true);
    for (const value of [false, 0, '0', 'false', null]) expect(destroy(value)).toBe(false);
  });

  it('ignores unpermitted parameters', () => {
    expect(validate(policyCreate, { name: 'P', team_ids: ['x'], escalation_layers: [] })).toEqual({ name: 'P' });
  });
});
