import type { DateTime } from 'luxon';
import { MAX_TIME_FORMAT_LENGTH } from '../limits.ts';

/**
 * The moment.js format tokens rules may use (moment is what the reference service formats with).
 * Longest first, so `MMMM` wins over `MM`. Text in [brackets] is literal, as in moment.
 */
const FORMAT_TOKENS = [
  'YYYY', 'YY', 'MMMM', 'MMM', 'MM', 'M', 'DD', 'D', 'dddd', 'ddd', 'd', 'E',
  'HH', 'H', 'hh', 'h', 'mm', 'm', 'ss', 's', 'A', 'a',
] as const;
type FormatToken = (typeof FORMAT_TOKENS)[number];

const TIME_TOKENS: ReadonlySet<FormatToken> = new Set(['HH', 'H', 'hh', 'h', 'mm', 'm', 'ss', 's', 'A', 'a']);

export type FormatPart = { readonly token: FormatToken } | { readonly literal: string };
export type Failure = { readonly error: string };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const isLetter = (ch: string) => /[A-Za-z]/.test(ch);

export function tokenizeFormat(format: string): FormatPart[] | Failure {
  if (format.length === 0 || format.length > MAX_TIME_FORMAT_LENGTH) {
    return { error: `must be 1 to ${MAX_TIME_FORMAT_LENGTH} characters` };
  }
  const parts: FormatPart[] = [];
  let i = 0;
  while (i < format.length) {
    const ch = format[i] ?? '';
    if (ch === '[') {
      const close = format.indexOf(']', i + 1);
      if (close < 0) return { error: `has an unclosed [ in "${format}"` };
      parts.push({ literal: format.slice(i + 1, close) });
      i = close + 1;
    } else if (isLetter(ch)) {
      const token = FORMAT_TOKENS.find((t) => format.startsWith(t, i));
      if (!token) return { error: `has an unsupported token "${ch}" in "${format}"; put literal text in [brackets]` };
      parts.push({ token });
      i += token.length;
    } else {
      parts.push({ literal: ch });
      i++;
    }
  }
  if (!parts.some((p) => 'token' in p)) return { error: `has no date or time token in "${format}"` };
  return parts;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const hour12 = (hour: number) => (hour % 12 === 0 ? 12 : hour % 12);

function renderToken(token: FormatToken, dt: DateTime): string {
  switch (token) {
    case 'YYYY': return pad(dt.year, 4);
    case 'YY': return pad(dt.year % 100);
    case 'MMMM': return MONTHS[dt.month - 1] ?? '';
    case 'MMM': return (MONTHS[dt.month - 1] ?? '').slice(0, 3);
    case 'MM': return pad(dt.month);
    case 'M': return String(dt.month);
    case 'DD': return pad(dt.day);
    case 'D': return String(dt.day);
    case 'dddd': return WEEKDAYS[dt.weekday - 1] ?? '';
    case 'ddd': return (WEEKDAYS[dt.weekday - 1] ?? '').slice(0, 3);
    case 'd': return String(dt.weekday % 7); // moment: 0 = Sunday
    case 'E': return String(dt.weekday); // ISO: 1 = Monday
    case 'HH': return pad(dt.hour);
    case 'H': return String(dt.hour);
    case 'hh': return pad(hour12(dt.hour));
    case 'h': return String(hour12(dt.hour));
    case 'mm': return pad(dt.minute);
    case 'm': return String(dt.minute);
    case 'ss': return pad(dt.second);
    case 's': return String(dt.second);
    case 'A': return dt.hour < 12 ? 'AM' : 'PM';
    case 'a': return dt.hour < 12 ? 'am' : 'pm';
  }
}

/** English names whatever the process locale, so a rule means the same on every machine. */
export function formatDateTime(dt: DateTime, parts: readonly FormatPart[]): string {
  return parts.map((p) => ('token' in p ? renderToken(p.token, dt) : p.literal)).join('');
}

type TimeField = 'hour12' | 'hour24' | 'minute' | 'second' | 'meridiem';

/** A compiled `timeformat`; `precision` is the smallest unit it names, in seconds. */
export interface TimeFormat {
  readonly pattern: RegExp;
  readonly fields: readonly TimeField[];
  readonly precision: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function timeFieldOf(token: FormatToken): TimeField {
  if (token === 'h' || token === 'hh') return 'hour12';
  if (token === 'H' || token === 'HH') return 'hour24';
  if (token === 'm' || token === 'mm') return 'minute';
  if (token === 's' || token === 'ss') return 'second';
  return 'meridiem';
}

function fieldPattern(field: TimeField): string {
  // Like moment's forgiving parser: 1 or 2 digits, and am/pm optional with any spacing or dots.
  return field === 'meridiem' ? '\\s*([ap]\\.?\\s*m\\.?)?' : '(\\d{1,2})';
}

function literalPattern(literal: string): string {
  return literal.trim() === '' ? '\\s*' : `\\s*${escapeRegExp(literal.trim())}\\s*`;
}

export function compileTimeFormat(format: string): TimeFormat | Failure {
  const parts = tokenizeFormat(format);
  if ('error' in parts) return parts;
  const fields: TimeField[] = [];
  let source = '';
  for (const part of parts) {
    if ('literal' in part) {
      source += literalPattern(part.literal);
      continue;
    }
    if (!TIME_TOKENS.has(part.token)) return { error: `may only use the tokens H, HH, h, hh, m, mm, s, ss, a, A; got "${part.token}"` };
    const field = timeFieldOf(part.token);
    if (fields.includes(field) || (field.startsWith('hour') && fields.some((f) => f.startsWith('hour')))) {
      return { error: `names the same part twice in "${format}"` };
    }
    fields.push(field);
    source += fieldPattern(field);
  }
  if (!fields.some((f) => f.startsWith('hour'))) return { error: `needs an hour token (h, hh, H or HH) in "${format}"` };
  const precision = fields.includes('second') ? 1 : fields.includes('minute') ? 60 : 3600;
  return { pattern: new RegExp(`^\\s*${source}\\s*$`, 'i'), fields, precision };
}

function hourOf(hour: number, meridiem: string | undefined): number | undefined {
  if (meridiem === undefined) return hour <= 23 ? hour : undefined;
  if (hour > 12) return undefined;
  const pm = meridiem.toLowerCase().startsWith('p');
  return (hour % 12) + (pm ? 12 : 0);
}

/**
 * Seconds since midnight of a wall-clock time written in `format`, or undefined when it does not fit.
 * Without am/pm an hour is read on the 24-hour clock ("18:00" with `hh:mm a` is 6 pm), as moment does.
 */
export function parseTimeOfDay(text: string, format: TimeFormat): number | undefined {
  const match = format.pattern.exec(text);
  if (!match) return undefined;
  const values = new Map<TimeField, string>();
  format.fields.forEach((field, i) => {
    const captured = match[i + 1];
    if (captured !== undefined) values.set(field, captured);
  });
  const rawHour = Number(values.get('hour12') ?? values.get('hour24'));
  const hour = hourOf(rawHour, values.get('meridiem'));
  const minute = Number(values.get('minute') ?? 0);
  const second = Number(values.get('second') ?? 0);
  if (hour === undefined || minute > 59 || second > 59) return undefined;
  return hour * 3600 + minute * 60 + second;
}
