import { describe, expect, it } from 'vitest';
import { activeWindowFor, isWindowActive } from '#lib/maintenance/active.ts';

const at = (iso: string) => Date.parse(iso);
const window = (start: string, end: string, integration_ids: string[] = ['I1']) => ({ start_datetime: start, end_datetime: end, integration_ids });

describe('isWindowActive', () => {
  const w = window('2030-07-01T22:00:00+02:00', '2030-07-02T02:00:00+02:00');

  it('is active from the start (inclusive) to the end (exclusive)', () => {
    expect(isWindowActive(w, at('2030-07-01T19:59:59.999Z'))).toBe(false);
    expect(isWindowActive(w, at('2030-07-01T20:00:00Z'))).toBe(true);
    expect(isWindowActive(w, at('2030-07-01T23:59:59Z'))).toBe(true);
    expect(isWindowActive(w, at('2030-07-01T23:59:59.999Z'))).toBe(true);
    expect(isWindowActive(w, at('2030-07-02T00:00:00Z'))).toBe(false);
  });

  it('reads offsets exactly, whatever the process zone', () => {
    const utc = window('2030-01-01T00:00:00Z', '2030-01-01T01:00:00Z');
    const kolkata = window('2030-01-01T05:30:00+05:30', '2030-01-01T06:30:00+05:30');
    for (const ms of [at('2029-12-31T23:59:59Z'), at('2030-01-01T00:30:00Z'), at('2030-01-01T01:00:00Z')]) {
      expect(isWindowActive(utc, ms)).toBe(isWindowActive(kolkata, ms));
    }
  });

  it('is never active for unreadable datetimes', () => {
    expect(isWindowActive(window('soon', '2030-01-01T00:00:00Z'), at('2029-06-01T00:00:00Z'))).toBe(false);
  });
});

describe('activeWindowFor', () => {
  const now = at('2030-07-01T12:00:00Z');

  it('finds only active windows of that integration', () => {
    const past = window('2030-07-01T00:00:00Z', '2030-07-01T11:00:00Z');
    const future = window('2030-07-01T13:00:00Z', '2030-07-01T14:00:00Z');
    const other = window('2030-07-01T11:00:00Z', '2030-07-01T13:00:00Z', ['I2']);
    expect(activeWindowFor('I1', [past, future, other], now)).toBeUndefined();
    const current = window('2030-07-01T11:00:00Z', '2030-07-01T13:00:00Z', ['I2', 'I1']);
    expect(activeWindowFor('I1', [past, current, future, other], now)).toBe(current);
    expect(activeWindowFor('I3', [current], now)).toBeUndefined();
    expect(activeWindowFor('I1', [], now)).toBeUndefined();
  });

  it('returns the overlapping window that ends last', () => {
    const short = window('2030-07-01T11:00:00Z', '2030-07-01T12:30:00Z');
    const long = window('2030-07-01T10:00:00+02:00', '2030-07-01T16:00:00+02:00');
    expect(activeWindowFor('I1', [short, long], now)).toBe(long);
    expect(activeWindowFor('I1', [long, short], now)).toBe(long);
  });
});
