import { describe, expect, it } from 'vitest';
import {
  NotAnOccurrenceError,
  occurrenceAt,
  occurrencesInWindow,
  planAddException,
  planOverride,
  planTerminateOn,
  ScheduleInputError,
  type EventPlan,
  type OnCallEntry,
  type OverrideInput,
  type ScheduleEvent,
} from '#lib/schedule-engine/index.ts';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString().replace(':00.000Z', 'Z');

function event(fields: Partial<ScheduleEvent>): ScheduleEvent {
  return {
    id: 'orig',
    layer: 1,
    timeZone: 'America/New_York',
    start: '2025-03-01T09:00:00',
    end: '2025-03-01T17:00:00',
    repeat: true,
    frequency: 1,
    frequencyUnit: 'daily',
    rotation: true,
    attendees: ['a', 'b', 'c'],
    exceptions: [],
    scheduleIds: ['sch1', 'sch2'],
    ...fields,
  };
}

/** Applies a plan the way the API does in its transaction, giving drafts ids new1, new2, … */
function apply(events: readonly ScheduleEvent[], original: ScheduleEvent, plan: EventPlan): ScheduleEvent[] {
  const rest = events.filter((e) => e.id !== original.id);
  const kept = plan.deleteOriginal ? [] : [plan.updateOriginal ?? original];
  return [...rest, ...kept, ...plan.create.map((draft, i) => ({ ...draft, id: `new${i + 1}` }))];
}

const rows = (entries: readonly OnCallEntry[]): string[] =>
  entries.map((e) => `L${e.layer} ${iso(e.startMs)}..${iso(e.endMs)} ${e.attendees.join('+')}`);

const day = (events: ScheduleEvent[], from: string, to: string) => rows(occurrencesInWindow(events, at(from), at(to)));

describe('occurrenceAt', () => {
  const e = event({});
  it('finds the occurrence starting exactly at action_time, with its on-duty attendee', () => {
    expect(occurrenceAt(e, at('2025-03-10T13:00:00Z'))).toMatchObject({ index: 9, attendees: ['a'], endMs: at('2025-03-10T21:00:00Z') });
  });
  it('rejects another instant, naming the nearest occurrence starts (across the DST change)', () => {
    const error = (() => {
      try {
        occurrenceAt(e, at('2025-03-09T12:00:00Z'));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(NotAnOccurrenceError);
    expect(error).toMatchObject({ previousStartMs: at('2025-03-08T14:00:00Z'), nextStartMs: at('2025-03-09T13:00:00Z') });
    expect((error as Error).message).toBe(
      'action_time 2025-03-09T12:00:00.000Z is not the start of an occurrence of this event; the nearest occurrences start at 2025-03-08T14:00:00.000Z and 2025-03-09T13:00:00.000Z',
    );
  });
  it('reaches far for the nearest starts of sparse events, and says when there is none before', () => {
    const leap = event({ timeZone: 'Etc/UTC', frequencyUnit: 'yearly', start: '2024-02-29T09:00:00', end: '2024-02-29T10:00:00' });
    expect(() => occurrenceAt(leap, at('2026-01-01T00:00:00Z'))).toThrow('the nearest occurrences start at 2024-02-29T09:00:00.000Z and 2028-02-29T09:00:00.000Z');
    expect(() => occurrenceAt(leap, at('2020-01-01T00:00:00Z'))).toThrow('the next occurrence starts at 2024-02-29T09:00:00.000Z');
  });
  it('treats an excepted occurrence as gone', () => {
    const excepted = event({ exceptions: ['2025-03-10T13:00:00Z'] });
    expect(() => occurrenceAt(excepted, at('2025-03-10T13:00:00Z'))).toThrow(NotAnOccurrenceError);
  });
});

describe('planAddException', () => {
  it('adds the occurrence start as a UTC exception and nothing else', () => {
    const e = event({});
    const plan = planAddException(e, at('2025-03-10T13:00:00Z'));
    expect(plan).toEqual({ updateOriginal: { ...e, exceptions: ['2025-03-10T13:00:00.000Z'] }, deleteOriginal: false, create: [] });
    expect(day(apply([e], e, plan), '2025-03-10T00:00:00Z', '2025-03-12T00:00:00Z')).toEqual(['L1 2025-03-11T13:00Z..2025-03-11T21:00Z b']);
  });
  it('rejects an action_time that is not an occurrence start', () => {
    expect(() => planAddException(event({}), at('2025-03-10T14:00:00Z'))).toThrow(NotAnOccurrenceError);
  });
});

describe('planTerminateOn', () => {
  it('ends the repeat on the local date of the previous occurrence', () => {
    const e = event({});
    const plan = planTerminateOn(e, at('2025-03-10T13:00:00Z'));
    expect(plan.updateOriginal).toEqual({ ...e, repeatEnd: '2025-03-09' });
    expect(plan.deleteOriginal).toBe(false);
    expect(day(apply([e], e, plan), '2025-03-08T00:00:00Z', '2025-04-01T00:00:00Z')).toEqual([
      'L1 2025-03-08T14:00Z..2025-03-08T22:00Z b',
      'L1 2025-03-09T13:00Z..2025-03-09T21:00Z c',
    ]);
  });

  it('after exceptions, ends on the last occurrence still held', () => {
    const e = event({ exceptions: ['2025-03-08T14:00:00Z', '2025-03-09T13:00:00Z'] });
    const plan = planTerminateOn(e, at('2025-03-10T13:00:00Z'));
    expect(plan.updateOriginal?.repeatEnd).toBe('2025-03-07');
    expect(day(apply([e], e, plan), '2025-03-06T00:00:00Z', '2025-04-01T00:00:00Z')).toEqual([
      'L1 2025-03-06T14:00Z..2025-03-06T22:00Z c',
      'L1 2025-03-07T14:00Z..2025-03-07T22:00Z a',
    ]);
  });

  it('deletes the event when terminating at its first occurrence (or when only exceptions precede)', () => {
    expect(planTerminateOn(event({}), at('2025-03-01T14:00:00Z'))).toEqual({ deleteOriginal: true, create: [] });
    const e = event({ exceptions: ['2025-03-01T14:00:00Z'] });
    expect(planTerminateOn(e, at('2025-03-02T14:00:00Z'))).toEqual({ deleteOriginal: true, create: [] });
    expect(planTerminateOn(event({ repeat: false }), at('2025-03-01T14:00:00Z'))).toEqual({ deleteOriginal: true, create: [] });
  });

  it('hourly: excepts the later occurrences of the last kept day, which the day-inclusive end would keep', () => {
    const e = event({ timeZone: 'Europe/Berlin', frequencyUnit: 'hourly', frequency: 4, start: '2025-03-29T00:00:00', end: '2025-03-29T04:00:00', rotation: false });
    // local 2025-03-30 08:00 CEST = 06:00Z; the 04:00 slot of that day (02:00Z) is kept
    const plan = planTerminateOn(e, at('2025-03-30T06:00:00Z'));
    expect(plan.updateOriginal?.repeatEnd).toBe('2025-03-30');
    expect(plan.updateOriginal?.exceptions).toEqual([
      '2025-03-30T06:00:00.000Z',
      '2025-03-30T10:00:00.000Z',
      '2025-03-30T14:00:00.000Z',
      '2025-03-30T18:00:00.000Z',
    ]);
    expect(day(apply([e], e, plan), '2025-03-29T22:00:00Z', '2025-04-02T00:00:00Z')).toEqual([
      'L1 2025-03-29T19:00Z..2025-03-29T23:00Z a+b+c',
      'L1 2025-03-29T23:00Z..2025-03-30T02:00Z a+b+c', // 00:00–04:00 local, 3 real hours (02:00→03:00)
      'L1 2025-03-30T02:00Z..2025-03-30T06:00Z a+b+c',
    ]);
  });
});

describe('planOverride', () => {
  const input = (fields: Partial<OverrideInput>): OverrideInput => ({
    start: '2025-03-10 11:00',
    end: '2025-03-10 13:00',
    layer: 1,
    timeZone: 'Eastern Time (US & Canada)',
    attendees: ['zoe'],
    ...fields,
  });

  it('in the middle of a rotation: exception + remainders for the on-duty person + the override', () => {
    const e = event({});
    const plan = planOverride(e, at('2025-03-10T13:00:00Z'), input({}));
    expect(plan.updateOriginal).toEqual({ ...e, exceptions: ['2025-03-10T13:00:00.000Z'] });
    const common = { layer: 1, timeZone: 'America/New_York', repeat: false, rotation: false, exceptions: [], parentId: 'orig', scheduleIds: ['sch1', 'sch2'] };
    expect(plan.create).toEqual([
      { ...common, start: '2025-03-10T09:00:00', end: '2025-03-10T11:00:00', attendees: ['a'], remainder: true },
      { ...common, start: '2025-03-10T13:00:00', end: '2025-03-10T17:00:00', attendees: ['a'], remainder: true },
      { ...common, start: '2025-03-10T11:00:00', end: '2025-03-10T13:00:00', attendees: ['zoe'] },
    ]);
    expect(plan.override).toBe(plan.create.at(-1));
    expect(day(apply([e], e, plan), '2025-03-09T12:00:00Z', '2025-03-12T00:00:00Z')).toEqual([
      'L1 2025-03-09T13:00Z..2025-03-09T21:00Z c',
      'L1 2025-03-10T13:00Z..2025-03-10T15:00Z a',
      'L1 2025-03-10T15:00Z..2025-03-10T17:00Z zoe',
      'L1 2025-03-10T17:00Z..2025-03-10T21:00Z a',
      'L1 2025-03-11T13:00Z..2025-03-11T21:00Z b', // the rotation goes on unchanged
    ]);
  });

  it('on another layer: the person moves there and the original layer keeps only the uncovered parts', () => {
    const e = event({});
    const plan = planOverride(e, at('2025-03-10T13:00:00Z'), input({ layer: 2 }));
    expect(day(apply([e], e, plan), '2025-03-10T00:00:00Z', '2025-03-11T00:00:00Z')).toEqual([
      'L1 2025-03-10T13:00Z..2025-03-10T15:00Z a',
      'L1 2025-03-10T17:00Z..2025-03-10T21:00Z a',
      'L2 2025-03-10T15:00Z..2025-03-10T17:00Z zoe',
    ]);
  });

  it('covering the whole occurrence leaves no remainder', () => {
    const e = event({});
    const plan = planOverride(e, at('2025-03-10T13:00:00Z'), input({ start: '2025-03-10 09:00', end: '2025-03-10 17:00' }));
    expect(plan.create).toHaveLength(1);
  });

  it('reaching past the occurrence, it clips the next occurrence on its layer', () => {
    const e = event({});
    const plan = planOverride(e, at('2025-03-10T13:00:00Z'), input({ start: '2025-03-10 13:00', end: '2025-03-11 12:00' }));
    expect(day(apply([e], e, plan), '2025-03-10T00:00:00Z', '2025-03-12T00:00:00Z')).toEqual([
      'L1 2025-03-10T13:00Z..2025-03-10T17:00Z a',
      'L1 2025-03-10T17:00Z..2025-03-11T16:00Z zoe',
      'L1 2025-03-11T16:00Z..2025-03-11T21:00Z b',
    ]);
  });

  it('a one-off event shrinks to the part before and gets a tail piece', () => {
    const e = event({ repeat: false, rotation: false, attendees: ['a', 'b'] });
    const plan = planOverride(e, at('2025-03-01T14:00:00Z'), input({ start: '2025-03-01 11:00', end: '2025-03-01 13:00' }));
    expect(plan.updateOriginal).toEqual({ ...e, start: '2025-03-01T09:00:00', end: '2025-03-01T11:00:00' });
    expect(plan.create.map((d) => [d.start, d.end, d.attendees.join('+'), d.remainder ?? false])).toEqual([
      ['2025-03-01T13:00:00', '2025-03-01T17:00:00', 'a+b', true],
      ['2025-03-01T11:00:00', '2025-03-01T13:00:00', 'zoe', false],
    ]);
  });

  it('a one-off event overridden from its start moves to the part after; fully covered, it is excepted', () => {
    const e = event({ repeat: false });
    const moved = planOverride(e, at('2025-03-01T14:00:00Z'), input({ start: '2025-03-01 08:00', end: '2025-03-01 12:00' }));
    expect(moved.updateOriginal).toEqual({ ...e, start: '2025-03-01T12:00:00', end: '2025-03-01T17:00:00' });
    expect(moved.create).toHaveLength(1);
    const covered = planOverride(e, at('2025-03-01T14:00:00Z'), input({ start: '2025-03-01 09:00', end: '2025-03-01 17:00' }));
    expect(covered.updateOriginal?.exceptions).toEqual(['2025-03-01T14:00:00.000Z']);
  });

  it('pieces of an override stay overrides', () => {
    const over = event({ id: 'ovr', repeat: false, rotation: false, parentId: 'root', attendees: ['olga'] });
    const plan = planOverride(over, at('2025-03-01T14:00:00Z'), input({ start: '2025-03-01 11:00', end: '2025-03-01 13:00' }));
    expect(plan.create[0]).toMatchObject({ parentId: 'ovr', attendees: ['olga'] });
    expect(plan.create[0]).not.toHaveProperty('remainder');
  });

  it('keeps exact coverage when a boundary is the second pass of a fall-back hour', () => {
    // 00:00–04:00 New York on 2025-11-02 is 04:00Z–09:00Z (five real hours); the override ends 06:30Z,
    // which is 01:30 EST, a reading New York wall-clock time gives to 05:30Z: that remainder is written in UTC
    const e = event({ start: '2025-11-01T00:00:00', end: '2025-11-01T04:00:00' });
    const plan = planOverride(e, at('2025-11-02T04:00:00Z'), input({ timeZone: 'UTC', start: '2025-11-02 05:00', end: '2025-11-02 06:30' }));
    expect(plan.create.map((d) => `${d.timeZone} ${d.start}..${d.end}`)).toEqual([
      'America/New_York 2025-11-02T00:00:00..2025-11-02T01:00:00',
      'Etc/UTC 2025-11-02T06:30:00..2025-11-02T09:00:00',
      'Etc/UTC 2025-11-02T05:00:00..2025-11-02T06:30:00',
    ]);
    expect(day(apply([e], e, plan), '2025-11-02T03:00:00Z', '2025-11-02T10:00:00Z')).toEqual([
      'L1 2025-11-02T04:00Z..2025-11-02T05:00Z b',
      'L1 2025-11-02T05:00Z..2025-11-02T06:30Z zoe',
      'L1 2025-11-02T06:30Z..2025-11-02T09:00Z b',
    ]);
  });

  it('rejects an override that misses the occurrence', () => {
    expect(() => planOverride(event({}), at('2025-03-10T13:00:00Z'), input({ start: '2025-03-10 18:00', end: '2025-03-10 19:00' }))).toThrow(
      'start_time and end_time must overlap the occurrence being overridden (2025-03-10T13:00:00.000Z to 2025-03-10T21:00:00.000Z)',
    );
  });

  it('reports every input problem at once, naming the fields', () => {
    const bad = input({ start: '2025-03-10 25:00', end: 'soon', layer: 0, timeZone: 'Atlantis', attendees: [] });
    const error = (() => {
      try {
        planOverride(event({}), at('2025-03-10T13:00:00Z'), bad);
      } catch (caught) {
        return caught as ScheduleInputError;
      }
    })();
    expect(error).toBeInstanceOf(ScheduleInputError);
    expect(error?.messages).toEqual([
      'layer must be an integer of at least 1',
      'time_zone is not a valid time zone',
      'start_time must be a wall-clock time YYYY-MM-DD HH:mm',
      'end_time must be a wall-clock time YYYY-MM-DD HH:mm',
      'account_user_ids must name at least one account user',
    ]);
    expect(() => planOverride(event({}), at('2025-03-10T13:00:00Z'), input({ end: '2025-03-10 11:00' }))).toThrow('end_time must be after start_time');
  });
});
