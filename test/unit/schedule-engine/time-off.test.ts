// Time off in the one on-call function (docs/schedules.md, "Time off"): examples, across a daylight-saving change,
// and properties over random schedules and random time off.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOverride, occurrencesInWindow, onCallAt, type Absence, type OnCallEntry, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const ORIGIN = Date.UTC(2026, 2, 2); // a Monday
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19);

const weekly: ScheduleEvent = {
  id: 'rot',
  layer: 1,
  timeZone: 'Etc/UTC',
  start: '2026-03-02T09:00:00',
  end: '2026-03-09T09:00:00',
  repeat: true,
  frequency: 1,
  frequencyUnit: 'weekly',
  rotation: true,
  attendees: ['ada', 'bob', 'cy'],
  exceptions: [],
  scheduleIds: ['s'],
};
const monday9 = Date.UTC(2026, 2, 2, 9);
const who = (entries: readonly OnCallEntry[]) => entries.map((e) => [wall(e.startMs), wall(e.endMs), e.attendees.join('+'), e.coveringFor ?? '']);

describe('time off in a rotation', () => {
  it('hands the away week to the next person and leaves every other week as it was (no drift)', () => {
    const away: Absence[] = [{ accountUserId: 'bob', startMs: monday9 + WEEK, endMs: monday9 + 2 * WEEK }];
    expect(who(occurrencesInWindow([weekly], monday9, monday9 + 4 * WEEK, away))).toEqual([
      ['2026-03-02T09:00:00', '2026-03-09T09:00:00', 'ada', ''],
      ['2026-03-09T09:00:00', '2026-03-16T09:00:00', 'cy', 'bob'],
      ['2026-03-16T09:00:00', '2026-03-23T09:00:00', 'cy', ''],
      ['2026-03-23T09:00:00', '2026-03-30T09:00:00', 'ada', ''],
    ]);
  });

  it('covers only the part of a shift that falls in the time off', () => {
    const away: Absence[] = [{ accountUserId: 'ada', startMs: monday9 + 2 * DAY, endMs: monday9 + 3 * DAY }];
    expect(who(occurrencesInWindow([weekly], monday9, monday9 + WEEK, away))).toEqual([
      ['2026-03-02T09:00:00', '2026-03-04T09:00:00', 'ada', ''],
      ['2026-03-04T09:00:00', '2026-03-05T09:00:00', 'bob', 'ada'],
      ['2026-03-05T09:00:00', '2026-03-09T09:00:00', 'ada', ''],
    ]);
  });

  it('skips a cover who is away too, and leaves a gap when everyone is', () => {
    const both: Absence[] = [
      { accountUserId: 'ada', startMs: monday9, endMs: monday9 + DAY },
      { accountUserId: 'bob', startMs: monday9, endMs: monday9 + 2 * DAY },
    ];
    expect(who(occurrencesInWindow([weekly], monday9, monday9 + 2 * DAY, both))).toEqual([
      ['2026-03-02T09:00:00', '2026-03-03T09:00:00', 'cy', 'ada'],
      ['2026-03-03T09:00:00', '2026-03-09T09:00:00', 'ada', ''],
    ]);
    const all: Absence[] = [...both, { accountUserId: 'cy', startMs: monday9, endMs: monday9 + DAY }];
    expect(onCallAt([weekly], monday9 + HOUR, all)).toEqual([]);
    expect(onCallAt([weekly], monday9 + DAY + HOUR, all).map((e) => e.attendees)).toEqual([['ada']]);
  });

  it('keeps the turns across a daylight-saving change: the cover holds the away person’s local shift', () => {
    const berlin: ScheduleEvent = { ...weekly, timeZone: 'Europe/Berlin', start: '2026-03-23T09:00:00', end: '2026-03-30T09:00:00' };
    // Berlin moves to summer time on Sunday 29 March: that shift is an hour shorter in real time.
    const start = Date.UTC(2026, 2, 23, 8);
    const away: Absence[] = [{ accountUserId: 'ada', startMs: start, endMs: Date.UTC(2026, 2, 30, 7) }];
    expect(who(occurrencesInWindow([berlin], start, Date.UTC(2026, 3, 6, 7), away))).toEqual([
      ['2026-03-23T08:00:00', '2026-03-30T07:00:00', 'bob', 'ada'],
      ['2026-03-30T07:00:00', '2026-04-06T07:00:00', 'bob', ''],
    ]);
  });
});

describe('time off in other events and overrides', () => {
  const pair: ScheduleEvent = { ...weekly, id: 'pair', rotation: false, attendees: ['ada', 'bob'] };

  it('leaves the absent attendee of a non-rotation event out for the overlap only', () => {
    const away: Absence[] = [{ accountUserId: 'bob', startMs: monday9 + DAY, endMs: monday9 + 2 * DAY }];
    expect(who(occurrencesInWindow([pair], monday9, monday9 + WEEK, away))).toEqual([
      ['2026-03-02T09:00:00', '2026-03-03T09:00:00', 'ada+bob', ''],
      ['2026-03-03T09:00:00', '2026-03-04T09:00:00', 'ada', ''],
      ['2026-03-04T09:00:00', '2026-03-09T09:00:00', 'ada+bob', ''],
    ]);
  });

  it('lets an override naming the absent person keep them on call for its span; the pieces outside follow time off', () => {
    const override: ScheduleEvent = {
      ...weekly,
      id: 'ovr',
      repeat: false,
      rotation: false,
      attendees: ['ada'],
      start: '2026-03-03T09:00:00',
      end: '2026-03-04T09:00:00',
      parentId: 'rot',
    };
    const away: Absence[] = [{ accountUserId: 'ada', startMs: monday9, endMs: monday9 + WEEK }];
    expect(who(occurrencesInWindow([weekly, override], monday9, monday9 + WEEK, away))).toEqual([
      ['2026-03-02T09:00:00', '2026-03-03T09:00:00', 'bob', 'ada'],
      ['2026-03-03T09:00:00', '2026-03-04T09:00:00', 'ada', ''],
      ['2026-03-04T09:00:00', '2026-03-09T09:00:00', 'bob', 'ada'],
    ]);
  });

  it('ignores empty and reversed absences', () => {
    const away: Absence[] = [{ accountUserId: 'ada', startMs: monday9 + DAY, endMs: monday9 + DAY }, { accountUserId: 'ada', startMs: monday9 + DAY, endMs: monday9 }];
    expect(occurrencesInWindow([weekly], monday9, monday9 + WEEK, away)).toEqual(occurrencesInWindow([weekly], monday9, monday9 + WEEK));
  });
});

const PEOPLE = ['p0', 'p1', 'p2', 'p3'];
const eventArb = (id: string) =>
  fc
    .record({
      zone: fc.constantFrom('Etc/UTC', 'Europe/Berlin', 'America/New_York'),
      startHours: fc.integer({ min: -48, max: 24 * 10 }),
      lengthMinutes: fc.integer({ min: 15, max: 60 * 30 }),
      repeat: fc.boolean(),
      unit: fc.constantFrom('hourly' as const, 'daily' as const, 'weekly' as const),
      frequency: fc.integer({ min: 1, max: 3 }),
      layer: fc.integer({ min: 1, max: 2 }),
      rotation: fc.boolean(),
      attendees: fc.uniqueArray(fc.constantFrom(...PEOPLE), { minLength: 1, maxLength: 4 }),
      override: fc.boolean(),
    })
    .map((g): ScheduleEvent => {
      const start = ORIGIN + g.startHours * HOUR;
      return {
        id,
        layer: g.layer,
        timeZone: g.zone,
        start: wall(start),
        end: wall(start + g.lengthMinutes * 60_000),
        repeat: g.repeat,
        frequency: g.frequency,
        frequencyUnit: g.unit,
        rotation: g.rotation,
        attendees: g.attendees,
        exceptions: [],
        scheduleIds: ['s'],
        ...(g.override ? { parentId: 'e0' } : {}),
      };
    });
const scheduleArb = fc.array(fc.nat(), { minLength: 1, maxLength: 4 }).chain((ids) => fc.tuple(...ids.map((_, i) => eventArb(`e${i}`))));
const awayArb = fc.array(
  fc.record({ accountUserId: fc.constantFrom(...PEOPLE), startHours: fc.integer({ min: -24, max: 24 * 12 }), hours: fc.integer({ min: 1, max: 24 * 8 }) }),
  { maxLength: 4 },
).map((list) => list.map((a): Absence => ({ accountUserId: a.accountUserId, startMs: ORIGIN + a.startHours * HOUR, endMs: ORIGIN + (a.startHours + a.hours) * HOUR })));
const instantArb = fc.integer({ min: -24 * 60, max: 24 * 60 * 12 }).map((minutes) => ORIGIN + minutes * 60_000);

const isAwayAt = (away: readonly Absence[], person: string, t: number) => away.some((a) => a.accountUserId === person && a.startMs <= t && t < a.endMs);
const regularWho = (entries: readonly OnCallEntry[], events: readonly ScheduleEvent[]) => {
  const overrides = new Set(events.filter(isOverride).map((e) => e.id));
  return entries.filter((e) => !overrides.has(e.eventId));
};

describe('time off, properties (fast-check)', () => {
  it('nobody away is ever on call except by an override', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(scheduleArb, awayArb, instantArb, (events, away, t) => {
        for (const entry of regularWho(onCallAt(events, t, away), events)) {
          for (const person of entry.attendees) expect(isAwayAt(away, person, t)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('outside every time off, who is on call is exactly who was without it', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(scheduleArb, awayArb, instantArb, (events, away, t) => {
        fc.pre(!away.some((a) => a.startMs <= t && t < a.endMs));
        // A shift split by a time off that ended just before t starts later, so it may sort elsewhere: compare as sets.
        const plain = (entries: readonly OnCallEntry[]) => entries.map((e) => JSON.stringify([e.eventId, e.layer, e.index, e.attendees])).sort();
        expect(plain(onCallAt(events, t, away))).toEqual(plain(onCallAt(events, t)));
      }),
      { numRuns: 500 },
    );
  });

  it('a cover is the next present attendee in the rotation’s order, and only the on-duty one is ever covered', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(scheduleArb, awayArb, instantArb, (events, away, t) => {
        const byId = new Map(events.map((e) => [e.id, e]));
        const before = onCallAt(events, t);
        for (const entry of onCallAt(events, t, away)) {
          if (entry.coveringFor === undefined) continue;
          const event = byId.get(entry.eventId) as ScheduleEvent;
          expect(event.rotation).toBe(true);
          const order = event.attendees;
          const onDuty = order[entry.index % order.length] as string;
          expect(entry.coveringFor).toBe(onDuty);
          expect(isAwayAt(away, onDuty, t)).toBe(true);
          const firstPresent = [...Array(order.length).keys()].map((k) => order[(entry.index + k) % order.length] as string).find((p) => !isAwayAt(away, p, t));
          expect(entry.attendees).toEqual([firstPresent]);
          expect(before.some((b) => b.eventId === entry.eventId && b.index === entry.index)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('an override is untouched by time off', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(scheduleArb, awayArb, instantArb, (events, away, t) => {
        const overrides = new Set(events.filter(isOverride).map((e) => e.id));
        const only = (entries: readonly OnCallEntry[]) => entries.filter((e) => overrides.has(e.eventId));
        expect(only(onCallAt(events, t, away))).toEqual(only(onCallAt(events, t)));
      }),
      { numRuns: 300 },
    );
  });
});
