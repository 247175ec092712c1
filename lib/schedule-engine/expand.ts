import { compileEvent, type CompiledEvent } from './recurrence.ts';
import type { Occurrence, ScheduleEvent } from './types.ts';
import { DAY_MS } from './wall-clock.ts';

/** An occurrence plus the floating (wall-clock) start of its slot, for actions that need the local date. */
export interface LocatedOccurrence extends Occurrence {
  readonly floatingStart: number;
}

// Floating and real time differ by the zone offset, which can jump by up to a day (Pacific/Apia, 2011), so
// floating bounds derived from instants are widened by this much and the real bounds are checked exactly.
const OFFSET_MARGIN_MS = 2 * DAY_MS;
// Wall-clock times have four-digit years, so no occurrence lies outside these; windows are clamped to them.
const FIRST_INSTANT_MS = Date.UTC(1000, 0, 1);
const LAST_INSTANT_MS = Date.UTC(9999, 11, 31);

/**
 * Occurrences of one event overlapping [fromMs, toMs), in start order. The single expansion every view and
 * action uses. Slots are computed on floating time and each start/end is converted to an instant in the
 * event's zone; the scan jumps straight to the window, counting skipped occurrences arithmetically so the
 * rotation index stays right. Excepted occurrences and occurrences that take no real time (a slot lying
 * wholly inside a spring-forward gap) are left out but keep their index.
 */
export function occurrencesBetween(event: ScheduleEvent, fromMs: number, toMs: number): Occurrence[] {
  return locatedBetween(event, fromMs, toMs).map(plainOccurrence);
}

export const plainOccurrence = (o: LocatedOccurrence): Occurrence => ({
  eventId: o.eventId,
  layer: o.layer,
  index: o.index,
  startMs: o.startMs,
  endMs: o.endMs,
  attendees: o.attendees,
});

export function locatedBetween(event: ScheduleEvent, from: number, to: number): LocatedOccurrence[] {
  const c = compileEvent(event);
  const fromMs = Math.max(from, FIRST_INSTANT_MS);
  const toMs = Math.min(to, LAST_INSTANT_MS);
  if (!c || !(fromMs < toMs)) return [];
  const out: LocatedOccurrence[] = [];
  const keep = (o: LocatedOccurrence) => {
    if (o.endMs > fromMs && o.endMs > o.startMs && !c.exceptionMs.has(o.startMs)) out.push(o);
  };
  const r = c.recurrence;
  if (!r) {
    const o = occurrenceOf(c, 0, c.startF);
    if (o.startMs < toMs) keep(o);
    return out;
  }
  const lowF = c.clock.toFloating(fromMs) - c.maxLengthF - OFFSET_MARGIN_MS;
  const highF = Math.min(c.clock.toFloating(toMs) + OFFSET_MARGIN_MS, c.endBoundF);
  let step = r.firstStepFrom(lowF);
  let index = r.heldBefore(step);
  for (let slotF = r.slot(step); slotF < highF; slotF = r.slot(++step)) {
    if (!r.holds(step)) continue;
    const o = occurrenceOf(c, index++, slotF);
    if (o.startMs >= toMs) break;
    keep(o);
  }
  return out;
}

function occurrenceOf(c: CompiledEvent, index: number, startF: number): LocatedOccurrence {
  return {
    eventId: c.event.id,
    layer: c.event.layer,
    index,
    startMs: c.clock.toInstant(startF),
    endMs: c.clock.toInstant(c.endOf(startF)),
    attendees: c.attendeesOf(index),
    floatingStart: startF,
  };
}

/** The last occurrence starting before `ms`, searching back over doubling windows. */
export function occurrenceBefore(event: ScheduleEvent, ms: number): LocatedOccurrence | undefined {
  const c = compileEvent(event);
  if (!c) return undefined;
  const firstMs = c.clock.toInstant(c.startF) - OFFSET_MARGIN_MS;
  for (let span = 2 * DAY_MS; ; span *= 2) {
    const found = locatedBetween(event, ms - span, ms).filter((o) => o.startMs < ms).at(-1);
    if (found || ms - span < firstMs) return found;
  }
}

/** The first occurrence starting after `ms`, searching forward over doubling windows. */
export function occurrenceAfter(event: ScheduleEvent, ms: number): LocatedOccurrence | undefined {
  const c = compileEvent(event);
  if (!c) return undefined;
  const lastMs = Math.min(LAST_INSTANT_MS, c.clock.toInstant(Math.min(c.endBoundF, LAST_INSTANT_MS)) + OFFSET_MARGIN_MS);
  const fromMs = Math.max(ms + 1, c.clock.toInstant(c.startF) - OFFSET_MARGIN_MS);
  for (let span = 2 * DAY_MS; ; span *= 2) {
    const found = locatedBetween(event, fromMs, fromMs + span).find((o) => o.startMs > ms);
    if (found || fromMs + span > lastMs) return found;
  }
}
