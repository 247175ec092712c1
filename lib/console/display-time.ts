// Times as people read them: ages ("5 min ago"), and instants in a chosen time zone. Pure (the time is an argument).
import { DateTime } from 'luxon';

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

/** Whether a zone name is one luxon knows (a profile may hold none). */
export const isZone = (zone: string | null | undefined): zone is string => !!zone && DateTime.local().setZone(zone).isValid;
