// Times as people read them: ages ("5 min ago"), and instants in a chosen time zone. Pure (the time is an argument).
import { DateTime } from 'luxon';
import { ianaZoneOf } from '../time/zones.ts';

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function ageOf(fromMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - fromMs) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** "Thu 26 Nov, 14:02" in `zone` (24-hour clock, the zone's abbreviation added). */
export function wallTime(ms: number, zone: string): string {
  const at = DateTime.fromMillis(ms, { zone });
  return `${at.toFormat('ccc d LLL, HH:mm')} ${at.offsetNameShort ?? at.toFormat('ZZ')}`;
}

/**
 * The IANA zone a `time_zone` value names, by the one resolver the API and the schedule engine use: a listed name
 * ("Berlin") or an IANA id ("Europe/Berlin"); undefined for none (a profile may hold none).
 */
export const displayZoneOf = (zone: string | null | undefined): string | undefined => (zone ? ianaZoneOf(zone) : undefined);
