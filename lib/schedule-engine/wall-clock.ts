import { DateTime } from 'luxon';

// Floating time: a wall-clock reading (no zone) encoded as the UTC milliseconds of the same reading.
// Calendar maths on it is plain integer arithmetic, so it can never depend on the process TZ or on DST.

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function floatingFromParts(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | undefined {
  if (y < 1000 || mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return undefined;
  const f = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC silently rolls 2025-02-30 over to March; a wall clock that does not exist is an input error.
  return new Date(f).getUTCDate() === d ? f : undefined;
}

/** 'YYYY-MM-DDTHH:mm[:ss]' (a space instead of T is accepted, as the override endpoint sends it). */
export function parseWallClock(text: string): number | undefined {
  const m = WALL_CLOCK.exec(text);
  if (!m) return undefined;
  return floatingFromParts(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
}

/** 'YYYY-MM-DD' → floating midnight of that day. */
export function parseLocalDate(text: string): number | undefined {
  const m = LOCAL_DATE.exec(text);
  return m ? floatingFromParts(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

/** 'YYYY-MM-DDTHH:mm:ss', the stored form of event start/end. */
export const formatWallClock = (f: number): string => new Date(f).toISOString().slice(0, 19);

export const formatLocalDate = (f: number): string => new Date(f).toISOString().slice(0, 10);

/** 0 = Sunday … 6 = Saturday, as in days_of_week. 1970-01-01 was a Thursday (4). */
export const weekdayOf = (f: number): number => (((Math.floor(f / DAY_MS) + 4) % 7) + 7) % 7;

export const startOfDay = (f: number): number => Math.floor(f / DAY_MS) * DAY_MS;

export const monthIndexOf = (f: number): number => {
  const d = new Date(f);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
};

/**
 * Same day-of-month and time `months` later. When the target month is too short, `clamp` moves to its last
 * day (used for lengths, so Jan 31 + 1 month ends with February); otherwise the day does not exist.
 */
export function addMonths(f: number, months: number, clamp: boolean): number | undefined {
  const d = new Date(f);
  const day = d.getUTCDate();
  const target = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  const t = new Date(target);
  const lastDay = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
  if (day <= lastDay) return target + (day - 1) * DAY_MS;
  return clamp ? target + (lastDay - 1) * DAY_MS : undefined;
}

export const addMonthsClamped = (f: number, months: number): number => addMonths(f, months, true) as number;

// For the ECMAScript date-time form with Z or ±HH:mm, Date.parse is exact, zone-independent and far cheaper
// than luxon; any other ISO 8601 form goes to luxon, which reads a missing offset as UTC (Date.parse would
// read it in the process TZ).
const ECMASCRIPT_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an ISO 8601 instant (no offset = UTC); NaN when unreadable. */
export function parseInstant(text: string): number {
  return ECMASCRIPT_INSTANT.test(text) ? Date.parse(text) : DateTime.fromISO(text, { zone: 'utc' }).toMillis();
}
