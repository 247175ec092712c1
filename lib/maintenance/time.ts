// Window datetimes at the API edge: client text → instant, instant → ISO 8601 with the offset the window's
// zone has at that instant. Wall clock ↔ instant uses the schedule engine's zone clock (lib/schedule-engine), whose
// answers do not depend on the season or the zone the server runs in (luxon's own local → instant does).

import { DateTime } from 'luxon';
import { parseLocalDate, parseWallClock, resolveZone, zoneClock } from '../schedule-engine/index.ts';

export type DatetimeReading = { ok: true; ms: number } | { ok: false; message: string };

const WITH_OFFSET = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)\s*(Z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)$/i;

/** The IANA zone of a time_zone value (a listed name, its ASCII alias, or an IANA id). */
export const windowZone = (timeZone: string): string | undefined => resolveZone(timeZone);

/**
 * Reads a window datetime, to the second: `YYYY-MM-DDTHH:mm[:ss]` (a space for the T is fine) or a date
 * alone (midnight). With `Z` or an offset it is that instant; without one it is the wall clock in the
 * window's zone. A wall clock the zone skips (spring forward) is refused; one it shows twice (fall back) is
 * read as the schedule engine reads event times (lib/schedule-engine/zone-clock.ts), so windows and shifts agree.
 */
export function readWindowDatetime(field: string, text: string, iana: string): DatetimeReading {
  const trimmed = text.trim();
  const withOffset = WITH_OFFSET.exec(trimmed);
  if (withOffset) {
    const [, date, time, offset] = withOffset;
    const parsed = DateTime.fromISO(`${date}T${time}${offset!.toUpperCase()}`, { setZone: true });
    if (!parsed.isValid) return { ok: false, message: formatProblem(field) };
    return { ok: true, ms: Math.floor(parsed.toMillis() / 1000) * 1000 };
  }
  const floating = parseWallClock(trimmed) ?? parseLocalDate(trimmed);
  if (floating === undefined) return { ok: false, message: formatProblem(field) };
  const clock = zoneClock(iana);
  const ms = clock.toInstant(floating);
  if (clock.toFloating(ms) !== floating) {
    return { ok: false, message: `${field} ${trimmed} does not exist in ${iana}: the clocks skip it when daylight saving time starts` };
  }
  return { ok: true, ms };
}

const formatProblem = (field: string) =>
  `${field} must be an ISO 8601 datetime such as 2025-06-01T22:00:00 (wall clock in time_zone) or 2025-06-01T20:00:00Z`;

/** `2025-06-01T22:00:00+02:00`: the instant with the offset in force in the zone then. */
export function formatInZone(ms: number, iana: string): string {
  return DateTime.fromMillis(ms, { zone: iana }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
