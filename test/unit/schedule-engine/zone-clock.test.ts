import { DateTime, Settings } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWallClock } from '#lib/schedule-engine/wall-clock.ts';
import { zoneClock } from '#lib/schedule-engine/zone-clock.ts';

const instantOf = (zone: string, wallClock: string): string =>
  new Date(zoneClock(zone).toInstant(parseWallClock(wallClock) as number)).toISOString();

describe('wall clock → instant', () => {
  it('reads a normal time with the offset in force', () => {
    expect(instantOf('America/New_York', '2025-07-01T09:00:00')).toBe('2025-07-01T13:00:00.000Z');
    expect(instantOf('America/New_York', '2025-01-15T09:00:00')).toBe('2025-01-15T14:00:00.000Z');
    expect(instantOf('Asia/Kolkata', '2025-01-15T09:00:00')).toBe('2025-01-15T03:30:00.000Z');
  });

  it('moves a time inside a spring-forward gap to the moment the clocks jump', () => {
    // New York skips 02:00–03:00 on 2025-03-09 (07:00Z)
    expect(instantOf('America/New_York', '2025-03-09T02:30:00')).toBe('2025-03-09T07:00:00.000Z');
    expect(instantOf('America/New_York', '2025-03-09T02:00:00')).toBe('2025-03-09T07:00:00.000Z');
    expect(instantOf('America/New_York', '2025-03-09T03:00:00')).toBe('2025-03-09T07:00:00.000Z');
    // Lord Howe skips only 30 minutes, 02:00–02:30, on 2025-10-05 (15:30Z)
    expect(instantOf('Australia/Lord_Howe', '2025-10-05T02:15:00')).toBe('2025-10-04T15:30:00.000Z');
    expect(instantOf('Australia/Lord_Howe', '2025-10-05T02:30:00')).toBe('2025-10-04T15:30:00.000Z');
    // Santiago skips midnight: 00:00–01:00 on 2025-09-07 (04:00Z)
    expect(instantOf('America/Santiago', '2025-09-07T00:00:00')).toBe('2025-09-07T04:00:00.000Z');
    // Sydney skips 02:00–03:00 on 2025-10-05 (16:00Z on the 4th)
    expect(instantOf('Australia/Sydney', '2025-10-05T02:59:00')).toBe('2025-10-04T16:00:00.000Z');
  });

  it('takes the first of the two instants of a fall-back time', () => {
    // New York repeats 01:00–02:00 on 2025-11-02: first in EDT (-4), then in EST (-5)
    expect(instantOf('America/New_York', '2025-11-02T01:30:00')).toBe('2025-11-02T05:30:00.000Z');
    // Berlin repeats 02:00–03:00 on 2025-10-26
    expect(instantOf('Europe/Berlin', '2025-10-26T02:30:00')).toBe('2025-10-26T00:30:00.000Z');
    // Lord Howe repeats 01:30–02:00 on 2025-04-06
    expect(instantOf('Australia/Lord_Howe', '2025-04-06T01:45:00')).toBe('2025-04-05T14:45:00.000Z');
    // Santiago repeats 23:00–24:00 on 2025-04-05
    expect(instantOf('America/Santiago', '2025-04-05T23:30:00')).toBe('2025-04-06T02:30:00.000Z');
    // the hour right after the repeated one is unambiguous
    expect(instantOf('America/New_York', '2025-11-02T02:00:00')).toBe('2025-11-02T07:00:00.000Z');
  });

  describe('does not depend on the date the server runs on', () => {
    afterEach(() => {
      Settings.now = () => Date.now();
    });
    it('gives the same fall-back answer in winter and in summer, where luxon alone does not', () => {
      const answers = [Date.UTC(2025, 0, 15), Date.UTC(2025, 6, 15)].map((now) => {
        Settings.now = () => now;
        const luxon = DateTime.fromObject({ year: 2025, month: 11, day: 2, hour: 1, minute: 30 }, { zone: 'America/New_York' });
        return { luxon: luxon.toMillis(), engine: instantOf('America/New_York', '2025-11-02T01:30:00') };
      });
      // The reason the engine converts by itself: luxon's answer flips with the season of "now".
      expect(answers[0]?.luxon).not.toBe(answers[1]?.luxon);
      expect(answers.map((a) => a.engine)).toEqual(['2025-11-02T05:30:00.000Z', '2025-11-02T05:30:00.000Z']);
    });
  });

  it('is monotone: a later wall-clock time never maps to an earlier instant', () => {
    for (const zone of ['America/New_York', 'Australia/Lord_Howe', 'America/Santiago', 'Europe/Berlin']) {
      const clock = zoneClock(zone);
      for (const day of ['2025-03-09', '2025-04-05', '2025-04-06', '2025-09-07', '2025-10-05', '2025-10-26', '2025-11-02']) {
        let previous = -Infinity;
        for (let minute = 0; minute < 24 * 60; minute += 5) {
          const f = (parseWallClock(`${day}T00:00:00`) as number) + minute * 60_000;
          const ms = clock.toInstant(f);
          expect(ms, `${zone} ${day} +${minute}m`).toBeGreaterThanOrEqual(previous);
          previous = ms;
        }
      }
    }
  });
});

describe('instant → wall clock', () => {
  it('reads both passes of a repeated hour', () => {
    const clock = zoneClock('America/New_York');
    const wall = (iso: string) => new Date(clock.toFloating(Date.parse(iso))).toISOString().slice(0, 16);
    expect(wall('2025-11-02T05:30:00Z')).toBe('2025-11-02T01:30');
    expect(wall('2025-11-02T06:30:00Z')).toBe('2025-11-02T01:30');
    expect(wall('2025-03-09T07:00:00Z')).toBe('2025-03-09T03:00');
  });
  it('rejects unknown zones', () => {
    expect(() => zoneClock('Mars/Olympus')).toThrow(RangeError);
  });
});
