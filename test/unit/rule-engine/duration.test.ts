import { describe, expect, it } from 'vitest';
import { parseDuration } from '#lib/rule-engine/duration.ts';

describe('parseDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
    ['1w', 604_800_000],
    ['250ms', 250],
    ['1.5h', 5_400_000],
    ['10 minutes', 600_000],
    ['2 Hours', 7_200_000],
    ['  5m  ', 300_000],
    ['0', 0],
    ['1500', 1500],
  ])('reads %j as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('reads plain numbers as milliseconds', () => {
    expect(parseDuration(60_000)).toBe(60_000);
    expect(parseDuration(0)).toBe(0);
    expect(parseDuration(1.6)).toBe(2);
  });

  it.each([['5x'], ['-5m'], ['m'], [''], ['5 m s'], ['1e3'], [-1], [Number.NaN], [Infinity], [null], [true], [['5m']]])(
    'refuses %j',
    (value) => {
      expect(parseDuration(value)).toBeUndefined();
    },
  );
});
