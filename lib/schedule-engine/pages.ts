// A window of on-call entries in pages of bounded size, in time order, expanding only a little more than one
// page at a time (docs/events-api.md, "Large windows"). Pure.
import type { Absence, OnCallEntry, ScheduleEvent } from './types.ts';
import { occurrencesInWindowAtMost } from './views.ts';

const HOUR_MS = 3_600_000;

export interface EntryPage {
  /** Entries whose effective start (their start, or the window's start for one that began before) is in the page, in time order. */
  readonly entries: OnCallEntry[];
  /** Where the next page starts (its `cursor`); absent on the last page. */
  readonly nextMs?: number;
}

/** An entry's place in a paged window: its start, or the window's start for an entry that began before it. */
const effectiveStart = (e: OnCallEntry, fromMs: number): number => Math.max(e.startMs, fromMs);

const byTime = (fromMs: number) => (a: OnCallEntry, b: OnCallEntry) =>
  effectiveStart(a, fromMs) - effectiveStart(b, fromMs) || a.layer - b.layer || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0) || a.index - b.index || a.startMs - b.startMs;

/**
 * The page of [fromMs, toMs) starting at `cursorMs` (fromMs for the first): at most `limit` entries, cut between two
 * effective starts, except that all entries starting at one instant stay together (a page holds at least one
 * instant's entries). The span expanded doubles from an hour until it holds more than a page, and halves when one
 * span holds far too many, so memory stays near one page whatever the window.
 */
export function occurrencesPage(
  events: readonly ScheduleEvent[],
  fromMs: number,
  toMs: number,
  cursorMs: number,
  limit: number,
  away: readonly Absence[] = [],
): EntryPage {
  // Entries overlapping a short span but starting before it are filtered out; they are bounded by the events.
  const cap = 2 * limit + 4 * events.length + 100;
  let span = Math.min(HOUR_MS, toMs - cursorMs);
  // The last span whose entries fit in a page. Long entries that began earlier count against `cap` but not the page,
  // so a doubled span can overflow while the one before fitted: that one is the page, or the spans would oscillate.
  let fitted: { entries: OnCallEntry[]; hi: number } | undefined;
  for (;;) {
    const hi = Math.min(toMs, cursorMs + span);
    const found = occurrencesInWindowAtMost(events, cursorMs, hi, cap, away);
    if (!found) {
      if (fitted) return { entries: fitted.entries.sort(byTime(fromMs)), nextMs: fitted.hi };
      if (span <= 1) throw new Error('occurrencesPage: one instant holds more entries than a page can');
      span = Math.max(1, Math.floor(span / 2));
      continue;
    }
    const inSpan = found.filter((e) => {
      const at = effectiveStart(e, fromMs);
      return at >= cursorMs && at < hi;
    });
    if (inSpan.length > limit || hi >= toMs) {
      inSpan.sort(byTime(fromMs));
      if (inSpan.length <= limit) return { entries: inSpan };
      let cut = effectiveStart(inSpan[limit] as OnCallEntry, fromMs);
      if (cut === effectiveStart(inSpan[0] as OnCallEntry, fromMs)) {
        // One instant holds more than `limit`: the page is that instant's entries.
        cut = effectiveStart(inSpan.find((e) => effectiveStart(e, fromMs) > cut) ?? (inSpan.at(-1) as OnCallEntry), fromMs);
        if (cut === effectiveStart(inSpan[0] as OnCallEntry, fromMs)) return hi >= toMs ? { entries: inSpan } : { entries: inSpan, nextMs: hi };
      }
      return { entries: inSpan.filter((e) => effectiveStart(e, fromMs) < cut), nextMs: cut };
    }
    fitted = { entries: inSpan, hi };
    span *= 2;
  }
}
