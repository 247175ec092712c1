// The console shows times in the zone a profile names, by the same resolver the API accepts names with
// (docs/console.md): "Berlin" is Europe/Berlin, not UTC.
import { describe, expect, it } from 'vitest';
import { displayZoneOf, wallTime } from '#lib/console/display-time.ts';

const SUMMER_NOON_UTC = Date.UTC(2026, 6, 1, 12, 0);

describe('the zone the console shows times in', () => {
  it('resolves every name the API accepts, listed names and IANA ids alike', () => {
    expect(displayZoneOf('Berlin')).toBe('Europe/Berlin');
    expect(displayZoneOf('Europe/Berlin')).toBe('Europe/Berlin');
    expect(displayZoneOf('Eastern Time (US & Canada)')).toBe('America/New_York');
    expect(displayZoneOf('UTC')).toBe('Etc/UTC');
  });

  it('answers none for a missing or unknown name, so the page falls back', () => {
    expect(displayZoneOf(null)).toBeUndefined();
    expect(displayZoneOf('')).toBeUndefined();
    expect(displayZoneOf('Atlantis')).toBeUndefined();
    expect(displayZoneOf('Mars/Olympus_Mons')).toBeUndefined();
  });

  it('shows a "Berlin" profile the Berlin wall clock', () => {
    expect(wallTime(SUMMER_NOON_UTC, displayZoneOf('Berlin')!)).toBe('Wed 1 Jul, 14:00 GMT+2');
  });
});
