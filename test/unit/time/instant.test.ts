import { describe, expect, it } from 'vitest';
import { parseInstant, readDateTime } from '#lib/time/instant.ts';

const utc = (text: string) => Date.parse(text);

describe('readDateTime: the one reader of client datetimes', () => {
  it('gives the wall clock and the offset when one was written', () => {
    expect(readDateTime('2024-05-01T12:00:00+02:00')).toEqual({ floating: utc('2024-05-01T12:00:00Z'), offsetMs: 2 * 3_600_000 });
    expect(readDateTime('2024-05-01T12:00-0530')).toEqual({ floating: utc('2024-05-01T12:00:00Z'), offsetMs: -(5 * 60 + 30) * 60_000 });
    expect(readDateTime('2024-05-01 12:00:00 Z')).toEqual({ floating: utc('2024-05-01T12:00:00Z'), offsetMs: 0 });
    // An unencoded '+' in a query string arrives as a space.
    expect(readDateTime('2024-05-01T12:00:00 02:00')).toEqual({ floating: utc('2024-05-01T12:00:00Z'), offsetMs: 2 * 3_600_000 });
  });

  it('leaves the offset undefined for a wall clock or a date alone (the reader decides the zone)', () => {
    expect(readDateTime('2024-05-01 12:30')).toEqual({ floating: utc('2024-05-01T12:30:00Z'), offsetMs: undefined });
    expect(readDateTime('2024-05-01')).toEqual({ floating: utc('2024-05-01T00:00:00Z'), offsetMs: undefined });
    expect(readDateTime('2024-05-01t12:30:15,25')).toEqual({ floating: utc('2024-05-01T12:30:15.250Z'), offsetMs: undefined });
  });

  it('refuses impossible dates, times and offsets, and text that is not a datetime', () => {
    for (const text of ['2024-02-30', '2023-02-29T00:00', '2024-05-01T24:00', '2024-05-01T12:60', '2024-05-01T12:00+24:00', '2024-05-01T12:00+02:60', 'soon', ' 2024-05-01', '2024-05-01Z']) {
      expect(readDateTime(text), text).toBeUndefined();
    }
  });

  it('parseInstant reads no offset as UTC', () => {
    expect(parseInstant('2024-05-01 10:00:00')).toBe(utc('2024-05-01T10:00:00Z'));
    expect(parseInstant('2024-05-01T12:00:00+02:00')).toBe(utc('2024-05-01T10:00:00Z'));
    expect(parseInstant('2024-05-01T10:00:00.000Z')).toBe(utc('2024-05-01T10:00:00Z'));
  });
});
