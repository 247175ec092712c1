import { describe, expect, it } from 'vitest';
import { eventListQuery, windowOf } from '#lib/schedule-events/queries.ts';
import { messagesOf as messages } from '../support.ts';

describe('eventListQuery', () => {
  it('writes the old names as the new ones in filters, ops and sort', () => {
    expect(
      eventListQuery({ start_datetime: '2030-01-01', end_datetime: '2030-02-01', ops: 'start_datetime:gte, end_datetime:lte,layer:gt', layer: '1', sort: 'start_datetime' }),
    ).toEqual({ start_time: '2030-01-01', end_time: '2030-02-01', ops: 'start_time:gte,end_time:lte,layer:gt', layer: '1', sort: 'start_time' });
    expect(eventListQuery({ start_time: 'x', 'exceptions.start_datetime': 'y' })).toEqual({ start_time: 'x', 'exceptions.start_datetime': 'y' });
  });

  it('takes names of object built-ins as ordinary names, never as old field names', () => {
    expect(eventListQuery({ constructor: 'x', sort: 'constructor', ops: 'toString:equals' })).toEqual({ constructor: 'x', sort: 'constructor', ops: 'toString:equals' });
  });

  it('422 when both names of one attribute are given', () => {
    expect(messages(() => eventListQuery({ end_datetime: 'a', end_time: 'b' }))).toEqual([
      'end_datetime is the old name of end_time; filter with one of them (a range fits in one: end_time=from..to&ops=end_time:between)',
    ]);
  });
});

describe('windowOf', () => {
  it('reads UTC bounds and ISO 8601 with offsets', () => {
    expect(windowOf({ start: '2030-01-01 00:00:00', end: '2030-01-02T01:00:00+01:00' })).toEqual({
      fromMs: Date.UTC(2030, 0, 1),
      toMs: Date.UTC(2030, 0, 2),
    });
  });

  it('accepts exactly 366 days and rejects one second more', () => {
    expect(windowOf({ start: '2030-01-01 00:00:00', end: '2031-01-02 00:00:00' }).toMs).toBe(Date.UTC(2031, 0, 2));
    expect(messages(() => windowOf({ start: '2030-01-01 00:00:00', end: '2031-01-02 00:00:01' }))).toEqual(['end must be at most 366 days after start']);
  });

  it('names every missing or unreadable bound', () => {
    const format = 'a UTC time YYYY-MM-DD HH:MM:SS (ISO 8601 with an offset is accepted too)';
    expect(messages(() => windowOf({}))).toEqual([`start is required: ${format}`, `end is required: ${format}`]);
    expect(messages(() => windowOf({ start: ' ', end: 'later' }))).toEqual([`start is required: ${format}`, `end must be ${format}, got "later"`]);
    expect(messages(() => windowOf({ start: '2030-01-02', end: '2030-01-01' }))).toEqual(['end must be after start']);
  });
});
