// Event times at the API edge: reading client text into wall clocks of the event's zone and writing instants
// back as ISO 8601 with the offset in force in that zone. The wall-clock ↔ instant rules are the engine's
// (lib/schedule-engine/zone-clock.ts), so the API and the on-call views can never disagree about what a time means.

import { formatWallClock, parseWallClock, resolveZone, zoneClock } from '../schedule-engine/index.ts';
import { readDateTime } from '../time/instant.ts';

/** A time as the client wrote it: a bare wall clock, or an instant (the text carried Z or an offset). */
export type TimeInput = { kind: 'wall'; floating: number } | { kind: 'instant'; ms: number };

/**
 * Reads `YYYY-MM-DD`, `YYYY-MM-DD HH:mm[:ss]`, `YYYY-MM-DDTHH:mm[:ss][.fff]` with an optional `Z` or offset
 * (`±HH`, `±HHMM`, `±HH:MM`), with the one datetime reader (lib/time/instant.ts). A date alone is midnight.
 * Fractions of a second are kept in milliseconds.
 */
export function readTimeInput(text: string): TimeInput | undefined {
  const read = readDateTime(text.trim());
  if (!read) return undefined;
  if (read.offsetMs === undefined) return { kind: 'wall', floating: read.floating };
  return { kind: 'instant', ms: read.floating - read.offsetMs };
}

/** An instant read from UTC text: a time without an offset is UTC (window_events bounds). */
export function instantFromUtcText(text: string): number | undefined {
  const input = readTimeInput(text);
  if (!input) return undefined;
  return input.kind === 'instant' ? input.ms : input.floating;
}

/** The IANA zone of a time_zone field value (listed name or IANA id), undefined when it names no zone. */
export const ianaOf = (timeZone: string): string | undefined => resolveZone(timeZone);

/** The instant a wall clock of the zone means: the earlier of two in a fall-back hour, the jump for a gap time. */
export const instantOfWall = (floating: number, iana: string): number => zoneClock(iana).toInstant(floating);

/** The wall clock of the zone at an instant (floating milliseconds). */
export const wallOfInstant = (ms: number, iana: string): number => zoneClock(iana).toFloating(ms);

function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const total = Math.abs(Math.round(offsetMs / 1000));
  const hh = String(Math.floor(total / 3600)).padStart(2, '0');
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const ss = total % 60;
  // Offsets with seconds exist only in local mean time before the 1970s (Monrovia until 1972).
  return ss === 0 ? `${sign}${hh}:${mm}` : `${sign}${hh}:${mm}:${String(ss).padStart(2, '0')}`;
}

/** ISO 8601 with the offset in force in the zone at the instant: `2026-03-08T03:00:00-04:00`. */
export function isoInZone(ms: number, iana: string): string {
  const offset = zoneClock(iana).offsetAt(ms);
  return `${new Date(ms + offset).toISOString().slice(0, 19)}${formatOffset(offset)}`;
}

/** The stored and API form of an event wall clock: the instant it means, in its zone. */
export const isoOfWall = (floating: number, iana: string): string => isoInZone(instantOfWall(floating, iana), iana);

/** The wall clock `YYYY-MM-DDTHH:mm:ss` of a stored event time (its text before the offset). */
export const wallTextOf = (stored: string): string => stored.slice(0, 19);

/** The floating value of a stored event time. */
export const floatingOfStored = (stored: string): number | undefined => parseWallClock(wallTextOf(stored));

export const formatWall = formatWallClock;

export type WallResult = { ok: true; floating: number } | { ok: false; message: string };

/**
 * The wall clock in the zone that a client time names, to whole seconds (a fraction is dropped).
 * A bare wall clock must exist in the zone (not skipped by a spring-forward); an instant must be one the
 * zone's wall clock can name (not the second pass of a fall-back hour, which a wall clock reads as the first).
 */
export function wallInZone(field: string, text: string, iana: string): WallResult {
  const input = readTimeInput(text);
  if (!input) return { ok: false, message: `${field} must be an ISO 8601 datetime (YYYY-MM-DDTHH:mm:ss, optionally with Z or an offset)` };
  const clock = zoneClock(iana);
  if (input.kind === 'wall') {
    const floating = Math.floor(input.floating / 1000) * 1000;
    if (clock.toFloating(clock.toInstant(floating)) !== floating) {
      return {
        ok: false,
        message: `${field} ${text} does not exist in ${iana}: the clocks skip it (daylight saving time starts); give a time outside the skipped hour`,
      };
    }
    return { ok: true, floating };
  }
  const ms = Math.floor(input.ms / 1000) * 1000;
  const floating = clock.toFloating(ms);
  if (clock.toInstant(floating) !== ms) {
    return {
      ok: false,
      message: `${field} ${text} falls in the repeated hour when daylight saving time ends in ${iana}; ${formatWallClock(floating).replace('T', ' ')} there means the first pass of that hour (${isoInZone(clock.toInstant(floating), iana)}); give that time or another time_zone`,
    };
  }
  return { ok: true, floating };
}

/** An instant from a client time: with an offset as written, without one as a wall clock of the zone. */
export function instantInZone(text: string, iana: string): number | undefined {
  const input = readTimeInput(text);
  if (!input) return undefined;
  if (input.kind === 'instant') return input.ms;
  const whole = Math.floor(input.floating / 1000) * 1000;
  return instantOfWall(whole, iana) + (input.floating - whole);
}
