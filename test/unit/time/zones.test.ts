import { describe, expect, it } from 'vitest';
import { ianaZoneOf, isTimeZone, TIME_ZONE_NAMES } from '#lib/time/zones.ts';

describe('time zone names', () => {
  it('lists the 151 Rails names, first and last in Rails order', () => {
    expect(TIME_ZONE_NAMES).toHaveLength(151);
    expect(TIME_ZONE_NAMES[0]).toBe('International Date Line West');
    expect(TIME_ZONE_NAMES.at(-1)).toBe('Tokelau Is.');
  });
  it('maps every listed name to a zone the runtime knows', () => {
    for (const name of TIME_ZONE_NAMES) {
      const iana = ianaZoneOf(name);
      expect(iana, name).toBeDefined();
      expect(() => new Intl.DateTimeFormat('en', { timeZone: iana })).not.toThrow();
    }
  });
  it('accepts IANA ids and the ASCII spelling of Mazatlán, rejects the rest', () => {
    expect(ianaZoneOf('Europe/Berlin')).toBe('Europe/Berlin');
    expect(ianaZoneOf('Mazatlan')).toBe('America/Mazatlan');
    expect(ianaZoneOf('Eastern Time (US & Canada)')).toBe('America/New_York');
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('berlin')).toBe(false);
    expect(isTimeZone(42)).toBe(false);
  });
});
