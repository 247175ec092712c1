// Query parameters of the event lists and of window_events.
import { invalid } from '../errors.ts';
import { OLD_FIELD_NAMES } from './schema.ts';
import { instantFromUtcText } from './time.ts';
import { MAX_WINDOW_ENTRIES, MAX_WINDOW_MS } from '../limits.ts';

/** `q` on event lists searches these attributes. */
export const EVENT_SEARCH_FIELDS = ['time_zone', 'iana_time_zone'];

/**
 * The list query with the old attribute names (start_datetime, end_datetime) written as the current ones, in
 * filter parameters, `ops` tokens and `sort`, so old clients' filters work on the events as rendered.
 */
/** The current name of an old field name; own keys only, so `constructor` or `__proto__` are not field names. */
const oldFieldName = (name: string): string | undefined => (Object.hasOwn(OLD_FIELD_NAMES, name) ? OLD_FIELD_NAMES[name] : undefined);

export function eventListQuery(query: Record<string, string | undefined>): Record<string, string | undefined> {
  const problems: string[] = [];
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(query)) {
    const current = oldFieldName(name);
    if (current === undefined) {
      out[name] = value;
      continue;
    }
    if (query[current] !== undefined && value !== undefined) {
      problems.push(`${name} is the old name of ${current}; filter with one of them (a range fits in one: ${current}=from..to&ops=${current}:between)`);
      continue;
    }
    out[current] = value;
  }
  if (out.ops !== undefined) {
    out.ops = out.ops
      .split(',')
      .map((token) => {
        const [attribute, ...rest] = token.split(':');
        const current = oldFieldName((attribute ?? '').trim());
        return current === undefined ? token : [current, ...rest].join(':');
      })
      .join(',');
  }
  if (out.sort !== undefined && oldFieldName(out.sort) !== undefined) out.sort = oldFieldName(out.sort);
  if (problems.length > 0) throw invalid(problems);
  return out;
}

const BOUND_FORMAT = 'a UTC time YYYY-MM-DD HH:MM:SS (ISO 8601 with an offset is accepted too)';

/** start and end of window_events as instants: both required, end after start, at most 366 days apart. */
export function windowOf(query: Record<string, string | undefined>): { fromMs: number; toMs: number } {
  const problems: string[] = [];
  const read = (name: 'start' | 'end'): number | undefined => {
    const text = query[name];
    if (text === undefined || text.trim() === '') {
      problems.push(`${name} is required: ${BOUND_FORMAT}`);
      return undefined;
    }
    const ms = instantFromUtcText(text);
    if (ms === undefined) problems.push(`${name} must be ${BOUND_FORMAT}, got "${text}"`);
    return ms;
  };
  const fromMs = read('start');
  const toMs = read('end');
  if (fromMs !== undefined && toMs !== undefined) {
    if (toMs <= fromMs) problems.push('end must be after start');
    else if (toMs - fromMs > MAX_WINDOW_MS) problems.push('end must be at most 366 days after start');
  }
  if (problems.length > 0 || fromMs === undefined || toMs === undefined) throw invalid(problems);
  return { fromMs, toMs };
}

/**
 * `limit` and `cursor` of window_events: limit a whole number from 1 to MAX_WINDOW_ENTRIES; cursor an instant in
 * epoch milliseconds after start and before end (a next link's). Either asks for a page (docs/events-api.md, "Large windows").
 */
export function windowPaging(query: Record<string, string | undefined>, fromMs: number, toMs: number): { limit?: number; cursor?: number } {
  const problems: string[] = [];
  const whole = (name: string, min: number, max: number, what: string): number | undefined => {
    const text = query[name];
    if (text === undefined) return undefined;
    const n = /^\d{1,16}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    if (!(n >= min && n <= max)) problems.push(`${name} must be ${what}, got "${text}"`);
    return n;
  };
  const limit = whole('limit', 1, MAX_WINDOW_ENTRIES, `a whole number from 1 to ${MAX_WINDOW_ENTRIES}`);
  const cursor = whole('cursor', fromMs + 1, toMs - 1, 'the cursor of a next link of this window (an instant in milliseconds after start and before end)');
  if (problems.length > 0) throw invalid(problems);
  return { ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) };
}
