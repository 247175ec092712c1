import { describe, expect, it } from 'vitest';
import { formatInZone, readWindowDatetime, windowZone } from '#lib/maintenance/time.ts';

const read = (text: string, iana = 'Europe/Berlin') => readWindowDatetime('start_datetime', text, iana);
const ms = (text: string, iana?: string) => {
  const r = read(text, iana);
  if (!r.ok) throw new Error(r.message);
  return r.ms;
};

describe('readWindowDatetime', () => {
  it('reads a wall clock in the zone, with T or a space, with or without seconds, or a date alone', () => {
    expect(ms('2030-07-01T22:00:00')).toBe(Date.parse('2030-07-01T20:00:00Z'));
    expect(ms('2030-07-01 22:00')).toBe(Date.parse('2030-07-01T20:00:00Z'));
    expect(ms('2030-01-15 08:30:15')).toBe(Date.parse('2030-01-15T07:30:15Z'));
    expect(ms('2030-01-15')).toBe(Date.parse('2030-01-14T23:00:00Z'));
    expect(ms('2030-07-01T22:00', 'America/New_York')).toBe(Date.parse('2030-07-02T02:00:00Z'));
  });

  it('reads an instant when an offset or Z is given, whatever the zone', () => {
    expect(ms('2030-07-01T20:00:00Z')).toBe(Date.parse('2030-07-01T20:00:00Z'));
    expect(ms('2030-07-01T20:00:00z')).toBe(Date.parse('2030-07-01T20:00:00Z'));
    expect(ms('2030-07-01T22:00:00+02:00', 'Asia/Tokyo')).toBe(Date.parse('2030-07-01T20:00:00Z'));
    expect(ms('2030-07-01 22:00+0200')).toBe(Date.parse('2030-07-01T20:00:00Z'));
    expect(ms('2030-07-01T15:30-04')).toBe(Date.parse('2030-07-01T19:30:00Z'));
    expect(ms('2030-07-01T20:00:00.987Z')).toBe(Date.parse('2030-07-01T20:00:00Z'));
  });

  it('refuses a wall clock skipped by the spring-forward, and reads a repeated one as one of its two instants', () => {
    const gap = read('2030-03-31T02:30:00');
    expect(gap).toEqual({ ok: false, message: 'start_datetime 2030-03-31T02:30:00 does not exist in Europe/Berlin: the clocks skip it when daylight saving time starts' });
    expect([Date.parse('2030-10-27T00:30:00Z'), Date.parse('2030-10-27T01:30:00Z')]).toContain(ms('2030-10-27T02:30:00'));
  });

  it('refuses text that is not a datetime', () => {
    for (const text of ['tomorrow', '2030-02-30T10:00', '2030-07-01T25:00', '2030-07-01T10:00+25:00', '07/01/2030 10:00', '2030-07-01T10']) {
      const r = read(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/^start_datetime must be an ISO 8601 datetime/);
    }
  });
});

describe('formatInZone', () => {
  it('writes the offset in force at that instant', () => {
    expect(formatInZone(Date.parse('2030-07-01T20:00:00Z'), 'Europe/Berlin')).toBe('2030-07-01T22:00:00+02:00');
    expect(formatInZone(Date.parse('2030-01-01T20:00:00Z'), 'Europe/Berlin')).toBe('2030-01-01T21:00:00+01:00');
    expect(formatInZone(Date.parse('2030-01-01T20:00:00Z'), 'Etc/UTC')).toBe('2030-01-01T20:00:00+00:00');
    expect(formatInZone(Date.parse('2030-01-01T20:00:00Z'), 'Asia/Kathmandu')).toBe('2030-01-02T01:45:00+05:45');
  });
});

describe('windowZone', () => {
  it('accepts listed names, the ASCII alias and IANA ids', () => {
    expect(windowZone('Berlin')).toBe('Europe/Berlin');
    expect(windowZone('Mazatlan')).toBe('America/Mazatlan');
    expect(windowZone('America/Chicago')).toBe('America/Chicago');
    expect(windowZone('Mars/Olympus')).toBeUndefined();
    expect(windowZone('berlin')).toBeUndefined();
  });
});
