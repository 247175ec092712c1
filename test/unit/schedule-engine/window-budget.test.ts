// An oversized window is refused, and a page of it built, after expanding about a page of occurrences, never the
// whole window (docs/events-api.md, "Large windows"). The work is counted where it is done, never timed
// (docs/testing.md, "Budgets, not timings"): the occurrences the expansion built. Their speed: bench/expressions.ts.
import { describe, expect, it, vi } from 'vitest';
import { occurrencesInWindowAtMost, occurrencesPage, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

// Every caller in the engine gets the real expansion; the wrapper only counts what it returns. In a file of its own so
// the property tests of pages.test.ts and window-cap.test.ts run unwrapped.
const built = vi.hoisted(() => ({ occurrences: 0 }));
vi.mock('#lib/schedule-engine/expand.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('#lib/schedule-engine/expand.ts')>();
  return {
    ...real,
    locatedBetween: (...args: Parameters<typeof real.locatedBetween>) => {
      const found = real.locatedBetween(...args);
      built.occurrences += found.length;
      return found;
    },
  };
});

const HOUR = 3_600_000;
const from = Date.UTC(2026, 0, 1);
const year = 366 * 24 * HOUR;
/** Occurrences of one hourly event in that year. */
const YEAR_OF_ONE = 366 * 24;

const hourly = (count: number): ScheduleEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `e${String(i).padStart(4, '0')}`,
    layer: 1 + (i % 5),
    timeZone: 'Europe/Berlin',
    start: '2025-01-01T00:00:00',
    end: '2025-01-01T01:00:00',
    repeat: true,
    frequency: 1,
    frequencyUnit: 'hourly',
    rotation: true,
    attendees: ['a', 'b', 'c'],
    exceptions: [],
    scheduleIds: ['s'],
  }));

// A generous timeout guards against a hang only; how long these take is the benchmark's.
describe('occurrencesInWindowAtMost', { timeout: 60_000 }, () => {
  it('refuses a one-year window over 100 hourly events (878,400 entries) after expanding a few events, and answers a day of it whole', () => {
    const events = hourly(100);
    built.occurrences = 0;
    expect(occurrencesInWindowAtMost(events, from, from + year, 20_000)).toBeUndefined();
    // The cap, plus the one event's year that passed it, plus each event's occurrences at the window's two ends; not
    // the 878,400 of the whole year (4.9 s and 750 MB with rendering before).
    expect(built.occurrences).toBeGreaterThan(20_000);
    expect(built.occurrences).toBeLessThanOrEqual(20_000 + YEAR_OF_ONE + 2 * events.length);
    expect(occurrencesInWindowAtMost(events, from, from + 24 * HOUR, 20_000)).toHaveLength(2_400);
  });

  it('stops as soon as the limit is passed: a year over 1,000 hourly events (8.8 million entries) takes as long as over 100', () => {
    built.occurrences = 0;
    expect(occurrencesInWindowAtMost(hourly(1_000), from, from + year, 20_000)).toBeUndefined();
    // Expanding them all would build 8.8 million (over 30 s and gigabytes); counting stops after the third event,
    // having built what it did for 100 events plus the two ends of each further event.
    expect(built.occurrences).toBeLessThanOrEqual(20_000 + YEAR_OF_ONE + 2 * 1_000);
  });
});

describe('occurrencesPage', { timeout: 60_000 }, () => {
  it('builds about one page of a year of 100 hourly events', () => {
    const events = Array.from({ length: 100 }, (_, i): ScheduleEvent => ({
      id: `e${i}`, layer: 1, timeZone: 'Etc/UTC', start: '2025-01-01T00:00:00', end: '2025-01-01T01:00:00', repeat: true, frequency: 1, frequencyUnit: 'hourly', rotation: false, attendees: ['a'], exceptions: [], scheduleIds: ['s'],
    }));
    built.occurrences = 0;
    const page = occurrencesPage(events, from, from + year, from, 5_000);
    expect(page.entries).toHaveLength(5_000);
    expect(page.nextMs).toBe(from + 50 * HOUR);
    // Spans doubling from an hour to the 64 hours that overflow the page: 100 × 127 hours, not the year's 878,400.
    expect(built.occurrences).toBeGreaterThan(5_000);
    expect(built.occurrences).toBeLessThanOrEqual(3 * 5_000);
  });
});
