import { NotAnOccurrenceError, ScheduleInputError } from './errors.ts';
import { locatedBetween, occurrenceAfter, occurrenceBefore, plainOccurrence, type LocatedOccurrence } from './expand.ts';
import {
  isOverride,
  type EventDraft,
  type EventPlan,
  type Occurrence,
  type OverrideInput,
  type OverridePlan,
  type ScheduleEvent,
} from './types.ts';
import { DAY_MS, formatLocalDate, formatWallClock, parseWallClock, startOfDay } from './wall-clock.ts';
import { resolveZone, zoneClock } from './zone-clock.ts';

// Pure planners for the event actions: they check action_time against the event and describe the change;
// the caller applies it (one transaction) and assigns ids to the drafts.

/** The occurrence starting exactly at actionMs, or NotAnOccurrenceError with the nearest starts. */
export function occurrenceAt(event: ScheduleEvent, actionMs: number): Occurrence {
  return plainOccurrence(locateAt(event, actionMs));
}

function locateAt(event: ScheduleEvent, actionMs: number): LocatedOccurrence {
  const found = locatedBetween(event, actionMs, actionMs + 1).find((o) => o.startMs === actionMs);
  if (found) return found;
  throw new NotAnOccurrenceError(actionMs, occurrenceBefore(event, actionMs)?.startMs, occurrenceAfter(event, actionMs)?.startMs);
}

/** add_exception: the occurrence at actionMs no longer happens (later rotation turns do not move). */
export function planAddException(event: ScheduleEvent, actionMs: number): EventPlan {
  const occurrence = locateAt(event, actionMs);
  return { updateOriginal: withExceptions(event, [occurrence.startMs]), deleteOriginal: false, create: [] };
}

/**
 * terminate_on: the occurrence at actionMs and all later ones no longer happen. repeat_end becomes the local
 * date of the last occurrence kept; because repeat_end keeps a whole day, later occurrences on that same day
 * (hourly events) are excepted. Nothing kept → the event is deleted.
 */
export function planTerminateOn(event: ScheduleEvent, actionMs: number): EventPlan {
  const occurrence = locateAt(event, actionMs);
  const kept = occurrenceBefore(event, occurrence.startMs);
  if (!kept) return { deleteOriginal: true, create: [] };
  const lastDayF = startOfDay(kept.floatingStart);
  const clock = zoneClock(resolveZone(event.timeZone) as string);
  const sameDay = locatedBetween(event, occurrence.startMs, clock.toInstant(lastDayF + DAY_MS) + 1).filter(
    (o) => o.startMs >= occurrence.startMs && o.floatingStart < lastDayF + DAY_MS,
  );
  const terminated = { ...event, repeatEnd: formatLocalDate(lastDayF) };
  return { updateOriginal: withExceptions(terminated, sameDay.map((o) => o.startMs)), deleteOriginal: false, create: [] };
}

/**
 * override: [input.start, input.end) on input.layer goes to input.attendees instead of the occurrence at
 * actionMs. The override must overlap that occurrence; it may reach beyond it, where it clips whatever else
 * is on call on its layer. The occurrence's uncovered parts stay with its on-call attendees:
 * - repeating event: exception at the occurrence + a one-off remainder event for each uncovered part;
 * - one-off event: the event itself shrinks to the part before (or moves to the part after) the override,
 *   and a remainder event takes the part after; fully covered → excepted.
 */
export function planOverride(event: ScheduleEvent, actionMs: number, input: OverrideInput): OverridePlan {
  const { zone, startMs, endMs, startF, endF } = readOverride(input);
  const occurrence = locateAt(event, actionMs);
  if (!(startMs < occurrence.endMs && endMs > occurrence.startMs)) {
    throw new ScheduleInputError(
      `start_time and end_time must overlap the occurrence being overridden (${iso(occurrence.startMs)} to ${iso(occurrence.endMs)})`,
    );
  }
  const override: EventDraft = {
    layer: input.layer,
    timeZone: zone,
    start: formatWallClock(startF),
    end: formatWallClock(endF),
    repeat: false,
    rotation: false,
    attendees: [...input.attendees],
    exceptions: [],
    parentId: event.id,
    scheduleIds: [...event.scheduleIds],
  };
  const before = startMs > occurrence.startMs ? { startMs: occurrence.startMs, endMs: startMs } : undefined;
  const after = endMs < occurrence.endMs ? { startMs: endMs, endMs: occurrence.endMs } : undefined;
  const zones = [resolveZone(event.timeZone) as string, zone];
  const remainder = (part: Interval) => remainderOf(event, occurrence, writeInterval(part, zones));

  if (event.repeat) {
    const pieces = [before, after].filter((p) => p !== undefined).map(remainder);
    return plan(withExceptions(event, [occurrence.startMs]), [...pieces, override], override);
  }
  if (before) {
    return plan({ ...event, ...writeInterval(before, zones) }, [...(after ? [remainder(after)] : []), override], override);
  }
  if (after) return plan({ ...event, ...writeInterval(after, zones) }, [override], override);
  return plan(withExceptions(event, [occurrence.startMs]), [override], override);
}

interface Interval {
  startMs: number;
  endMs: number;
}

const plan = (updateOriginal: ScheduleEvent, create: EventDraft[], override: EventDraft): OverridePlan => ({
  updateOriginal,
  deleteOriginal: false,
  create,
  override,
});

function readOverride(input: OverrideInput) {
  const problems: string[] = [];
  const zone = resolveZone(input.timeZone);
  const startF = parseWallClock(input.start);
  const endF = parseWallClock(input.end);
  if (!Number.isInteger(input.layer) || input.layer < 1) problems.push('layer must be an integer of at least 1');
  if (!zone) problems.push('time_zone is not a valid time zone');
  if (startF === undefined) problems.push('start_time must be a wall-clock time YYYY-MM-DD HH:mm');
  if (endF === undefined) problems.push('end_time must be a wall-clock time YYYY-MM-DD HH:mm');
  if (input.attendees.length === 0) problems.push('account_user_ids must name at least one account user');
  if (problems.length > 0 || !zone || startF === undefined || endF === undefined) throw new ScheduleInputError(problems);
  const clock = zoneClock(zone);
  const startMs = clock.toInstant(startF);
  const endMs = clock.toInstant(endF);
  if (endMs <= startMs) throw new ScheduleInputError('end_time must be after start_time');
  return { zone, startMs, endMs, startF, endF };
}

/** A one-off event holding part of an occurrence for the attendees who were on call in it. */
function remainderOf(event: ScheduleEvent, occurrence: Occurrence, when: ReturnType<typeof writeInterval>): EventDraft {
  return {
    layer: event.layer,
    ...when,
    repeat: false,
    rotation: false,
    attendees: [...occurrence.attendees],
    exceptions: [],
    parentId: event.id,
    // A piece of an override is still an override; a piece of anything else must not gain precedence.
    ...(isOverride(event) ? {} : { remainder: true }),
    scheduleIds: [...event.scheduleIds],
  };
}

/**
 * Wall-clock start/end for the instants in the first zone where they read back to the same instants. The
 * second of two fall-back times (01:30 EST) cannot be written in that zone, since a wall-clock time means the
 * first one; then the next zone is tried, and UTC always works.
 */
function writeInterval(part: Interval, zones: readonly string[]): { timeZone: string; start: string; end: string } {
  for (const timeZone of zones) {
    const clock = zoneClock(timeZone);
    const start = formatWallClock(clock.toFloating(part.startMs));
    const end = formatWallClock(clock.toFloating(part.endMs));
    if (readsBack(clock, start, part.startMs) && readsBack(clock, end, part.endMs)) return { timeZone, start, end };
  }
  return { timeZone: 'Etc/UTC', start: formatWallClock(part.startMs), end: formatWallClock(part.endMs) };
}

const readsBack = (clock: ReturnType<typeof zoneClock>, text: string, ms: number): boolean =>
  clock.toInstant(parseWallClock(text) as number) === ms;

function withExceptions(event: ScheduleEvent, startsMs: readonly number[]): ScheduleEvent {
  return startsMs.length === 0 ? event : { ...event, exceptions: [...event.exceptions, ...startsMs.map(iso)] };
}

const iso = (ms: number): string => new Date(ms).toISOString();
