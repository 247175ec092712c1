import { describe, expect, it } from 'vitest';
import { occurrencesBetween, type Occurrence, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString().replace(':00.000Z', 'Z');

function event(fields: Partial<ScheduleEvent>): ScheduleEvent {
  return {
    id: 'evt',
    layer: 1,
    timeZone: 'Etc/UTC',
    start: '2025-01-01T09:00:00',
    end: '2025-01-01T17:00:00',
    repeat: true,
    frequency: 1,
    frequencyUnit: 'daily',
    rotation: false,
    attendees: ['alice'],
    exceptions: [],
    scheduleIds: ['sch'],
    ...fields,
  };
}

/** "start..end who#index" per occurrence, instants in UTC. */
const shifts = (os: readonly Occurrence[]): string[] =>
  os.map((o) => `${iso(o.startMs)}..${iso(o.endMs)} ${o.attendees.join('+')}#${o.index}`);

const between = (e: ScheduleEvent, from: string, to: string) => shifts(occurrencesBetween(e, at(from), at(to)));

describe('daily shifts keep their wall-clock hours across DST', () => {
  it('America/New_York spring forward: 09:00–17:00 local moves from 14:00Z to 13:00Z', () => {
    const e = event({ timeZone: 'America/New_York', start: '2025-03-01T09:00:00', end: '2025-03-01T17:00:00', rotation: true, attendees: ['a', 'b', 'c'] });
    expect(between(e, '2025-03-08T00:00:00Z', '2025-03-11T00:00:00Z')).toEqual([
      '2025-03-08T14:00Z..2025-03-08T22:00Z b#7',
      '2025-03-09T13:00Z..2025-03-09T21:00Z c#8',
      '2025-03-10T13:00Z..2025-03-10T21:00Z a#9',
    ]);
  });

  it('America/New_York overnight shifts are 7 h on the spring-forward night and 9 h on the fall-back night', () => {
    const e = event({ timeZone: 'America/New_York', start: '2025-03-01T22:00:00', end: '2025-03-02T06:00:00' });
    expect(between(e, '2025-03-08T12:00:00Z', '2025-03-09T12:00:00Z')).toEqual(['2025-03-09T03:00Z..2025-03-09T10:00Z alice#7']);
    expect(between(e, '2025-11-01T12:00:00Z', '2025-11-02T12:00:00Z')).toEqual(['2025-11-02T02:00Z..2025-11-02T11:00Z alice#245']);
  });

  it('Europe/Berlin: 09:00 is 08:00Z before and 07:00Z after the spring change, and back in October', () => {
    const e = event({ timeZone: 'Europe/Berlin', start: '2025-03-01T09:00:00', end: '2025-03-01T17:00:00' });
    expect(between(e, '2025-03-29T00:00:00Z', '2025-03-31T00:00:00Z')).toEqual([
      '2025-03-29T08:00Z..2025-03-29T16:00Z alice#28',
      '2025-03-30T07:00Z..2025-03-30T15:00Z alice#29',
    ]);
    expect(between(e, '2025-10-25T00:00:00Z', '2025-10-27T00:00:00Z')).toEqual([
      '2025-10-25T07:00Z..2025-10-25T15:00Z alice#238',
      '2025-10-26T08:00Z..2025-10-26T16:00Z alice#239',
    ]);
  });

  it('Australia/Sydney (southern hemisphere): clocks go back in April and forward in October', () => {
    const e = event({ timeZone: 'Australia/Sydney', start: '2025-04-01T09:00:00', end: '2025-04-01T17:00:00' });
    expect(between(e, '2025-04-04T12:00:00Z', '2025-04-06T12:00:00Z')).toEqual([
      '2025-04-04T22:00Z..2025-04-05T06:00Z alice#4',
      '2025-04-05T23:00Z..2025-04-06T07:00Z alice#5',
    ]);
    expect(between(e, '2025-10-03T12:00:00Z', '2025-10-05T12:00:00Z')).toEqual([
      '2025-10-03T23:00Z..2025-10-04T07:00Z alice#186',
      '2025-10-04T22:00Z..2025-10-05T06:00Z alice#187',
    ]);
  });

  it('Australia/Lord_Howe (30-minute shift): back-to-back 02:00 handoffs stay contiguous, 24 h then 23.5 h', () => {
    const e = event({ timeZone: 'Australia/Lord_Howe', start: '2025-10-01T02:00:00', end: '2025-10-02T02:00:00', rotation: true, attendees: ['a', 'b'] });
    expect(between(e, '2025-10-03T12:00:00Z', '2025-10-06T00:00:00Z')).toEqual([
      '2025-10-02T15:30Z..2025-10-03T15:30Z a#2',
      '2025-10-03T15:30Z..2025-10-04T15:30Z b#3',
      // 02:00 on Oct 5 does not exist (02:00→02:30): the handoff happens when the clocks jump
      '2025-10-04T15:30Z..2025-10-05T15:00Z a#4',
      '2025-10-05T15:00Z..2025-10-06T15:00Z b#5',
    ]);
  });

  it('Australia/Lord_Howe fall-back: an 01:45 start in the repeated half hour takes its first pass', () => {
    const e = event({ timeZone: 'Australia/Lord_Howe', start: '2025-04-01T01:45:00', end: '2025-04-01T09:00:00' });
    expect(between(e, '2025-04-05T12:00:00Z', '2025-04-06T00:00:00Z')).toEqual([
      // 01:45 +11:00 = 14:45Z; 09:00 +10:30 = 22:30Z: 7 h 45 min of real time
      '2025-04-05T14:45Z..2025-04-05T22:30Z alice#5',
    ]);
  });

  it('America/Santiago: a midnight start on the day midnight is skipped begins at 01:00', () => {
    const e = event({ timeZone: 'America/Santiago', start: '2025-09-01T00:00:00', end: '2025-09-01T08:00:00' });
    expect(between(e, '2025-09-06T00:00:00Z', '2025-09-08T00:00:00Z')).toEqual([
      '2025-09-06T04:00Z..2025-09-06T12:00Z alice#5',
      '2025-09-07T04:00Z..2025-09-07T11:00Z alice#6',
    ]);
  });

  it('a shift starting inside the New York gap starts when the clocks jump, not an hour later', () => {
    const e = event({ timeZone: 'America/New_York', start: '2025-03-08T02:30:00', end: '2025-03-08T03:15:00' });
    expect(between(e, '2025-03-09T00:00:00Z', '2025-03-10T00:00:00Z')).toEqual(['2025-03-09T07:00Z..2025-03-09T07:15Z alice#1']);
  });
});

describe('hourly repeats step in wall-clock hours', () => {
  const hourly = (fields: Partial<ScheduleEvent>) =>
    event({ timeZone: 'America/New_York', frequencyUnit: 'hourly', rotation: true, attendees: ['a', 'b', 'c'], ...fields });

  it('fall-back: 01:00 happens once and lasts two real hours, so coverage has no gap and no double', () => {
    const e = hourly({ start: '2025-11-02T00:00:00', end: '2025-11-02T01:00:00' });
    expect(between(e, '2025-11-02T04:00:00Z', '2025-11-02T08:00:00Z')).toEqual([
      '2025-11-02T04:00Z..2025-11-02T05:00Z a#0',
      '2025-11-02T05:00Z..2025-11-02T07:00Z b#1',
      '2025-11-02T07:00Z..2025-11-02T08:00Z c#2',
    ]);
  });

  it('spring-forward: the 02:00 slot does not exist, nobody holds it, and later hours keep their person', () => {
    const e = hourly({ start: '2025-03-09T00:00:00', end: '2025-03-09T01:00:00' });
    expect(between(e, '2025-03-09T05:00:00Z', '2025-03-09T09:00:00Z')).toEqual([
      '2025-03-09T05:00Z..2025-03-09T06:00Z a#0',
      '2025-03-09T06:00Z..2025-03-09T07:00Z b#1',
      '2025-03-09T07:00Z..2025-03-09T08:00Z a#3',
      '2025-03-09T08:00Z..2025-03-09T09:00Z b#4',
    ]);
    // the next day 00:00 is slot 24 again held by a
    expect(between(e, '2025-03-10T04:00:00Z', '2025-03-10T04:30:00Z')).toEqual(['2025-03-10T04:00Z..2025-03-10T05:00Z a#24']);
  });

  it('12-hour handoffs stay at 08:00 and 20:00 local through the change', () => {
    const e = hourly({ frequency: 12, start: '2025-03-08T08:00:00', end: '2025-03-08T20:00:00', attendees: ['day', 'night'] });
    expect(between(e, '2025-03-08T12:00:00Z', '2025-03-09T23:00:00Z')).toEqual([
      '2025-03-08T13:00Z..2025-03-09T01:00Z day#0',
      '2025-03-09T01:00Z..2025-03-09T12:00Z night#1',
      '2025-03-09T12:00Z..2025-03-10T00:00Z day#2',
    ]);
  });
});

describe('rotations across DST', () => {
  it('weekly Monday 09:00 handoffs in New York: the week containing the change is 167 h', () => {
    const e = event({
      timeZone: 'America/New_York',
      start: '2025-03-03T09:00:00',
      end: '2025-03-10T09:00:00',
      frequencyUnit: 'weekly',
      rotation: true,
      attendees: ['a', 'b', 'c'],
    });
    expect(between(e, '2025-03-03T00:00:00Z', '2025-03-20T00:00:00Z')).toEqual([
      '2025-03-03T14:00Z..2025-03-10T13:00Z a#0',
      '2025-03-10T13:00Z..2025-03-17T13:00Z b#1',
      '2025-03-17T13:00Z..2025-03-24T13:00Z c#2',
    ]);
    // fall back: 169 h; the rotation index is counted arithmetically 35 weeks later
    expect(between(e, '2025-10-28T00:00:00Z', '2025-11-04T00:00:00Z')).toEqual([
      '2025-10-27T13:00Z..2025-11-03T14:00Z b#34',
      '2025-11-03T14:00Z..2025-11-10T14:00Z c#35',
    ]);
  });
});

describe('days_of_week', () => {
  it('weekly every 2 weeks on Monday and Friday, weeks Sunday–Saturday counted from the start week', () => {
    const e = event({ start: '2025-01-08T09:00:00', end: '2025-01-08T17:00:00', frequencyUnit: 'weekly', frequency: 2, daysOfWeek: [1, 5], rotation: true, attendees: ['a', 'b'] });
    expect(between(e, '2025-01-01T00:00:00Z', '2025-02-09T00:00:00Z')).toEqual([
      '2025-01-10T09:00Z..2025-01-10T17:00Z a#0', // Mon Jan 6 is before the start (Wed Jan 8)
      '2025-01-20T09:00Z..2025-01-20T17:00Z b#1',
      '2025-01-24T09:00Z..2025-01-24T17:00Z a#2',
      '2025-02-03T09:00Z..2025-02-03T17:00Z b#3',
      '2025-02-07T09:00Z..2025-02-07T17:00Z a#4',
    ]);
  });

  it('daily on weekdays: weekends are skipped and the rotation counts only weekdays', () => {
    const e = event({ start: '2025-06-02T09:00:00', end: '2025-06-02T17:00:00', daysOfWeek: [1, 2, 3, 4, 5], rotation: true, attendees: ['a', 'b', 'c'] });
    const week = between(e, '2025-06-02T00:00:00Z', '2025-06-10T00:00:00Z');
    expect(week).toEqual([
      '2025-06-02T09:00Z..2025-06-02T17:00Z a#0',
      '2025-06-03T09:00Z..2025-06-03T17:00Z b#1',
      '2025-06-04T09:00Z..2025-06-04T17:00Z c#2',
      '2025-06-05T09:00Z..2025-06-05T17:00Z a#3',
      '2025-06-06T09:00Z..2025-06-06T17:00Z b#4',
      '2025-06-09T09:00Z..2025-06-09T17:00Z c#5',
    ]);
  });

  it('filters hourly repeats by the local date of each start', () => {
    // every 6 h from Friday 2025-06-06 00:00 in Kolkata, Saturdays only
    const e = event({ timeZone: 'Asia/Kolkata', frequencyUnit: 'hourly', frequency: 6, start: '2025-06-06T00:00:00', end: '2025-06-06T06:00:00', daysOfWeek: [6] });
    expect(between(e, '2025-06-05T00:00:00Z', '2025-06-09T00:00:00Z')).toEqual([
      '2025-06-06T18:30Z..2025-06-07T00:30Z alice#0',
      '2025-06-07T00:30Z..2025-06-07T06:30Z alice#1',
      '2025-06-07T06:30Z..2025-06-07T12:30Z alice#2',
      '2025-06-07T12:30Z..2025-06-07T18:30Z alice#3',
    ]);
  });

  it('filters monthly repeats: the 13th, only when it is a Friday', () => {
    const e = event({ frequencyUnit: 'monthly', start: '2025-01-13T09:00:00', end: '2025-01-13T17:00:00', daysOfWeek: [5] });
    expect(between(e, '2025-01-01T00:00:00Z', '2027-01-01T00:00:00Z').map((s) => s.slice(0, 10))).toEqual([
      '2025-06-13',
      '2026-02-13',
      '2026-03-13',
      '2026-11-13',
    ]);
  });
});

describe('monthly and yearly', () => {
  it('monthly on the 31st skips months without a 31st (RFC 5545); the rotation only counts held months', () => {
    const e = event({ frequencyUnit: 'monthly', start: '2025-01-31T09:00:00', end: '2025-01-31T17:00:00', rotation: true, attendees: ['a', 'b'] });
    expect(between(e, '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z').map((s) => `${s.slice(0, 10)} ${s.split(' ')[1]}`)).toEqual([
      '2025-01-31 a#0',
      '2025-03-31 b#1',
      '2025-05-31 a#2',
      '2025-07-31 b#3',
      '2025-08-31 a#4',
      '2025-10-31 b#5',
      '2025-12-31 a#6',
    ]);
  });

  it('a month-long monthly shift keeps whole months, so handoffs stay on the 1st', () => {
    const e = event({ frequencyUnit: 'monthly', timeZone: 'Europe/Berlin', start: '2025-01-01T00:00:00', end: '2025-02-01T00:00:00', rotation: true, attendees: ['a', 'b', 'c'] });
    expect(between(e, '2025-01-15T00:00:00Z', '2025-04-15T00:00:00Z')).toEqual([
      '2024-12-31T23:00Z..2025-01-31T23:00Z a#0',
      '2025-01-31T23:00Z..2025-02-28T23:00Z b#1',
      '2025-02-28T23:00Z..2025-03-31T22:00Z c#2',
      '2025-03-31T22:00Z..2025-04-30T22:00Z a#3',
    ]);
  });

  it('yearly on Feb 29 happens only in leap years', () => {
    const e = event({ frequencyUnit: 'yearly', start: '2024-02-29T09:00:00', end: '2024-02-29T17:00:00', rotation: true, attendees: ['a', 'b'] });
    expect(between(e, '2024-01-01T00:00:00Z', '2033-01-01T00:00:00Z')).toEqual([
      '2024-02-29T09:00Z..2024-02-29T17:00Z a#0',
      '2028-02-29T09:00Z..2028-02-29T17:00Z b#1',
      '2032-02-29T09:00Z..2032-02-29T17:00Z a#2',
    ]);
    // 2100 is not a leap year: 2096 then 2104, and the index still counts every held year
    expect(between(e, '2096-01-01T00:00:00Z', '2105-01-01T00:00:00Z')).toEqual([
      '2096-02-29T09:00Z..2096-02-29T17:00Z a#18',
      '2104-02-29T09:00Z..2104-02-29T17:00Z b#19',
    ]);
  });
});

describe('repeat end, exceptions, windows', () => {
  it('repeat end is inclusive by day: the overnight shift starting on it runs into the next day', () => {
    const e = event({ timeZone: 'America/New_York', start: '2025-10-01T22:00:00', end: '2025-10-02T06:00:00', repeatEnd: '2025-10-31' });
    expect(between(e, '2025-10-30T12:00:00Z', '2025-11-05T00:00:00Z')).toEqual([
      '2025-10-31T02:00Z..2025-10-31T10:00Z alice#29',
      '2025-11-01T02:00Z..2025-11-01T10:00Z alice#30',
    ]);
  });

  it('repeat end is read in the event zone: hourly up to 23:00 local on that date', () => {
    const e = event({ timeZone: 'Australia/Sydney', frequencyUnit: 'hourly', frequency: 6, start: '2025-06-01T05:00:00', end: '2025-06-01T06:00:00', repeatEnd: '2025-06-02' });
    expect(between(e, '2025-05-01T00:00:00Z', '2025-07-01T00:00:00Z')).toHaveLength(8);
    expect(between(e, '2025-06-02T12:00:00Z', '2025-07-01T00:00:00Z')).toEqual(['2025-06-02T13:00Z..2025-06-02T14:00Z alice#7']);
  });

  it('an exception removes one occurrence; later turns of the rotation do not move', () => {
    const e = event({ start: '2025-03-01T09:00:00', end: '2025-03-01T17:00:00', rotation: true, attendees: ['a', 'b', 'c'], exceptions: ['2025-03-02T09:00:00Z'] });
    expect(between(e, '2025-03-01T00:00:00Z', '2025-03-04T00:00:00Z')).toEqual([
      '2025-03-01T09:00Z..2025-03-01T17:00Z a#0',
      '2025-03-03T09:00Z..2025-03-03T17:00Z c#2',
    ]);
  });

  it('exceptions match instants whatever offset they are written with', () => {
    const e = event({ timeZone: 'Europe/Berlin', start: '2025-03-01T09:00:00', end: '2025-03-01T17:00:00', exceptions: ['2025-03-02T09:00:00+01:00'] });
    expect(between(e, '2025-03-02T00:00:00Z', '2025-03-03T00:00:00Z')).toEqual([]);
  });

  it('returns occurrences overlapping the window, including ones that started before it', () => {
    const e = event({ start: '2025-03-01T22:00:00', end: '2025-03-02T06:00:00' });
    expect(between(e, '2025-03-05T05:00:00Z', '2025-03-05T06:00:00Z')).toEqual(['2025-03-04T22:00Z..2025-03-05T06:00Z alice#3']);
    expect(between(e, '2025-03-05T06:00:00Z', '2025-03-05T22:00:00Z')).toEqual([]);
  });

  it('a year-long window of a daily rotation has 365 occurrences, contiguous for 24 h shifts', () => {
    const e = event({ timeZone: 'America/New_York', start: '2020-01-01T08:00:00', end: '2020-01-02T08:00:00', rotation: true, attendees: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] });
    const year = occurrencesBetween(e, at('2026-01-01T13:00:00Z'), at('2027-01-01T13:00:00Z'));
    expect(year).toHaveLength(365);
    year.slice(1).forEach((o, i) => expect(o.startMs).toBe(year[i]?.endMs));
    expect(year[0]?.index).toBe(2192); // 2020-01-01 → 2026-01-01 is 2192 days
    expect(year[0]?.attendees).toEqual(['a']);
  });

  it('jumping to a late window gives the same indexes as walking from the first occurrence', () => {
    const e = event({ timeZone: 'Australia/Lord_Howe', frequencyUnit: 'hourly', frequency: 5, start: '2024-01-01T00:30:00', end: '2024-01-01T04:00:00', daysOfWeek: [1, 3, 5], rotation: true, attendees: ['a', 'b', 'c', 'd'] });
    const from = at('2027-03-01T00:00:00Z');
    const to = at('2027-05-01T00:00:00Z');
    const walked = occurrencesBetween(e, at('2023-12-01T00:00:00Z'), to).filter((o) => o.endMs > from);
    expect(occurrencesBetween(e, from, to)).toEqual(walked);
    expect(walked.length).toBeGreaterThan(100);
  });

  it('a one-off event occurs once at index 0; an exception on it hides it', () => {
    const e = event({ repeat: false, timeZone: 'America/St_Johns', start: '2025-11-02T00:30:00', end: '2025-11-02T03:30:00' });
    expect(between(e, '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z')).toEqual(['2025-11-02T03:00Z..2025-11-02T07:00Z alice#0']);
    expect(between({ ...e, exceptions: ['2025-11-02T03:00:00Z'] }, '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z')).toEqual([]);
  });

  it('an event the engine cannot read puts nobody on call instead of failing the schedule', () => {
    const window = ['2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z'] as const;
    expect(between(event({ end: '2025-01-01T08:00:00' }), ...window)).toEqual([]);
    expect(between(event({ timeZone: 'Mars/Olympus' }), ...window)).toEqual([]);
    expect(between(event({ frequencyUnit: undefined }), ...window)).toEqual([]);
    expect(between(event({ start: '2025-02-30T09:00:00' }), ...window)).toEqual([]);
  });

  it('accepts the listed zone names of GET /events/time_zones', () => {
    const e = event({ timeZone: 'Eastern Time (US & Canada)', start: '2025-07-01T09:00:00', end: '2025-07-01T10:00:00', repeat: false });
    expect(between(e, '2025-07-01T00:00:00Z', '2025-07-02T00:00:00Z')).toEqual(['2025-07-01T13:00Z..2025-07-01T14:00Z alice#0']);
  });
});
