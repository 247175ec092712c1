// Gaps: the parts of a window when a layer that has events has nobody on call (docs/schedules.md, "Gaps").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gapsBetween, onCallAt, type Absence, type ScheduleEvent } from '#lib/schedule-engine/index.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ORIGIN = Date.UTC(2026, 2, 2);
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19);

const weekdays: ScheduleEvent = {
  id: 'day',
  layer: 1,
  timeZone: 'Etc/UTC',
  start: '2026-03-02T08:00:00',
  end: '2026-03-02T20:00:00',
  repeat: true,
  frequency: 1,
  frequencyUnit: 'daily',
  rotation: true,
  attendees: ['ada', 'bob'],
  exceptions: [],
  scheduleIds: ['s'],
};
const iso = (gaps: { layer: number; startMs: number; endMs: number }[]) => gaps.map((g) => [g.layer, wall(g.startMs), wall(g.endMs)]);

describe('gapsBetween', () => {
  it('finds the nights a daytime rotation leaves empty, cut to the window', () => {
    expect(iso(gapsBetween([weekdays], ORIGIN, ORIGIN + 2 * DAY))).toEqual([
      [1, '2026-03-02T00:00:00', '2026-03-02T08:00:00'],
      [1, '2026-03-02T20:00:00', '2026-03-03T08:00:00'],
      [1, '2026-03-03T20:00:00', '2026-03-04T00:00:00'],
    ]);
  });

  it('counts only layers that have events, and an override fills a hole', () => {
    const night: ScheduleEvent = { ...weekdays, id: 'night', layer: 2, repeat: false, start: '2026-03-02T20:00:00', end: '2026-03-03T08:00:00', attendees: ['cy'], rotation: false };
    const override: ScheduleEvent = { ...night, id: 'ovr', layer: 1, parentId: 'day' };
    expect(iso(gapsBetween([weekdays, night, override], ORIGIN + 8 * HOUR, ORIGIN + 32 * HOUR))).toEqual([
      [2, '2026-03-02T08:00:00', '2026-03-02T20:00:00'],
    ]);
    expect(iso(gapsBetween([weekdays, night], ORIGIN + 8 * HOUR, ORIGIN + 32 * HOUR))[0]).toEqual([1, '2026-03-02T20:00:00', '2026-03-03T08:00:00']);
  });

  it('makes a gap of time off when everyone who could cover is away', () => {
    const away: Absence[] = [
      { accountUserId: 'ada', startMs: ORIGIN + 10 * HOUR, endMs: ORIGIN + 12 * HOUR },
      { accountUserId: 'bob', startMs: ORIGIN + 11 * HOUR, endMs: ORIGIN + 13 * HOUR },
    ];
    expect(iso(gapsBetween([weekdays], ORIGIN + 8 * HOUR, ORIGIN + 20 * HOUR, away))).toEqual([[1, '2026-03-02T11:00:00', '2026-03-02T12:00:00']]);
    expect(gapsBetween([], ORIGIN, ORIGIN + DAY)).toEqual([]);
  });

  it('is exactly the instants with nobody on call on a layer that has events (fast-check)', () => {
    const eventArb = (id: string) =>
      fc.record({ startHours: fc.integer({ min: -24, max: 72 }), hours: fc.integer({ min: 1, max: 30 }), layer: fc.integer({ min: 1, max: 2 }), repeat: fc.boolean(), who: fc.constantFrom('ada', 'bob') }).map(
        (g): ScheduleEvent => ({ ...weekdays, id, layer: g.layer, start: wall(ORIGIN + g.startHours * HOUR), end: wall(ORIGIN + (g.startHours + g.hours) * HOUR), repeat: g.repeat, frequencyUnit: 'daily', frequency: 2, rotation: false, attendees: [g.who] }),
      );
    const awayArb = fc.array(fc.record({ who: fc.constantFrom('ada', 'bob'), startHours: fc.integer({ min: 0, max: 96 }), hours: fc.integer({ min: 1, max: 24 }) }), { maxLength: 3 });
    fc.assert(
      fc.property(fc.tuple(eventArb('e0'), eventArb('e1'), eventArb('e2')), awayArb, fc.integer({ min: 0, max: 96 * 4 }), (events, aways, quarter) => {
        const away = aways.map((a): Absence => ({ accountUserId: a.who, startMs: ORIGIN + a.startHours * HOUR, endMs: ORIGIN + (a.startHours + a.hours) * HOUR }));
        const gaps = gapsBetween(events, ORIGIN, ORIGIN + 96 * HOUR, away);
        const t = ORIGIN + quarter * 15 * 60_000;
        if (t >= ORIGIN + 96 * HOUR) return;
        for (const layer of new Set(events.map((e) => e.layer))) {
          const inGap = gaps.some((g) => g.layer === layer && g.startMs <= t && t < g.endMs);
          const someone = onCallAt(events, t, away).some((e) => e.layer === layer && e.attendees.length > 0);
          expect(inGap).toBe(!someone);
        }
      }),
      { numRuns: 400 },
    );
  });
});
