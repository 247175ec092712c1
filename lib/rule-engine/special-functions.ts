import { DateTime } from 'luxon';
import { ianaZoneOf } from '../time/zones.ts';
import { siftTester } from './sift.ts';
import {
  compileTimeFormat,
  formatDateTime,
  parseTimeOfDay,
  tokenizeFormat,
  type Failure,
  type FormatPart,
  type TimeFormat,
} from './time-format.ts';

export const SPECIAL_FUNCTIONS: ReadonlySet<string> = new Set(['$day', '$now', '$timeBetween']);
export const DEFAULT_ZONE = 'Etc/UTC';
export const DEFAULT_NOW_FORMAT = 'YYYY-MM-DD';
export const DEFAULT_TIME_FORMAT = 'hh:mm a';

/** Parameters each function reads itself; every other key of `$day`/`$now` is an operator testing the value. */
export const OWN_PARAMS: Readonly<Record<string, readonly string[]>> = {
  $day: ['timezone'],
  $now: ['timezone', 'format'],
  $timeBetween: ['timezone', 'timeformat', 'starttime', 'endtime'],
};

type Params = Readonly<Record<string, unknown>>;

export const isFailure = (value: unknown): value is Failure =>
  typeof value === 'object' && value !== null && 'error' in value;

/** IANA ids and the API's Rails names (docs/api.md, "Time zone names") both work; absent means Etc/UTC. */
export function zoneParam(value: unknown): string | Failure {
  if (value === undefined) return DEFAULT_ZONE;
  if (typeof value !== 'string') return { error: 'timezone must be a time zone name, e.g. Europe/Berlin' };
  return ianaZoneOf(value) ?? { error: `unknown time zone "${value}"` };
}

const named = (param: string, failure: Failure): Failure => ({ error: `${param} ${failure.error}` });

export function nowFormatParam(value: unknown): FormatPart[] | Failure {
  if (value === undefined) return tokenizeFormat(DEFAULT_NOW_FORMAT);
  if (typeof value !== 'string') return { error: 'format must be a string of moment-style tokens, e.g. MM-DD' };
  const parts = tokenizeFormat(value);
  return isFailure(parts) ? named('format', parts) : parts;
}

export function timeFormatParam(value: unknown): TimeFormat | Failure {
  if (value === undefined) return compileTimeFormat(DEFAULT_TIME_FORMAT);
  if (typeof value !== 'string') return { error: 'timeformat must be a string of moment-style tokens, e.g. HH:mm' };
  const format = compileTimeFormat(value);
  return isFailure(format) ? named('timeformat', format) : format;
}

export function timeParam(param: string, value: unknown, format: TimeFormat, formatText: string): number | Failure {
  if (value === undefined) return { error: `${param} is required` };
  if (typeof value !== 'string') return { error: `${param} must be a time written as a string, e.g. "09:00 am"` };
  return parseTimeOfDay(value, format) ?? { error: `${param} "${value}" does not fit the time format "${formatText}"` };
}

/** The operators next to a function's own parameters, as a query on the computed value. */
export function siblingTest(name: string, params: Params): Record<string, unknown> {
  const own = OWN_PARAMS[name] ?? [];
  return Object.fromEntries(Object.entries(params).filter(([key]) => !own.includes(key)));
}

const wallClock = (now: Date, zone: string) => DateTime.fromJSDate(now, { zone });

/** ISO weekday of now in the zone: 1 = Monday … 7 = Sunday. */
export function weekdayIn(now: Date, zone: string): number {
  return wallClock(now, zone).weekday;
}

export function evaluateDay(params: Params, now: Date): boolean {
  const zone = zoneParam(params.timezone);
  if (isFailure(zone)) return false;
  return siftTester(siblingTest('$day', params))(weekdayIn(now, zone));
}

export function evaluateNow(params: Params, now: Date): boolean {
  const zone = zoneParam(params.timezone);
  const parts = nowFormatParam(params.format);
  if (isFailure(zone) || isFailure(parts)) return false;
  return siftTester(siblingTest('$now', params))(formatDateTime(wallClock(now, zone), parts));
}

/**
 * Compared at the format's precision: with `hh:mm a` the whole end minute is inside, so 09:00–17:59 and
 * 18:00–08:59 tile the day without a gap. start > end spans midnight.
 */
export function evaluateTimeBetween(params: Params, now: Date): boolean {
  const zone = zoneParam(params.timezone);
  const formatText = typeof params.timeformat === 'string' ? params.timeformat : DEFAULT_TIME_FORMAT;
  const format = timeFormatParam(params.timeformat);
  if (isFailure(zone) || isFailure(format)) return false;
  const start = timeParam('starttime', params.starttime, format, formatText);
  const end = timeParam('endtime', params.endtime, format, formatText);
  if (isFailure(start) || isFailure(end)) return false;
  const clock = wallClock(now, zone);
  const secondOfDay = clock.hour * 3600 + clock.minute * 60 + clock.second;
  const current = secondOfDay - (secondOfDay % format.precision);
  return start <= end ? current >= start && current <= end : current >= start || current <= end;
}
