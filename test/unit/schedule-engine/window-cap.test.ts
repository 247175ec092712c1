// occurrencesInWindowAtMost counts while it expands: the same entries as the whole expansion when they fit, undefined
// as soon as they do not, without building an oversized window (docs/events-api.md, window_events).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locatedBetween } from '#lib/schedule-engine/expand.ts';
import { isOverride, occurrencesInWindow, occurrencesInWindowAtMost, type OnCallEntry, type Occurrence, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

const HOUR = 3_600_000;
const ORIGIN = Date.UTC(2026, 2, 1);

/** The expansion as it was before it counted: every occurrence of every event first, then clipping. The oracle. */
function wholeExpansion(events: readonly ScheduleEvent[], fromMs: number, toMs: number): OnCallEntry[] {
  const regular = events.filter((e) => !isOverride(e)).flatMap((e) => locatedBetween(e, fromMs, toMs));
  let spanFrom = fromMs;
  let spanTo = toMs;
  for (const o of regular) {
    spanFrom = Math.min(spanFrom, o.startMs);
    spanTo = Math.max(spanTo, o.endMs);
  }
  const overrides = events.filter(isOverride).flatMap((e) => locatedBetween(e, spanFrom, spanTo));
  const cover = new Map<number, { startMs: number; endMs: number }[]>();
  for (const { layer, startMs, endMs } of [...overrides].sort((a, b) => a.startMs - b.startMs)) {
    const list = cover.get(layer) ?? [];
    const last = list.at(-1);
    if (last && startMs <= last.endMs) last.endMs = Math.max(last.endMs, endMs);
    else list.push({ startMs, endMs });
    cover.set(layer, list);
  }
  const entry = (o: Occurrence, startMs: number, endMs: number, override: boolean): OnCallEntry => ({
    eventId: o.eventId, layer: o.layer, index: o.index, startMs, endMs, attendees: o.attendees,
    occurrenceStartMs: o.startMs, occurrenceEndMs: o.endMs, override,
  });
  const entries: OnCallEntry[] = overrides.filter((o) => o.startMs < toMs && o.endMs > fromMs).map((o) => entry(o, o.startMs, o.endMs, true));
  for (const o of regular) {
    let cursor = o.startMs;
    const pieces: [number, number][] = [];
    for (const c of cover.get(o.layer) ?? []) {
      if (c.endMs <= cursor) continue;
      if (c.startMs >= o.endMs) break;
      if (c.startMs > cursor) pieces.push([cursor, c.startMs]);
      cursor = Math.max(cursor, c.endMs);
    }
    if (cursor < o.endMs) pieces.push([cursor, o.endMs]);
    for (const [s, e] of pieces) if (s < toMs && e > fromMs) entries.push(entry(o, s, e, false));
  }
  return entries.sort((a, b) => a.layer - b.layer || a.startMs - b.startMs || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0) || a.index - b.index);
}

const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19);

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
      kind: fc.constantFrom('regular', 'override', 'remainder'),
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
        rotation: false,
        attendees: ['p'],
        exceptions: [],
        scheduleIds: ['s'],
        ...(g.kind !== 'regular' ? { parentId: 'e0' } : {}),
        ...(g.kind === 'remainder' ? { remainder: true } : {}),
      };
    });

const scheduleArb = fc.array(fc.nat(), { minLength: 1, maxLength: 5 }).chain((ids) => fc.tuple(...ids.map((_, i) => eventArb(`e${i}`))));
const windowArb = fc.record({ fromHours: fc.integer({ min: -24, max: 24 * 12 }), hours: fc.integer({ min: 1, max: 24 * 9 }) });

describe('occurrencesInWindowAtMost', () => {
  it('gives the whole expansion’s entries when they fit, and undefined exactly when they do not (fast-check)', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(scheduleArb, windowArb, fc.integer({ min: 0, max: 60 }), (events, w, max) => {
        const from = ORIGIN + w.fromHours * HOUR;
        const to = from + w.hours * HOUR;
        const whole = wholeExpansion(events, from, to);
        expect(occurrencesInWindow(events, from, to)).toEqual(whole);
        expect(occurrencesInWindowAtMost(events, from, to, max)).toEqual(whole.length > max ? undefined : whole);
      }),
      { numRuns: 400 },
    );
  });
});
