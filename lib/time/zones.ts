import { IANAZone } from 'luxon';
import { TIME_ZONES } from './zones-data.ts';

const ALIASES: Record<string, string> = { Mazatlan: 'Mazatlán' };
const ianaByName = new Map(TIME_ZONES.map(([name, iana]) => [name, iana]));

/** Names answered by GET /events/time_zones, in Rails' order (docs/api.md, "Time zone names"). */
export const TIME_ZONE_NAMES: readonly string[] = TIME_ZONES.map(([name]) => name);

/**
 * Resolves a time_zone field: a listed name (or its ASCII alias) or a valid IANA id.
 * Returns the IANA id to compute with, or undefined when the value names no zone.
 */
const validIana = new Map<string, boolean>();

export function ianaZoneOf(value: string): string | undefined {
  const listed = ianaByName.get(ALIASES[value] ?? value);
  if (listed) return listed;
  if (!value.includes('/') && value !== 'UTC') return undefined;
  // Checking an IANA id builds an Intl formatter (tens of microseconds); the set of ids is small, so remember answers.
  let valid = validIana.get(value);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(value);
    if (validIana.size < 1000) validIana.set(value, valid);
  }
  return valid ? value : undefined;
}

export function isTimeZone(value: unknown): value is string {
  return typeof value === 'string' && ianaZoneOf(value) !== undefined;
}
