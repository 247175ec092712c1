// occurrencesPage: pages of a window in time order whose union is the whole window, each entry once, at most
// `limit` per page unless one instant holds more (docs/events-api.md, "Large windows").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { occurrencesInWindow, occurrencesPage, type OnCallEntry, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

const HOUR = 3_600_000;
const ORIGIN = Date.UTC(2026, 2, 1);
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const key = (e: OnCallEntry) => `${e.eventId}|${e.index}|${e.startMs}|${e.endMs}|${e.attendees.join('+')}`;

const eventArb = (id: string) =>
  fc
    .record({
      startHours: fc.integer({ min: -48, max: 24 * 5 }),
      lengthMinutes: fc.integer({ min: 15, max: 60 * 30 }),
      repeat: fc.boolean(),
      unit: fc.constantFrom('hourly' as const, 'daily' as const),
      layer: fc.integer({ min: 1, max: 3 }),
      override: fc.boolean(),
    })
    .map(
      (g): ScheduleEvent => ({
        id,
        layer: g.layer,
        timeZone: 'Europe/Berlin',
        start: wall(ORIGIN + g.startHours * HOUR),
        end: wall(ORIGIN + g.startHours * HOUR + g.lengthMinutes * 60_000),
        repeat: g.repeat,
        frequency: 1,
        frequencyUnit: g.unit,
        rotation: true,
        attendees: ['a', 'b'],
        exceptions: [],
        scheduleIds: ['s'],
        ...(g.override ? { parentId: 'e0' } : {}),
      }),
    );

function allPages(events: readonly ScheduleEvent[], from: number, to: number, limit: number): OnCallEntry[][] {
  const pages: OnCallEntry[][] = [];
  let cursor = from;
  for (;;) {
    const page = occurrencesPage(events, from, to, cursor, limit);
    pages.push(page.entries);
    if (page.nextMs === undefined) return pages;
    expect(page.nextMs).toBeGreaterThan(cursor);
    cursor = page.nextMs;
  }
}

describe('occurrencesPage', () => {
  it('pages hold exactly the window’s entries, each once, in time order (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }).chain((ids) => fc.tuple(...ids.map((_, i) => eventArb(`e${i}`)))),
        fc.integer({ min: -24, max: 48 }),
        fc.integer({ min: 1, max: 24 * 6 }),
        fc.integer({ min: 1, max: 40 }),
        (events, fromHours, hours, limit) => {
          const from = ORIGIN + fromHours * HOUR;
          const to = from + hours * HOUR;
          const pages = allPages(events, from, to, limit);
          const flat = pages.flat();
          expect(flat.map(key).sort()).toEqual(occurrencesInWindow(events, from, to).map(key).sort());
          const at = (e: OnCallEntry) => Math.max(e.startMs, from);
          expect(flat.map(at)).toEqual([...flat.map(at)].sort((a, b) => a - b));
          for (const page of pages) if (page.length > limit) expect(new Set(page.map(at)).size).toBe(1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ends when long entries begun earlier fill a doubled span but not the page (found by the property above)', () => {
    // Hourly events lasting a day or more: ~30 entries overlap any instant, so doubling a span that fits the page
    // overflows the expansion cap, and the span used to halve and double forever.
    const events: ScheduleEvent[] = [{"id": "e0", "layer": 2, "timeZone": "Europe/Berlin", "start": "2026-03-02T01:00:00", "end": "2026-03-02T21:40:00", "repeat": true, "frequency": 1, "frequencyUnit": "daily", "rotation": true, "attendees": ["a", "b"], "exceptions": [], "scheduleIds": ["s"], "parentId": "e0"}, {"id": "e1", "layer": 2, "timeZone": "Europe/Berlin", "start": "2026-03-03T20:00:00", "end": "2026-03-04T19:22:00", "repeat": true, "frequency": 1, "frequencyUnit": "hourly", "rotation": true, "attendees": ["a", "b"], "exceptions": [], "scheduleIds": ["s"]}, {"id": "e2", "layer": 2, "timeZone": "Europe/Berlin", "start": "2026-03-04T23:00:00", "end": "2026-03-06T05:00:00", "repeat": true, "frequency": 1, "frequencyUnit": "hourly", "rotation": true, "attendees": ["a", "b"], "exceptions": [], "scheduleIds": ["s"]}, {"id": "e3", "layer": 1, "timeZone": "Europe/Berlin", "start": "2026-03-03T00:00:00", "end": "2026-03-04T02:09:00", "repeat": true, "frequency": 1, "frequencyUnit": "daily", "rotation": true, "attendees": ["a", "b"], "exceptions": [], "scheduleIds": ["s"], "parentId": "e0"}, {"id": "e4", "layer": 3, "timeZone": "Europe/Berlin", "start": "2026-03-03T07:00:00", "end": "2026-03-03T20:22:00", "repeat": true, "frequency": 1, "frequencyUnit": "daily", "rotation": true, "attendees": ["a", "b"], "exceptions": [], "scheduleIds": ["s"]}];
    const from = ORIGIN + 22 * HOUR;
    const to = from + 120 * HOUR;
    const flat = allPages(events, from, to, 12).flat();
    expect(flat.map(key).sort()).toEqual(occurrencesInWindow(events, from, to).map(key).sort());
  });
});
