import { locatedBetween } from './expand.ts';
import { awayIndex, piecesWithTimeOff } from './time-off.ts';
import { isOverride, type Absence, type OnCallEntry, type Occurrence, type ScheduleEvent } from './types.ts';

interface Interval {
  startMs: number;
  endMs: number;
}

/**
 * Who is on call during [fromMs, toMs), for the events of one schedule: every occurrence overlapping the
 * window, except that on each layer an override takes the time it covers away from the occurrences of
 * non-override events (clipping them, possibly into two pieces). Overrides never clip each other, and
 * non-override events that overlap are all on call. Time off (`away`) then changes who is on call in what the
 * regular events keep: a rotation's absent on-duty attendee is covered by the next one present, an absent
 * attendee of another event is left out (piecesWithTimeOff); overrides keep whoever they name. Entries keep their
 * full (clipped) times, not cut to the window; sorted by layer, start, event id.
 */
export function occurrencesInWindow(events: readonly ScheduleEvent[], fromMs: number, toMs: number, away: readonly Absence[] = []): OnCallEntry[] {
  return occurrencesInWindowAtMost(events, fromMs, toMs, Number.POSITIVE_INFINITY, away) as OnCallEntry[];
}

/**
 * occurrencesInWindow, counted while expanding: undefined as soon as the window holds more than `maxEntries`
 * entries, having built at most that many plus one event's occurrences, so an oversized window is refused in small
 * time and memory. Events are expanded one at a time; the overrides first, over the span the regular occurrences
 * overlapping the window reach (found from the occurrences at the window's two ends).
 */
export function occurrencesInWindowAtMost(
  events: readonly ScheduleEvent[],
  fromMs: number,
  toMs: number,
  maxEntries: number,
  away: readonly Absence[] = [],
): OnCallEntry[] | undefined {
  const awayOf = awayIndex(away);
  const regularEvents = events.filter((e) => !isOverride(e));
  // A regular occurrence reaching outside the window can be clipped there too, so overrides are expanded over
  // everything those occurrences span. One that starts before the window holds fromMs, one that ends after it
  // holds toMs - 1: the occurrences at the two ends give the span without expanding the window.
  let spanFrom = fromMs;
  let spanTo = toMs;
  for (const event of regularEvents) {
    for (const o of locatedBetween(event, fromMs, Math.min(fromMs + 1, toMs))) spanFrom = Math.min(spanFrom, o.startMs);
    for (const o of locatedBetween(event, Math.max(toMs - 1, fromMs), toMs)) spanTo = Math.max(spanTo, o.endMs);
  }
  const entries: OnCallEntry[] = [];
  const overrides: Occurrence[] = [];
  for (const event of events.filter(isOverride)) {
    for (const o of locatedBetween(event, spanFrom, spanTo)) {
      overrides.push(o);
      if (overlaps(o, fromMs, toMs)) entries.push(entryOf(o, o, true));
    }
    if (entries.length > maxEntries) return undefined;
  }
  const covered = coverageByLayer(overrides);
  for (const event of regularEvents) {
    for (const o of locatedBetween(event, fromMs, toMs)) {
      for (const clipped of subtract(o, covered.get(o.layer) ?? [])) {
        if (!overlaps(clipped, fromMs, toMs)) continue;
        for (const piece of piecesWithTimeOff(event, o, clipped, awayOf)) {
          if (overlaps(piece, fromMs, toMs)) entries.push(entryOf(o, piece, false, piece.attendees, piece.coveringFor));
        }
      }
    }
    if (entries.length > maxEntries) return undefined;
  }
  return entries.sort(byLayerStartEvent);
}

/** Who is on call at the instant: the entries active at nowMs (start ≤ now < end). */
export function onCallAt(events: readonly ScheduleEvent[], nowMs: number, away: readonly Absence[] = []): OnCallEntry[] {
  return occurrencesInWindow(events, nowMs, nowMs + 1, away);
}

const overlaps = (i: Interval, fromMs: number, toMs: number): boolean => i.startMs < toMs && i.endMs > fromMs;

function entryOf(o: Occurrence, part: Interval, override: boolean, attendees = o.attendees, coveringFor?: string): OnCallEntry {
  return {
    eventId: o.eventId,
    layer: o.layer,
    index: o.index,
    startMs: part.startMs,
    endMs: part.endMs,
    attendees,
    occurrenceStartMs: o.startMs,
    occurrenceEndMs: o.endMs,
    override,
    ...(coveringFor !== undefined ? { coveringFor } : {}),
  };
}

/** Per layer, the union of the override occurrences as sorted, disjoint intervals. */
function coverageByLayer(overrides: readonly Occurrence[]): Map<number, Interval[]> {
  const byLayer = new Map<number, Interval[]>();
  const sorted = [...overrides].sort((a, b) => a.startMs - b.startMs);
  for (const { layer, startMs, endMs } of sorted) {
    const list = byLayer.get(layer) ?? [];
    const last = list.at(-1);
    if (last && startMs <= last.endMs) last.endMs = Math.max(last.endMs, endMs);
    else list.push({ startMs, endMs });
    byLayer.set(layer, list);
  }
  return byLayer;
}

/** The parts of `interval` outside the sorted, disjoint `cover`. */
function subtract(interval: Interval, cover: readonly Interval[]): Interval[] {
  const pieces: Interval[] = [];
  let cursor = interval.startMs;
  for (let i = firstEndingAfter(cover, cursor); i < cover.length && cursor < interval.endMs; i++) {
    const c = cover[i] as Interval;
    if (c.startMs >= interval.endMs) break;
    if (c.startMs > cursor) pieces.push({ startMs: cursor, endMs: c.startMs });
    cursor = Math.max(cursor, c.endMs);
  }
  if (cursor < interval.endMs) pieces.push({ startMs: cursor, endMs: interval.endMs });
  return pieces;
}

function firstEndingAfter(cover: readonly Interval[], ms: number): number {
  let lo = 0;
  let hi = cover.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cover[mid] as Interval).endMs <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function byLayerStartEvent(a: OnCallEntry, b: OnCallEntry): number {
  return a.layer - b.layer || a.startMs - b.startMs || compareText(a.eventId, b.eventId) || a.index - b.index;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
