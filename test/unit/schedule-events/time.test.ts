import { describe, expect, it } from 'vitest';
import { instantFromUtcText, instantInZone, isoInZone, isoOfWall, readTimeInput, wallInZone } from '#lib/schedule-events/time.ts';

const utc = (text: string) => Date.parse(text);

describe('readTimeInput', () => {
  it('reads wall clocks (date, space or T, optional seconds and fraction) and instants with Z or offsets', () => {
    expect(readTimeInput('2030-01-15')).toEqual({ kind: 'wall', floating: utc('2030-01-15T00:00:00Z') });
    expect(readTimeInput('2030-01-15 09:30')).toEqual({ kind: 'wall', floating: utc('2030-01-15T09:30:00Z') });
    expect(readTimeInput('2030-01-15T09:30:15.250')).toEqual({ kind: 'wall', floating: utc('2030-01-15T09:30:15.250Z') });
    expect(readTimeInput('2030-01-15T09:30:00Z')).toEqual({ kind: 'instant', ms: utc('2030-01-15T09:30:00Z') });
    expect(readTimeInput('2030-01-15T09:30:00+05:30')).toEqual({ kind: 'instant', ms: utc('2030-01-15T04:00:00Z') });
    expect(readTimeInput('2030-01-15T09:30:00-0330')).toEqual({ kind: 'instant', ms: utc('2030-01-15T13:00:00Z') });
    expect(readTimeInput('2030-01-15T09:30-03')).toEqual({ kind: 'instant', ms: utc('2030-01-15T12:30:00Z') });
  });

  it('rejects what is not a real date and time', () => {
    for (const text of ['', 'now', '2030-02-30', '2030-01-15T24:00', '2030-13-01', '2030-01-15T09:60', '15/01/2030', '2030-01-15T09:00+25:00', '2030-01-15Z']) {
      expect(readTimeInput(text), text).toBeUndefined();
    }
  });

  it('window bounds without an offset are UTC', () => {
    expect(instantFromUtcText('2030-01-15 09:30:00')).toBe(utc('2030-01-15T09:30:00Z'));
    expect(instantFromUtcText('2030-01-15T11:30:00+02:00')).toBe(utc('2030-01-15T09:30:00Z'));
    expect(instantFromUtcText('x')).toBeUndefined();
  });
});

describe('isoInZone / isoOfWall', () => {
  it('writes the offset in force at the instant', () => {
    expect(isoInZone(utc('2030-07-01T12:00:00Z'), 'Europe/Berlin')).toBe('2030-07-01T14:00:00+02:00');
    expect(isoInZone(utc('2030-01-01T12:00:00Z'), 'Europe/Berlin')).toBe('2030-01-01T13:00:00+01:00');
    expect(isoInZone(utc('2030-01-01T12:00:00Z'), 'Asia/Kathmandu')).toBe('2030-01-01T17:45:00+05:45');
    expect(isoInZone(utc('2030-01-01T12:00:00Z'), 'Etc/UTC')).toBe('2030-01-01T12:00:00+00:00');
    expect(isoInZone(utc('1960-01-01T12:00:00Z'), 'Africa/Monrovia')).toBe('1960-01-01T11:15:30-00:44:30');
  });

  it('reads a wall clock the way the engine does: first pass of a repeated hour, the jump for a skipped one', () => {
    expect(isoOfWall(utc('2030-11-03T01:30:00Z'), 'America/New_York')).toBe('2030-11-03T01:30:00-04:00');
    expect(isoOfWall(utc('2030-03-10T02:30:00Z'), 'America/New_York')).toBe('2030-03-10T03:00:00-04:00');
  });
});

describe('wallInZone', () => {
  it('keeps a bare wall clock and converts an instant to the zone, dropping fractions of a second', () => {
    expect(wallInZone('start_time', '2030-01-15T09:00:00', 'America/New_York')).toEqual({ ok: true, floating: utc('2030-01-15T09:00:00Z') });
    expect(wallInZone('start_time', '2030-01-15T14:00:00.999Z', 'America/New_York')).toEqual({ ok: true, floating: utc('2030-01-15T09:00:00Z') });
    expect(wallInZone('start_time', '2030-01-15T09:00:00.5', 'UTC')).toEqual({ ok: true, floating: utc('2030-01-15T09:00:00Z') });
  });

  it('rejects a skipped wall clock and the second pass of a repeated hour, naming the field', () => {
    const gap = wallInZone('end_time', '2030-03-10 02:15', 'America/New_York');
    expect(gap.ok).toBe(false);
    expect(!gap.ok && gap.message).toMatch(/^end_time 2030-03-10 02:15 does not exist in America\/New_York/);
    const second = wallInZone('start_time', '2030-11-03T01:30:00-05:00', 'America/New_York');
    expect(!second.ok && second.message).toMatch(/^start_time .* repeated hour/);
    expect(wallInZone('start_time', '2030-11-03T01:30:00-04:00', 'America/New_York')).toEqual({ ok: true, floating: utc('2030-11-03T01:30:00Z') });
    const bad = wallInZone('start_time', 'soon', 'UTC');
    expect(!bad.ok && bad.message).toBe('start_time must be an ISO 8601 datetime (YYYY-MM-DDTHH:mm:ss, optionally with Z or an offset)');
  });
});

describe('instantInZone (action_time)', () => {
  it('keeps milliseconds; a time without offset is a wall clock of the zone', () => {
    expect(instantInZone('2030-04-03T09:00:00', 'America/New_York')).toBe(utc('2030-04-03T13:00:00Z'));
    expect(instantInZone('2030-04-03T09:00:00.500', 'America/New_York')).toBe(utc('2030-04-03T13:00:00.500Z'));
    expect(instantInZone('2030-04-03T09:00:00.500Z', 'America/New_York')).toBe(utc('2030-04-03T09:00:00.500Z'));
    expect(instantInZone('1969-12-31T23:59:59.250', 'UTC')).toBe(utc('1969-12-31T23:59:59.250Z'));
  });
});
