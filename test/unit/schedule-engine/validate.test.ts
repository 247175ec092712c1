import { describe, expect, it } from 'vitest';
import { eventProblems, type ScheduleEvent } from '#lib/schedule-engine/index.ts';
import { parseInstant, parseWallClock } from '#lib/schedule-engine/wall-clock.ts';

const valid: ScheduleEvent = {
  id: 'evt',
  layer: 1,
  timeZone: 'Berlin',
  start: '2025-01-01T09:00:00',
  end: '2025-01-01T17:00:00',
  repeat: true,
  frequency: 1,
  frequencyUnit: 'weekly',
  daysOfWeek: [1, 3],
  repeatEnd: '2025-12-31',
  rotation: true,
  attendees: ['a'],
  exceptions: ['2025-01-06T08:00:00Z'],
  scheduleIds: ['sch'],
};

describe('eventProblems', () => {
  it('accepts a valid event, with a listed zone name', () => {
    expect(eventProblems(valid)).toEqual([]);
  });

  it('names every field the engine could not read', () => {
    const broken = {
      ...valid,
      layer: 0,
      timeZone: 'Atlantis',
      end: '2025-01-01T08:00:00',
      frequency: 1.5,
      frequencyUnit: 'fortnightly',
      daysOfWeek: [7],
      repeatEnd: '2024-12-31',
      attendees: [],
      exceptions: ['yesterday'],
    } as unknown as ScheduleEvent;
    expect(eventProblems(broken)).toEqual([
      'layer must be an integer of at least 1',
      'time_zone is not a valid time zone',
      'end_time must be after start_time',
      'account_user_ids must name at least one account user',
      'exceptions must be ISO 8601 instants',
      'frequency must be an integer of at least 1',
      'frequency_unit must be one of hourly, daily, weekly, monthly, yearly',
      'days_of_week must hold integers from 0 (Sunday) to 6 (Saturday)',
      'repeat_end_datetime must not be before start_time',
    ]);
  });

  it('ignores repeat settings of a one-off event', () => {
    expect(eventProblems({ ...valid, repeat: false, frequencyUnit: undefined, repeatEnd: 'whenever' })).toEqual([]);
  });

  it('rejects wall-clock times that do not exist on any calendar', () => {
    expect(eventProblems({ ...valid, start: '2025-02-30T09:00:00' })).toEqual(['start_time must be a wall-clock time YYYY-MM-DDTHH:mm:ss']);
  });
});

describe('reading times', () => {
  it('parses wall clock with T or space, with or without seconds', () => {
    expect(parseWallClock('2025-03-09 02:30')).toBe(Date.UTC(2025, 2, 9, 2, 30));
    expect(parseWallClock('2025-03-09T02:30:15')).toBe(Date.UTC(2025, 2, 9, 2, 30, 15));
    expect(parseWallClock('2025-03-09T24:00')).toBeUndefined();
    expect(parseWallClock('2025-03-09T02:30Z')).toBeUndefined();
  });
  it('reads instants with any offset, and without one as UTC whatever the process TZ', () => {
    expect(parseInstant('2025-03-09T07:00:00Z')).toBe(Date.UTC(2025, 2, 9, 7));
    expect(parseInstant('2025-03-09T08:00:00+01:00')).toBe(Date.UTC(2025, 2, 9, 7));
    expect(parseInstant('2025-03-09T08:00:00+0100')).toBe(Date.UTC(2025, 2, 9, 7));
    expect(parseInstant('2025-03-09T07:00:00')).toBe(Date.UTC(2025, 2, 9, 7));
    expect(parseInstant('soon')).toBeNaN();
  });
});
