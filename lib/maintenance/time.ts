// Window datetimes at the API edge: client text → instant, instant → ISO 8601 with the offset the window's
// zone has at that instant. Wall clock ↔ instant uses the schedule engine's zone clock (lib/schedule-engine), whose
// answers do not depend on the season or the zone the server runs in (luxon's own local → instant does).

import { DateTime } from 'luxon';
import { resolveZone, zoneClock } from '../schedule-engine/index.ts';
import { readDateTime } from '../time/instant.ts';

export type DatetimeReading = { ok: true; ms: number } | { ok: false; message: string };

/** The IANA zone of a time_zone value (a listed name, its ASCII alias, or an IANA id). */
export const windowZone = (timeZone: string): string | undefined => resolveZone(timeZone);

/**
 * Reads a window datetime with the one datetime reader (lib/time/instant.ts), to the second:
 * `YYYY-MM-DDTHH:mm[:ss]` (a space for the T is fine) or a date alone (midnight). With `Z` or an offset it is that instant; without one it is the wall clock in the
 * window's zone. A wall clock the zone skips (spring forward) is refused; one it shows twice (fall back) is
 * read as the schedule engine reads event times (lib/schedule-engine/zone-clock.ts), so windows and shifts agree.
 */
export function readWindowDatetime(field: string, text: string, iana: string): DatetimeReading {
  const trimmed = text.trim();
  const read = readDateTime(trimmed);
  if (!read) return { ok: false, message: formatProblem(field) };
  const floating = Math.floor(read.floating / 1000) * 1000;
  if (read.offsetMs !== undefined) return { ok: true, ms: floating - read.offsetMs };
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

/** A datetime as the client sent it, or an instant already known (a stored value an update keeps). */
export type SpanEnd = { text: string } | { ms: number };

/**
 * Reads a span's zone and both ends, pushing every problem (the zone, each datetime, the order) onto `problems`, so
 * one 422 lists them all. Used by maintenance windows and time off, which differ only in their field names.
 */
export function readWindowSpan(
  timeZone: string,
  start: SpanEnd,
  end: SpanEnd,
  fields: { start: string; end: string },
  problems: string[],
): { iana?: string; startMs?: number; endMs?: number } {
  const iana = windowZone(timeZone);
  if (!iana) {
    problems.push(`time_zone must be one of the names GET /events/time_zones lists or an IANA time zone id; got "${timeZone}"`);
    return {};
  }
  const read = (field: string, value: SpanEnd): number | undefined => {
    if ('ms' in value) return value.ms;
    const reading = readWindowDatetime(field, value.text, iana);
    if (reading.ok) return reading.ms;
    problems.push(reading.message);
    return undefined;
  };
  const startMs = read(fields.start, start);
  const endMs = read(fields.end, end);
  if (startMs !== undefined && endMs !== undefined && endMs <= startMs) problems.push(`${fields.end} must be after ${fields.start}`);
  return { iana, ...(startMs !== undefined ? { startMs } : {}), ...(endMs !== undefined ? { endMs } : {}) };
}
