import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { compileTimeFormat, formatDateTime, parseTimeOfDay, tokenizeFormat, type TimeFormat } from '#lib/rule-engine/time-format.ts';

function format(dt: DateTime, text: string): string {
  const parts = tokenizeFormat(text);
  if ('error' in parts) throw new Error(parts.error);
  return formatDateTime(dt, parts);
}

function timeFormat(text: string): TimeFormat {
  const compiled = compileTimeFormat(text);
  if ('error' in compiled) throw new Error(compiled.error);
  return compiled;
}

describe('moment-style formatting', () => {
  const sunday = DateTime.fromISO('2024-03-03T07:05:09', { zone: 'Etc/UTC' });
  const afternoon = DateTime.fromISO('2024-12-25T13:45:00', { zone: 'Etc/UTC' });

  it('renders every supported token', () => {
    expect(format(sunday, 'YYYY YY MMMM MMM MM M DD D')).toBe('2024 24 March Mar 03 3 03 3');
    expect(format(sunday, 'dddd ddd d E')).toBe('Sunday Sun 0 7');
    expect(format(sunday, 'HH H hh h mm m ss s A a')).toBe('07 7 07 7 05 5 09 9 AM am');
    expect(format(afternoon, 'HH hh h A a')).toBe('13 01 1 PM pm');
  });

  it('renders midnight and noon as 12 on the 12-hour clock', () => {
    expect(format(DateTime.fromISO('2024-01-01T00:30:00', { zone: 'Etc/UTC' }), 'hh:mm a')).toBe('12:30 am');
    expect(format(DateTime.fromISO('2024-01-01T12:30:00', { zone: 'Etc/UTC' }), 'hh:mm a')).toBe('12:30 pm');
  });

  it('keeps punctuation and [bracketed] text literal', () => {
    expect(format(afternoon, 'MM-DD')).toBe('12-25');
    expect(format(afternoon, 'YYYY-MM-DD[T]HH:mm')).toBe('2024-12-25T13:45');
    expect(format(afternoon, '[day] D')).toBe('day 25');
  });

  it('refuses unsupported tokens, unclosed brackets and formats without tokens', () => {
    expect(tokenizeFormat('YYYY-Q')).toEqual({ error: expect.stringContaining('unsupported token "Q"') });
    expect(tokenizeFormat('Do')).toEqual({ error: expect.stringContaining('unsupported token "o"') });
    expect(tokenizeFormat('[day D')).toEqual({ error: expect.stringContaining('unclosed [') });
    expect(tokenizeFormat('--')).toEqual({ error: expect.stringContaining('no date or time token') });
    expect(tokenizeFormat('')).toEqual({ error: expect.stringContaining('1 to 64') });
  });
});

describe('time-of-day parsing', () => {
  const twelveHour = timeFormat('hh:mm a');

  it.each([
    ['09:00 am', 9 * 3600],
    ['9:00 am', 9 * 3600],
    ['06:00 PM', 18 * 3600],
    ['6:30pm', 18 * 3600 + 30 * 60],
    ['12:00 am', 0],
    ['12:15 pm', 12 * 3600 + 15 * 60],
    ['11:59 p.m.', 23 * 3600 + 59 * 60],
    ['18:00', 18 * 3600],
    ['  07:45 am ', 7 * 3600 + 45 * 60],
  ])('reads %j with hh:mm a', (text, seconds) => {
    expect(parseTimeOfDay(text, twelveHour)).toBe(seconds);
  });

  it.each([['13:00 pm'], ['09:60 am'], ['24:00'], ['nine'], ['09:00 xm'], ['09-00 am'], ['']])('refuses %j with hh:mm a', (text) => {
    expect(parseTimeOfDay(text, twelveHour)).toBeUndefined();
  });

  it('reads 24-hour and second formats, and reports their precision', () => {
    const hhmm = timeFormat('HH:mm');
    expect(parseTimeOfDay('18:05', hhmm)).toBe(18 * 3600 + 300);
    expect(hhmm.precision).toBe(60);
    const withSeconds = timeFormat('HH:mm:ss');
    expect(parseTimeOfDay('00:00:30', withSeconds)).toBe(30);
    expect(withSeconds.precision).toBe(1);
    expect(timeFormat('H').precision).toBe(3600);
  });

  it('refuses time formats with date tokens, no hour or a repeated part', () => {
    expect(compileTimeFormat('YYYY HH:mm')).toEqual({ error: expect.stringContaining('may only use') });
    expect(compileTimeFormat('mm:ss')).toEqual({ error: expect.stringContaining('needs an hour token') });
    expect(compileTimeFormat('HH:hh')).toEqual({ error: expect.stringContaining('same part twice') });
  });
});
