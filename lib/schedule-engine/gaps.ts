// Gaps: the times when a layer of a schedule has nobody on call. Pure, from the one on-call function's entries
// (docs/schedules.md, "Gaps").
import { compileEvent } from './recurrence.ts';
import type { Absence, OnCallEntry, ScheduleEvent } from './types.ts';
import { occurrencesInWindow } from './views.ts';

export interface Gap {
  readonly layer: number;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * For each layer that has events (readable ones) in the schedule, the parts of [fromMs, toMs) during which nobody
 * is on call on it, cut to the window; sorted by layer, then start. An entry with no attendee covers nothing.
 */
export function gapsBetween(events: readonly ScheduleEvent[], fromMs: number, toMs: number, away: readonly Absence[] = []): Gap[] {
  const layers = [...new Set(events.filter((e) => compileEvent(e) !== undefined).map((e) => e.layer))].sort((a, b) => a - b);
  const byLayer = new Map<number, OnCallEntry[]>();
  for (const entry of occurrencesInWindow(events, fromMs, toMs, away)) {
    if (entry.attendees.length === 0) continue;
    const list = byLayer.get(entry.layer) ?? [];
    list.push(entry);
    byLayer.set(entry.layer, list);
  }
  const gaps: Gap[] = [];
  for (const layer of layers) {
    const covered = (byLayer.get(layer) ?? []).sort((a, b) => a.startMs - b.startMs);
    let cursor = fromMs;
    for (const entry of covered) {
      if (entry.startMs > cursor) gaps.push({ layer, startMs: cursor, endMs: Math.min(entry.startMs, toMs) });
      cursor = Math.max(cursor, entry.endMs);
      if (cursor >= toMs) break;
    }
    if (cursor < toMs) gaps.push({ layer, startMs: cursor, endMs: toMs });
  }
  return gaps;
}
