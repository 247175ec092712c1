// Reading instants from client text: the one parser of ISO-8601 dates and datetimes with or without an offset
// (`2024-05-01`, `2024-05-01 10:00:00`, `2024-05-01T10:00:00.123+02:00`). Wall-clock ↔ instant in a time zone
// is the schedule engine's (lib/schedule-engine/zone-clock.ts); this module only reads text.

// Date, optional time (T, t or space; seconds optional), optional fraction (. or ,), optional offset (Z, ±hh, ±hh:mm,
// ±hhmm), which may follow a space. A space in place of the offset's '+' is read as '+': an unencoded '+' in a query
// string arrives as a space.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,](\d+))?(?:\s*([Zz])|\s*([+-])(\d{2})(?::?(\d{2}))?| (\d{2})(?::?(\d{2}))?)?)?$/;

export const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export const daysIn = (y: number, mo: number) => (mo === 2 && isLeap(y) ? 29 : (DAYS[mo - 1] ?? 0));

export function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  if (y >= 100) return Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  date.setUTCFullYear(y); // Date.UTC maps years 0-99 to 1900-1999
  return date.getTime();
}

/** Digits of text[from, from + count) as a number; -1 when one is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** The form the API renders (YYYY-MM-DDTHH:MM:SS.sssZ), read without a regex: it is parsed for every item. */
function parseRendered(text: string): number | undefined {
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 2);
  const d = digitsAt(text, 8, 2);
  const h = digitsAt(text, 11, 2);
  const mi = digitsAt(text, 14, 2);
  const s = digitsAt(text, 17, 2);
  const ms = digitsAt(text, 20, 3);
  if ((y | mo | d | h | mi | s | ms) < 0) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.') {
    return undefined;
  }
  return utcMs(y, mo, d, h, mi, s, ms);
}

/** What a date/datetime text says: a wall clock, and the offset from UTC when the text gave one. */
export interface DateTimeText {
  /** The wall clock written, as milliseconds on a UTC timeline (fractions of a second kept to the ms). */
  floating: number;
  /** The offset written (Z = 0), in ms; undefined when the text had none (then the reader decides the zone). */
  offsetMs: number | undefined;
}

/**
 * The one reader of client date and datetime text: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]`,
 * `YYYY-MM-DDTHH:MM[:SS][.fff][Z|±HH[:MM]]`. Invalid calendar dates, `24:00` and offsets past 23:59 are refused.
 */
export function readDateTime(text: string): DateTimeText | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, fs, zulu, sign, ohs, oms, spaceOhs, spaceOms] = m;
  const ms = fs === undefined ? 0 : Number(fs.slice(0, 3).padEnd(3, '0'));
  const floating = utcMs(Number(ys), Number(mos), Number(ds), Number(hs ?? 0), Number(mis ?? 0), Number(ss ?? 0), ms);
  if (floating === undefined) return undefined;
  if (zulu !== undefined) return { floating, offsetMs: 0 };
  const hours = sign !== undefined ? ohs : spaceOhs;
  if (hours === undefined) return { floating, offsetMs: undefined };
  const oh = Number(hours);
  const om = Number((sign !== undefined ? oms : spaceOms) ?? 0);
  if (oh > 23 || om > 59) return undefined;
  return { floating, offsetMs: (sign === '-' ? -1 : 1) * (oh * 60 + om) * 60_000 };
}

/** Milliseconds since the epoch of an ISO-8601 date/datetime or `YYYY-MM-DD HH:MM:SS`; no offset means UTC. */
export function parseInstant(text: string): number | undefined {
  if (text.length === 24 && text[23] === 'Z') {
    const rendered = parseRendered(text);
    if (rendered !== undefined) return rendered;
  }
  const read = readDateTime(text);
  return read === undefined ? undefined : read.floating - (read.offsetMs ?? 0);
}
