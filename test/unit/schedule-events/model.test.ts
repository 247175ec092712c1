import { describe, expect, it } from 'vitest';
import { dataFromEngine, renderEvent, toEngine, type EventItem } from '#lib/schedule-events/model.ts';
import type { EventData } from '#lib/schedule-events/schema.ts';
import { planAddException, planOverride, planTerminateOn } from '#lib/schedule-engine/index.ts';

const data: EventData = {
  start_time: '2030-03-08T22:00:00-05:00',
  end_time: '2030-03-09T06:00:00-05:00',
  time_zone: 'Eastern Time (US & Canada)',
  layer: 2,
  repeat: true,
  frequency: 1,
  frequency_unit: 'daily',
  days_of_week: [],
  repeat_end_datetime: '2030-03-20T12:00:00-04:00',
  rotation: true,
  parent_id: null,
  schedule_ids: ['SCHED'],
  event_attendees: [
    { id: 'att_2', attendee_id: 'U2', attendee_type: 'AccountUser', position: 2 },
    { id: 'att_1', attendee_id: 'U1', attendee_type: 'AccountUser', position: 1 },
  ],
  exceptions: [{ id: 'exc_1', start_datetime: '2030-03-12T22:00:00-04:00' }],
  remainder: false,
};

const item: EventItem = {
  pk: 'A#acc',
  sk: 'EVENT#EVT',
  type: 'EVENT',
  accountId: 'acc',
  id: 'EVT',
  prefixId: 'evt_abcdefghijkl',
  tinyId: 7,
  version: 3,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  meta: {},
  data,
};

describe('toEngine', () => {
  it('gives the engine wall clocks, the IANA zone, attendees by position and the repeat_end day', () => {
    expect(toEngine(item)).toEqual({
      id: 'EVT',
      layer: 2,
      timeZone: 'America/New_York',
      start: '2030-03-08T22:00:00',
      end: '2030-03-09T06:00:00',
      repeat: true,
      frequency: 1,
      frequencyUnit: 'daily',
      repeatEnd: '2030-03-20',
      rotation: true,
      attendees: ['U1', 'U2'],
      exceptions: ['2030-03-12T22:00:00-04:00'],
      scheduleIds: ['SCHED'],
    });
  });
});

describe('renderEvent', () => {
  it('renders times from their wall clock with the offset in force, and iana_time_zone', () => {
    const out = renderEvent({ ...item, data: { ...data, start_time: '2030-03-08T22:00:00+00:00' } });
    expect(out).toMatchObject({
      id: 'EVT',
      prefix_id: 'evt_abcdefghijkl',
      start_time: '2030-03-08T22:00:00-05:00',
      end_time: '2030-03-09T06:00:00-05:00',
      iana_time_zone: 'America/New_York',
      event_attendees: [data.event_attendees[1], data.event_attendees[0]],
      exceptions: [{ id: 'exc_1', start_datetime: '2030-03-12T22:00:00-04:00' }],
    });
  });
});

describe('dataFromEngine', () => {
  it('keeps rows, zone text and repeat_end of an unchanged event', () => {
    const plan = planAddException(toEngine(item), Date.parse('2030-03-10T03:00:00Z'));
    const next = dataFromEngine(plan.updateOriginal!, data, [data.time_zone]);
    expect(next).toEqual({
      ...data,
      event_attendees: [data.event_attendees[1], data.event_attendees[0]],
      exceptions: [{ id: expect.stringMatching(/^exc_/), start_datetime: '2030-03-09T22:00:00-05:00' }, data.exceptions[0]],
    });
  });

  it('terminate_on writes repeat_end as the local midnight of the last day kept', () => {
    const plan = planTerminateOn(toEngine(item), Date.parse('2030-03-15T02:00:00Z'));
    expect(dataFromEngine(plan.updateOriginal!, data, []).repeat_end_datetime).toBe('2030-03-13T00:00:00-04:00');
  });

  it('an override keeps the zone text the client sent; remainders are flagged', () => {
    const plan = planOverride(toEngine(item), Date.parse('2030-03-11T02:00:00Z'), {
      start: '2030-03-11 00:00',
      end: '2030-03-11 02:00',
      layer: 2,
      timeZone: 'America/New_York',
      attendees: ['U9'],
    });
    const override = dataFromEngine(plan.override, undefined, ['America/New_York', data.time_zone]);
    expect(override).toMatchObject({ time_zone: 'America/New_York', parent_id: 'EVT', remainder: false, start_time: '2030-03-11T00:00:00-04:00' });
    expect(override.event_attendees).toEqual([{ id: expect.stringMatching(/^att_/), attendee_id: 'U9', attendee_type: 'AccountUser', position: 1 }]);
    const pieces = plan.create.filter((d) => d !== plan.override).map((d) => dataFromEngine(d, undefined, [data.time_zone]));
    expect(pieces.map((p) => [p.start_time, p.end_time, p.remainder, p.time_zone, p.event_attendees[0]!.attendee_id])).toEqual([
      ['2030-03-10T22:00:00-04:00', '2030-03-11T00:00:00-04:00', true, data.time_zone, 'U1'],
      ['2030-03-11T02:00:00-04:00', '2030-03-11T06:00:00-04:00', true, data.time_zone, 'U1'],
    ]);
  });
});
