import { FREQUENCY_UNITS, type ScheduleEvent } from './types.ts';
import {
  addMonths,
  addMonthsClamped,
  DAY_MS,
  HOUR_MS,
  monthIndexOf,
  parseInstant,
  parseLocalDate,
  parseWallClock,
  WEEK_MS,
  weekdayOf,
} from './wall-clock.ts';
import { resolveZone, zoneClock, type ZoneClock } from './zone-clock.ts';

/**
 * The slots of a repeating event on floating time. Step i is the i-th slot; a slot may hold no occurrence
 * (filtered weekday, or a month without that day), and only held slots are occurrences, so counting held
 * slots before a step gives the rotation index without walking from the first occurrence.
 */
export interface Recurrence {
  /** A step no later than the first slot at or after floating time `f`. */
  firstStepFrom(f: number): number;
  /** Floating start of the slot; strictly increasing with the step, held or not. */
  slot(step: number): number;
  holds(step: number): boolean;
  /** Number of held slots before `step`. */
  heldBefore(step: number): number;
}

/** Everything the expansion needs from an event, derived once per event object. */
export interface CompiledEvent {
  readonly event: ScheduleEvent;
  readonly clock: ZoneClock;
  readonly startF: number;
  /** Undefined for a non-repeating event. */
  readonly recurrence: Recurrence | undefined;
  /** Slots at or after this floating time are past repeat_end (the day after it, 00:00). */
  readonly endBoundF: number;
  /** Longest floating length any occurrence can have. */
  readonly maxLengthF: number;
  readonly endOf: (startF: number) => number;
  readonly exceptionMs: ReadonlySet<number>;
  /** Who is on call in occurrence k: attendee k mod n of a rotation, everyone otherwise. */
  readonly attendeesOf: (index: number) => readonly string[];
}

const compiled = new WeakMap<ScheduleEvent, CompiledEvent | null>();

/** Undefined when the event cannot be read (eventProblems says why): such an event puts nobody on call. */
export function compileEvent(event: ScheduleEvent): CompiledEvent | undefined {
  let c = compiled.get(event);
  if (c === undefined) {
    c = compile(event) ?? null;
    compiled.set(event, c);
  }
  return c ?? undefined;
}

function compile(event: ScheduleEvent): CompiledEvent | null {
  const zone = resolveZone(event.timeZone);
  const startF = parseWallClock(event.start);
  const firstEndF = parseWallClock(event.end);
  if (!zone || startF === undefined || firstEndF === undefined || firstEndF <= startF) return null;
  const base = {
    event,
    clock: zoneClock(zone),
    startF,
    exceptionMs: parseExceptions(event.exceptions),
    attendeesOf: attendeesOf(event),
  };
  if (!event.repeat) {
    return { ...base, recurrence: undefined, endBoundF: Infinity, maxLengthF: firstEndF - startF, endOf: () => firstEndF };
  }
  const { frequency: n, frequencyUnit: unit } = event;
  if (!Number.isInteger(n) || (n as number) < 1 || !unit || !FREQUENCY_UNITS.includes(unit)) return null;
  const repeatEndF = event.repeatEnd === undefined ? undefined : parseLocalDate(event.repeatEnd);
  if (event.repeatEnd !== undefined && repeatEndF === undefined) return null;
  const dayMask = maskOf(event.daysOfWeek);
  const byMonth = unit === 'monthly' || unit === 'yearly';
  const length = byMonth ? monthLength(startF, firstEndF) : { months: 0, restF: firstEndF - startF };
  return {
    ...base,
    recurrence: recurrenceOf(unit, n as number, startF, dayMask),
    endBoundF: repeatEndF === undefined ? Infinity : repeatEndF + DAY_MS,
    maxLengthF: length.months * 31 * DAY_MS + length.restF,
    endOf: length.months === 0 ? (f) => f + length.restF : (f) => addMonthsClamped(f, length.months) + length.restF,
  };
}

function attendeesOf({ rotation, attendees }: ScheduleEvent): (index: number) => readonly string[] {
  if (!rotation || attendees.length === 0) return () => attendees;
  const turns = attendees.map((id) => [id]);
  return (index) => turns[index % turns.length] as string[];
}

function parseExceptions(exceptions: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const text of exceptions) {
    const ms = parseInstant(text);
    if (Number.isFinite(ms)) out.add(ms);
  }
  return out;
}

const EVERY_DAY = 0b1111111;

/** Bit d set = weekday d allowed; undefined when no filter is given. */
function maskOf(days: readonly number[] | undefined): number | undefined {
  if (!days || days.length === 0) return undefined;
  let mask = 0;
  for (const d of days) if (Number.isInteger(d) && d >= 0 && d <= 6) mask |= 1 << d;
  return mask;
}

const allowed = (mask: number, f: number): boolean => (mask & (1 << weekdayOf(f))) !== 0;

/**
 * A monthly or yearly event keeps its length in whole calendar months plus the rest in wall-clock time, so a
 * month-long shift (Jan 1 → Feb 1) repeats as Feb 1 → Mar 1 instead of overlapping the next one.
 */
function monthLength(startF: number, endF: number): { months: number; restF: number } {
  let months = monthIndexOf(endF) - monthIndexOf(startF);
  while (months > 0 && addMonthsClamped(startF, months) > endF) months--;
  return { months, restF: endF - addMonthsClamped(startF, months) };
}

function recurrenceOf(unit: string, n: number, startF: number, filter: number | undefined): Recurrence {
  const mask = filter ?? EVERY_DAY;
  switch (unit) {
    case 'hourly':
      return filteredSteps(startF, n * HOUR_MS, mask);
    case 'daily':
      return filteredSteps(startF, n * DAY_MS, mask);
    case 'weekly':
      return filter === undefined ? filteredSteps(startF, n * WEEK_MS, mask) : weekdaysEveryNWeeks(startF, n, mask);
    case 'yearly':
      return calendarSteps(startF, 12 * n, mask);
    default:
      return calendarSteps(startF, n, mask);
  }
}

/**
 * Fixed floating step with a weekday filter. Whether step j is held repeats with period
 * WEEK / gcd(step, WEEK) steps (≤ 168 for hourly steps), so held counts come from one period's prefix sums.
 */
function filteredSteps(startF: number, stepF: number, mask: number): Recurrence {
  const period = WEEK_MS / gcd(stepF, WEEK_MS);
  const heldAt = (step: number) => allowed(mask, startF + step * stepF);
  const prefix = [0];
  for (let j = 0; j < period; j++) prefix.push((prefix[j] as number) + (heldAt(j) ? 1 : 0));
  const perPeriod = prefix[period] as number;
  return {
    firstStepFrom: (f) => Math.max(0, Math.floor((f - startF) / stepF)),
    slot: (step) => startF + step * stepF,
    holds: (step) => perPeriod > 0 && heldAt(step),
    heldBefore: (step) => Math.floor(step / period) * perPeriod + (prefix[step % period] as number),
  };
}

/**
 * Weekly with days_of_week: the listed days of every n-th week. Weeks run Sunday to Saturday (the numbering
 * of days_of_week), counted from the week of the event's start; days of that first week before the start
 * do not happen. Steps are days from that week's Sunday.
 */
function weekdaysEveryNWeeks(startF: number, n: number, mask: number): Recurrence {
  const sundayF = startF - weekdayOf(startF) * DAY_MS;
  const firstStep = weekdayOf(startF);
  const days = [0, 1, 2, 3, 4, 5, 6].filter((d) => (mask & (1 << d)) !== 0);
  const heldInWeekBefore = (d: number) => days.filter((day) => day < d).length;
  // Held slots among steps [0, x), ignoring the first-week cut.
  const countTo = (x: number) => {
    const cycle = 7 * n;
    const r = x % cycle;
    return Math.floor(x / cycle) * days.length + (r >= 7 ? days.length : heldInWeekBefore(r));
  };
  return {
    firstStepFrom: (f) => Math.max(firstStep, Math.floor((f - sundayF) / DAY_MS)),
    slot: (step) => sundayF + step * DAY_MS,
    holds: (step) => step >= firstStep && Math.floor(step / 7) % n === 0 && (mask & (1 << step % 7)) !== 0,
    heldBefore: (step) => (step <= firstStep ? 0 : countTo(step) - countTo(firstStep)),
  };
}

/**
 * Every `stepMonths` months on the start's day of the month. A month without that day (the 31st, Feb 29 in
 * a common year) holds no occurrence, as in RFC 5545; its slot is the month's last day, only to keep slots
 * increasing. Counting walks the months, which is cheap integer work even for decades.
 */
function calendarSteps(startF: number, stepMonths: number, mask: number): Recurrence {
  const holds = (step: number) => {
    const f = addMonths(startF, step * stepMonths, false);
    return f !== undefined && allowed(mask, f);
  };
  let memoStep = 0;
  let memoCount = 0;
  return {
    firstStepFrom: (f) => Math.max(0, Math.floor((monthIndexOf(f) - monthIndexOf(startF)) / stepMonths)),
    slot: (step) => addMonthsClamped(startF, step * stepMonths),
    holds,
    heldBefore: (step) => {
      if (step < memoStep) [memoStep, memoCount] = [0, 0];
      for (; memoStep < step; memoStep++) if (holds(memoStep)) memoCount++;
      return memoCount;
    },
  };
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
