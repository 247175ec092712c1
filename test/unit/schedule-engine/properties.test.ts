import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  occurrencesBetween,
  occurrencesInWindow,
  onCallAt,
  planAddException,
  planOverride,
  planTerminateOn,
  type EventPlan,
  type FrequencyUnit,
  type ScheduleEvent,
} from '#lib/schedule-engine/index.ts';

// A deliberately naive reference: walk every slot from the first with luxon calendar steps on a zone-less
// wall clock (a luxon DateTime in UTC), and find each instant by scanning minute by minute for the first
// instant whose wall clock in the zone reads at least that time.

const MINUTE = 60_000;
const DAY = 86_400_000;

interface RefOccurrence {
  eventId: string;
  layer: number;
  index: number;
  startMs: number;
  endMs: number;
  attendees: readonly string[];
}

const offsetAt = (zone: string, ms: number): number => DateTime.fromMillis(ms, { zone }).offset * MINUTE;

function refInstant(zone: string, wall: DateTime): number {
  const f = wall.toMillis();
  const widest = Math.max(offsetAt(zone, f - DAY), offsetAt(zone, f + DAY));
  for (let i = f - widest; ; i += MINUTE) if (i + offsetAt(zone, i) >= f) return i;
}

const weekday = (d: DateTime): number => d.weekday % 7;

function* refSlots(e: ScheduleEvent, start: DateTime): Generator<DateTime> {
  const n = e.frequency ?? 1;
  const days = e.daysOfWeek && e.daysOfWeek.length > 0 ? e.daysOfWeek : undefined;
  const allowed = (d: DateTime) => !days || days.includes(weekday(d));
  if (!e.repeat) {
    yield start;
    return;
  }
  if (e.frequencyUnit === 'weekly' && days) {
    const sunday = start.minus({ days: weekday(start) });
    for (let k = 0; ; k++) {
      const d = sunday.plus({ days: k });
      if (Math.floor(k / 7) % n === 0 && days.includes(weekday(d)) && d >= start) yield d;
      else yield d.set({ millisecond: 1 }); // not held; marked so the caller skips it but can still stop
    }
  }
  for (let i = 0; ; i++) {
    let d: DateTime;
    if (e.frequencyUnit === 'monthly' || e.frequencyUnit === 'yearly') {
      const months = i * n * (e.frequencyUnit === 'yearly' ? 12 : 1);
      const first = start.set({ day: 1 }).plus({ months });
      d = DateTime.fromObject({ year: first.year, month: first.month, day: start.day, hour: start.hour, minute: start.minute }, { zone: 'utc' });
      if (!d.isValid) d = first.set({ millisecond: 1 });
    } else {
      const unit = e.frequencyUnit === 'hourly' ? 'hours' : e.frequencyUnit === 'daily' ? 'days' : 'weeks';
      d = start.plus({ [unit]: i * n });
    }
    yield allowed(d) ? d : d.set({ millisecond: 1 });
  }
}

function refLength(e: ScheduleEvent, start: DateTime, end: DateTime): (slot: DateTime) => DateTime {
  if (e.repeat && (e.frequencyUnit === 'monthly' || e.frequencyUnit === 'yearly')) {
    let months = 0;
    while (start.plus({ months: months + 1 }) <= end) months++;
    const rest = end.toMillis() - start.plus({ months }).toMillis();
    return (slot) => slot.plus({ months }).plus(rest);
  }
  const length = end.toMillis() - start.toMillis();
  return (slot) => slot.plus(length);
}

function refOccurrences(e: ScheduleEvent, fromMs: number, toMs: number): RefOccurrence[] {
  const start = DateTime.fromISO(e.start, { zone: 'utc' });
  const endOf = refLength(e, start, DateTime.fromISO(e.end, { zone: 'utc' }));
  const exceptions = new Set(e.exceptions.map((x) => Date.parse(x)));
  const out: RefOccurrence[] = [];
  let index = 0;
  for (const slot of refSlots(e, start)) {
    if (slot.toMillis() > toMs + 2 * DAY) break;
    if (e.repeat && e.repeatEnd && (slot.toISODate() as string) > e.repeatEnd) break;
    if (slot.millisecond === 1) continue;
    const startMs = refInstant(e.timeZone, slot);
    const endMs = refInstant(e.timeZone, endOf(slot));
    const i = index++;
    if (startMs >= toMs) break;
    if (exceptions.has(startMs) || endMs <= startMs || endMs <= fromMs) continue;
    const attendees = e.rotation ? [e.attendees[i % e.attendees.length] as string] : e.attendees;
    out.push({ eventId: e.id, layer: e.layer, index: i, startMs, endMs, attendees });
  }
  return out;
}

interface RefRow extends RefOccurrence {
  override: boolean;
}

const refRows = (events: readonly ScheduleEvent[], fromMs: number, toMs: number): RefRow[] =>
  events.flatMap((e) => refOccurrences(e, fromMs, toMs).map((o) => ({ ...o, override: e.parentId !== undefined && !e.remainder })));

/** Naive on-call at one instant: per layer, overrides covering it if any, else every other occurrence. */
function refOnCall(rows: readonly RefRow[], t: number): string[] {
  const active = rows.filter((o) => o.startMs <= t && t < o.endMs);
  const overriddenLayers = new Set(active.filter((o) => o.override).map((o) => o.layer));
  return active
    .filter((o) => o.override || !overriddenLayers.has(o.layer))
    .map((o) => `${o.layer}:${o.eventId}:${o.attendees.join('+')}`)
    .sort();
}

const engineOnCall = (events: readonly ScheduleEvent[], t: number): string[] =>
  onCallAt(events, t)
    .map((o) => `${o.layer}:${o.eventId}:${o.attendees.join('+')}`)
    .sort();

// ── generators ────────────────────────────────────────────────────────────────────────────────────────────

/** Zones and a DST change of each (local date), so starts land around the changes. */
const ZONES: ReadonlyArray<readonly [string, string]> = [
  ['America/New_York', '2025-03-09'],
  ['America/New_York', '2025-11-02'],
  ['Europe/Berlin', '2025-03-30'],
  ['Europe/Berlin', '2025-10-26'],
  ['Australia/Lord_Howe', '2025-04-06'],
  ['Australia/Lord_Howe', '2025-10-05'],
  ['Australia/Sydney', '2025-10-05'],
  ['America/Santiago', '2025-04-05'],
  ['America/Santiago', '2025-09-07'],
  ['America/St_Johns', '2025-11-02'],
  ['Asia/Kolkata', '2025-06-01'],
  ['Etc/UTC', '2025-02-28'],
];
const UNITS: readonly FrequencyUnit[] = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'];
const PEOPLE = ['p0', 'p1', 'p2', 'p3'];

const wallClock = (d: DateTime): string => d.toFormat("yyyy-MM-dd'T'HH:mm:ss");

const eventArb = (id: string) =>
  fc
    .record({
      zone: fc.constantFrom(...ZONES),
      unit: fc.constantFrom(...UNITS),
      repeat: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
      frequency: fc.integer({ min: 1, max: 3 }),
      hourlyFrequency: fc.integer({ min: 1, max: 13 }),
      dayOffset: fc.integer({ min: -20, max: 2 }),
      minuteOfDay: fc.integer({ min: 0, max: 95 }).map((q) => q * 15),
      lengthFraction: fc.integer({ min: 1, max: 64 }).map((n) => n / 40),
      days: fc.option(fc.subarray([0, 1, 2, 3, 4, 5, 6], { minLength: 1 }), { nil: undefined }),
      repeatEndDays: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
      rotation: fc.boolean(),
      attendees: fc.integer({ min: 1, max: 4 }),
      layer: fc.integer({ min: 1, max: 2 }),
      exceptionPicks: fc.array(fc.nat(40), { maxLength: 3 }),
    })
    .map((g): ScheduleEvent => {
      const start = DateTime.fromISO(g.zone[1], { zone: 'utc' }).plus({ days: g.dayOffset, minutes: g.minuteOfDay });
      const frequency = g.unit === 'hourly' ? g.hourlyFrequency : g.frequency;
      const unitMinutes = { hourly: 60, daily: 1440, weekly: 10080, monthly: 43200, yearly: 43200 }[g.unit];
      const minutes = Math.max(15, Math.round((g.lengthFraction * frequency * unitMinutes) / 15) * 15);
      const base: ScheduleEvent = {
        id,
        layer: g.layer,
        timeZone: g.zone[0],
        start: wallClock(start),
        end: wallClock(start.plus({ minutes })),
        repeat: g.repeat,
        frequency,
        frequencyUnit: g.unit,
        ...(g.days ? { daysOfWeek: g.days } : {}),
        ...(g.repeatEndDays !== undefined ? { repeatEnd: start.plus({ days: g.repeatEndDays }).toISODate() as string } : {}),
        rotation: g.rotation,
        attendees: PEOPLE.slice(0, g.attendees),
        exceptions: [],
        scheduleIds: ['sch'],
      };
      const early = refOccurrences(base, -Infinity, start.toMillis() + 60 * DAY);
      const picked = g.exceptionPicks.map((k) => early[k]).filter((o) => o !== undefined);
      return { ...base, exceptions: picked.map((o) => new Date(o.startMs).toISOString()) };
    });

/** A window from a few days before to a couple of months after the start, up to three weeks long. */
const windowArb = fc.record({ fromHours: fc.integer({ min: -72, max: 24 * 70 }), hours: fc.integer({ min: 1, max: 24 * 21 }) });

const startMsOf = (e: ScheduleEvent): number => DateTime.fromISO(e.start, { zone: e.timeZone }).toMillis();

const RUNS = { numRuns: 300 };

describe('engine against the naive reference (fast-check)', { timeout: 60_000 }, () => {
  it('occurrencesBetween equals walking every slot from the first', () => {
    fc.assert(
      fc.property(eventArb('e'), windowArb, (e, w) => {
        const from = startMsOf(e) + w.fromHours * 3_600_000;
        const to = from + w.hours * 3_600_000;
        expect(occurrencesBetween(e, from, to)).toEqual(refOccurrences(e, from, to));
      }),
      RUNS,
    );
  });

  it('long jumps: a window far after the start keeps every index right', () => {
    fc.assert(
      fc.property(eventArb('e'), fc.integer({ min: 200, max: 900 }), (e, days) => {
        const from = startMsOf(e) + days * DAY;
        const to = from + 3 * DAY;
        expect(occurrencesBetween(e, from, to)).toEqual(refOccurrences(e, from, to));
      }),
      { numRuns: 40 },
    );
  });

  it('onCallAt equals the naive rule at sampled instants, with overrides on the schedule', () => {
    const scheduleArb = fc
      .tuple(eventArb('e1'), eventArb('e2'), eventArb('o1'), fc.boolean(), fc.boolean())
      .map(([a, b, o, isOverride, isRemainder]) => [
        a,
        b,
        isOverride ? { ...o, parentId: 'e1', ...(isRemainder ? { remainder: true } : {}) } : o,
      ]);
    fc.assert(
      fc.property(scheduleArb, fc.array(fc.integer({ min: -48, max: 24 * 40 }), { minLength: 5, maxLength: 12 }), (events, hours) => {
        const origin = startMsOf(events[0] as ScheduleEvent);
        const instants = hours.map((h) => origin + h * 3_600_000 + 7 * MINUTE);
        const rows = refRows(events, Math.min(...instants), Math.max(...instants) + 1);
        for (const t of instants) expect(engineOnCall(events, t), new Date(t).toISOString()).toEqual(refOnCall(rows, t));
      }),
      { numRuns: 150 },
    );
  });

  it('a window agrees with onCallAt at every instant inside it', () => {
    fc.assert(
      fc.property(fc.tuple(eventArb('e1'), eventArb('o1')), windowArb, ([a, o], w) => {
        const events = [a, { ...o, layer: a.layer, parentId: 'e1' }];
        const from = startMsOf(a) + w.fromHours * 3_600_000;
        const to = from + Math.min(w.hours, 72) * 3_600_000;
        const entries = occurrencesInWindow(events, from, to);
        for (let t = from; t < to; t += 45 * MINUTE) {
          const covering = entries.filter((x) => x.startMs <= t && t < x.endMs).map((x) => `${x.layer}:${x.eventId}:${x.attendees.join('+')}`);
          expect(covering.sort()).toEqual(engineOnCall(events, t));
        }
      }),
      { numRuns: 60 },
    );
  });
});

function apply(events: readonly ScheduleEvent[], original: ScheduleEvent, plan: EventPlan): ScheduleEvent[] {
  const rest = events.filter((e) => e.id !== original.id);
  return [...rest, ...(plan.deleteOriginal ? [] : [plan.updateOriginal ?? original]), ...plan.create.map((d, i) => ({ ...d, id: `new${i}` }))];
}

const pickOccurrence = (e: ScheduleEvent, pick: number) => {
  const list = refOccurrences(e, -Infinity, startMsOf(e) + 40 * DAY);
  return list.length === 0 ? undefined : list[pick % list.length];
};

describe('planners against the naive reference (fast-check)', { timeout: 60_000 }, () => {
  it('terminate_on keeps exactly the occurrences starting before action_time', () => {
    fc.assert(
      fc.property(eventArb('e'), fc.nat(), (e, pick) => {
        const target = pickOccurrence(e, pick);
        if (!target) return;
        const after = apply([e], e, planTerminateOn(e, target.startMs));
        const horizon = startMsOf(e) + 120 * DAY;
        const expected = refOccurrences(e, -Infinity, horizon).filter((o) => o.startMs < target.startMs);
        expect(after.flatMap((x) => occurrencesBetween(x, startMsOf(e) - 2 * DAY, horizon))).toEqual(expected);
      }),
      RUNS,
    );
  });

  it('add_exception removes exactly that occurrence', () => {
    fc.assert(
      fc.property(eventArb('e'), fc.nat(), (e, pick) => {
        const target = pickOccurrence(e, pick);
        if (!target) return;
        const [updated] = apply([e], e, planAddException(e, target.startMs));
        const horizon = startMsOf(e) + 60 * DAY;
        const expected = refOccurrences(e, -Infinity, horizon).filter((o) => o.startMs !== target.startMs);
        expect(occurrencesBetween(updated as ScheduleEvent, startMsOf(e) - 2 * DAY, horizon)).toEqual(expected);
      }),
      RUNS,
    );
  });

  it('override: the override layer shows the new attendees inside it, the occurrence keeps the rest', () => {
    fc.assert(
      fc.property(
        eventArb('e'),
        fc.nat(),
        fc.double({ min: -0.3, max: 1, noNaN: true }),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
        fc.constantFrom('Etc/UTC', 'America/New_York', 'Australia/Lord_Howe'),
        (e, pick, startFraction, lengthFraction, zone) => {
          const occurrence = pickOccurrence(e, pick);
          if (!occurrence) return;
          const length = occurrence.endMs - occurrence.startMs;
          const ovStart = occurrence.startMs + Math.floor((startFraction * length) / MINUTE) * MINUTE;
          const ovEnd = ovStart + Math.max(MINUTE, Math.floor((lengthFraction * length) / MINUTE) * MINUTE);
          if (!(ovStart < occurrence.endMs && ovEnd > occurrence.startMs)) return;
          const text = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm');
          // Wall-clock input names the first pass of a repeated hour; skip instants it cannot express. (Not
          // luxon's fromFormat: it resolves repeated hours by the season of today's date.)
          const expressible = (ms: number) => refInstant(zone, DateTime.fromFormat(text(ms), 'yyyy-MM-dd HH:mm', { zone: 'utc' })) === ms;
          if (!expressible(ovStart) || !expressible(ovEnd)) return;
          const layer = e.layer === 1 ? 2 : 1;
          const plan = planOverride(e, occurrence.startMs, { start: text(ovStart), end: text(ovEnd), layer, timeZone: zone, attendees: ['sub'] });
          const events = apply([e], e, plan);
          const withoutIt = { ...e, exceptions: [...e.exceptions, new Date(occurrence.startMs).toISOString()] };
          const inside = (t: number, a: number, b: number) => t >= a && t < b;
          const spanFrom = occurrence.startMs - 30 * MINUTE;
          const spanTo = Math.max(ovEnd, occurrence.endMs) + 30 * MINUTE;
          const others = refOccurrences(withoutIt, spanFrom, spanTo).map((o) => ({ ...o, eventId: 'e' }));
          const step = Math.max(20, Math.ceil((spanTo - spanFrom) / 80 / MINUTE)) * MINUTE;
          for (let t = spanFrom; t < spanTo; t += step) {
            const expected = refOnCall(others.map((o) => ({ ...o, override: false })), t);
            if (inside(t, occurrence.startMs, occurrence.endMs) && !inside(t, ovStart, ovEnd)) {
              expected.push(`${e.layer}:e:${occurrence.attendees.join('+')}`);
            }
            if (inside(t, ovStart, ovEnd)) expected.push(`${layer}:new${plan.create.length - 1}:sub`);
            const actual = engineOnCall(events, t)
              .map((row) => row.replace(/:new\d+:(?!sub)/, ':e:'))
              .sort();
            expect(actual, new Date(t).toISOString()).toEqual(expected.sort());
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
