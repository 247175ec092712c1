import { describe, expect, it } from 'vitest';
import { matchDataOf, matchQuery } from '#lib/rule-engine/index.ts';

const now = new Date('2024-06-03T10:00:00Z'); // a Monday
const data = matchDataOf(
  {
    title: 'DB down on prod-1',
    urgency: 'high',
    tag_list: ['db', 'prod'],
    source_id: 'int_abc',
    meta: { count: 7, empty: null },
  },
  {
    data: { env: 'prod', a: { b: 3 }, items: [{ name: 'x', v: 1 }, { name: 'y', v: 5 }], scores: [2, 8, 9] },
    headers: { 'content-type': 'application/json' },
  },
  true,
);

const matches = (query: Record<string, unknown>, at = now) => matchQuery(query, data, at);

describe('matchQuery: MongoDB semantics through sift', () => {
  it('builds the match data shape of docs/rules.md, "What a query sees"', () => {
    expect(data.always).toBe(true);
    expect(data.log_parsed).toBe(true);
    expect(matches({ always: true })).toBe(true);
    expect(matches({ log_parsed: false })).toBe(false);
    expect(matchDataOf({ title: 'x' })).toEqual({ always: true, alert: { title: 'x' }, log: {}, log_parsed: false });
  });

  it('compares plain values for equality along dot paths', () => {
    expect(matches({ 'alert.urgency': 'high' })).toBe(true);
    expect(matches({ 'alert.urgency': 'low' })).toBe(false);
    expect(matches({ 'log.data.a.b': 3 })).toBe(true);
    expect(matches({ 'log.data.a.b': 4 })).toBe(false);
    expect(matches({ 'log.data.a': { b: 3 } })).toBe(true);
  });

  it('reads a scalar against an array field as "contains"', () => {
    expect(matches({ 'alert.tag_list': 'db' })).toBe(true);
    expect(matches({ 'alert.tag_list': 'web' })).toBe(false);
    expect(matches({ 'log.data.items.name': 'y' })).toBe(true);
  });

  it('requires every condition of a query', () => {
    expect(matches({ 'alert.urgency': 'high', 'log.data.env': 'prod' })).toBe(true);
    expect(matches({ 'alert.urgency': 'high', 'log.data.env': 'dev' })).toBe(false);
  });

  it('$in and $nin', () => {
    expect(matches({ 'alert.urgency': { $in: ['high', 'critical'] } })).toBe(true);
    expect(matches({ 'alert.urgency': { $in: ['low'] } })).toBe(false);
    expect(matches({ 'alert.tag_list': { $in: ['prod', 'x'] } })).toBe(true);
    expect(matches({ 'alert.urgency': { $nin: ['low', 'medium'] } })).toBe(true);
    expect(matches({ 'alert.tag_list': { $nin: ['prod'] } })).toBe(false);
  });

  it('$exists', () => {
    expect(matches({ 'alert.meta.count': { $exists: true } })).toBe(true);
    expect(matches({ 'alert.meta.empty': { $exists: true } })).toBe(true);
    expect(matches({ 'alert.meta.missing': { $exists: true } })).toBe(false);
    expect(matches({ 'alert.meta.missing': { $exists: false } })).toBe(true);
    expect(matches({ 'alert.meta.count': { $exists: false } })).toBe(false);
  });

  it('$gt, $gte, $lt, $lte on numbers and strings', () => {
    expect(matches({ 'alert.meta.count': { $gt: 6 } })).toBe(true);
    expect(matches({ 'alert.meta.count': { $gt: 7 } })).toBe(false);
    expect(matches({ 'alert.meta.count': { $gte: 7 } })).toBe(true);
    expect(matches({ 'alert.meta.count': { $lt: 7 } })).toBe(false);
    expect(matches({ 'alert.meta.count': { $lte: 7 } })).toBe(true);
    expect(matches({ 'alert.meta.count': { $gt: 5, $lt: 10 } })).toBe(true);
    expect(matches({ 'alert.source_id': { $gte: 'int_a', $lt: 'int_b' } })).toBe(true);
  });

  it('$eq and $ne', () => {
    expect(matches({ 'alert.urgency': { $eq: 'high' } })).toBe(true);
    expect(matches({ 'alert.urgency': { $ne: 'high' } })).toBe(false);
    expect(matches({ 'alert.urgency': { $ne: 'low' } })).toBe(true);
    expect(matches({ 'alert.missing': { $eq: null } })).toBe(true);
  });

  it('$mod', () => {
    expect(matches({ 'alert.meta.count': { $mod: [3, 1] } })).toBe(true);
    expect(matches({ 'alert.meta.count': { $mod: [2, 0] } })).toBe(false);
  });

  it('$all and $size', () => {
    expect(matches({ 'alert.tag_list': { $all: ['prod', 'db'] } })).toBe(true);
    expect(matches({ 'alert.tag_list': { $all: ['prod', 'web'] } })).toBe(false);
    expect(matches({ 'alert.tag_list': { $size: 2 } })).toBe(true);
    expect(matches({ 'alert.tag_list': { $size: 3 } })).toBe(false);
  });

  it('$type with sift aliases', () => {
    expect(matches({ 'alert.meta.count': { $type: 'number' } })).toBe(true);
    expect(matches({ 'alert.title': { $type: 'number' } })).toBe(false);
    expect(matches({ 'alert.tag_list': { $type: 'array' } })).toBe(true);
    expect(matches({ 'alert.meta.empty': { $type: 'null' } })).toBe(true);
  });

  it('$regex with flags from a sibling $options', () => {
    expect(matches({ 'alert.title': { $regex: 'db' } })).toBe(false);
    expect(matches({ 'alert.title': { $regex: 'db', $options: 'i' } })).toBe(true);
    expect(matches({ 'alert.title': { $regex: '^DB down' } })).toBe(true);
    expect(matches({ 'alert.tag_list': { $regex: '^pr' } })).toBe(true);
    expect(matches({ 'alert.meta.count': { $regex: '7' } })).toBe(false);
  });

  it('$elemMatch on element fields and on element values', () => {
    expect(matches({ 'log.data.items': { $elemMatch: { name: 'y', v: { $gt: 4 } } } })).toBe(true);
    expect(matches({ 'log.data.items': { $elemMatch: { name: 'x', v: { $gt: 4 } } } })).toBe(false);
    expect(matches({ 'log.data.scores': { $elemMatch: { $gt: 7, $lt: 9 } } })).toBe(true);
    expect(matches({ 'log.data.scores': { $elemMatch: { $gt: 9 } } })).toBe(false);
  });

  it('$not on a field and around a whole query', () => {
    expect(matches({ 'alert.title': { $not: { $regex: 'web' } } })).toBe(true);
    expect(matches({ 'alert.title': { $not: { $regex: 'DB' } } })).toBe(false);
    expect(matches({ $not: { 'alert.urgency': 'low' } })).toBe(true);
    expect(matches({ $not: { 'alert.urgency': 'high' } })).toBe(false);
  });

  it('$and, $or and $nor', () => {
    expect(matches({ $and: [{ 'alert.urgency': 'high' }, { 'log.data.env': 'prod' }] })).toBe(true);
    expect(matches({ $and: [{ 'alert.urgency': 'high' }, { 'log.data.env': 'dev' }] })).toBe(false);
    expect(matches({ $or: [{ 'alert.urgency': 'low' }, { 'log.data.env': 'prod' }] })).toBe(true);
    expect(matches({ $or: [{ 'alert.urgency': 'low' }, { 'log.data.env': 'dev' }] })).toBe(false);
    expect(matches({ $nor: [{ 'alert.urgency': 'low' }, { 'log.data.env': 'dev' }] })).toBe(true);
    expect(matches({ $nor: [{ 'alert.urgency': 'high' }] })).toBe(false);
  });
});

describe('matchQuery: $day', () => {
  it('tests the ISO weekday (1 = Monday … 7 = Sunday), default zone Etc/UTC', () => {
    expect(matches({ $day: { $eq: 1 } })).toBe(true);
    expect(matches({ $day: { $in: [6, 7] } })).toBe(false);
    expect(matches({ $day: { $eq: 7 } }, new Date('2024-06-02T12:00:00Z'))).toBe(true);
  });

  it('uses the weekday of the given zone, IANA id or interface name', () => {
    const sundayNightUtc = new Date('2024-06-02T23:30:00Z'); // Monday 01:30 in Berlin
    expect(matches({ $day: { $eq: 7 } }, sundayNightUtc)).toBe(true);
    expect(matches({ $day: { timezone: 'Europe/Berlin', $eq: 1 } }, sundayNightUtc)).toBe(true);
    expect(matches({ $day: { timezone: 'Berlin', $eq: 1 } }, sundayNightUtc)).toBe(true);
    expect(matches({ $day: { timezone: 'Pacific Time (US & Canada)', $eq: 7 } }, sundayNightUtc)).toBe(true);
  });

  it('follows DST when the weekday changes near midnight', () => {
    // Europe switched to CEST (+2) at 01:00 UTC on Sunday 2024-03-31: 22:30 UTC that night is 00:30 Monday.
    expect(matches({ $day: { timezone: 'Europe/Berlin', $eq: 1 } }, new Date('2024-03-31T22:30:00Z'))).toBe(true);
    // The week before, still CET (+1): 22:30 UTC is 23:30 Sunday.
    expect(matches({ $day: { timezone: 'Europe/Berlin', $eq: 7 } }, new Date('2024-03-24T22:30:00Z'))).toBe(true);
    // New York left EDT (-4) on 2024-11-03: 04:30 UTC on the 4th is 23:30 Sunday EST, not 00:30 Monday.
    expect(matches({ $day: { timezone: 'America/New_York', $eq: 7 } }, new Date('2024-11-04T04:30:00Z'))).toBe(true);
    expect(matches({ $day: { timezone: 'America/New_York', $eq: 1 } }, new Date('2024-10-28T04:30:00Z'))).toBe(true);
  });

  it('takes every sibling operator', () => {
    expect(matches({ $day: { $gte: 1, $lte: 5 } })).toBe(true);
    expect(matches({ $day: { $nin: [1] } })).toBe(false);
    expect(matches({ $day: { $not: { $in: [6, 7] } } })).toBe(true);
  });
});

describe('matchQuery: $now', () => {
  it('compares the formatted now, default format YYYY-MM-DD in Etc/UTC', () => {
    expect(matches({ $now: { $eq: '2024-06-03' } })).toBe(true);
    expect(matches({ $now: { $eq: '2024-06-04' } })).toBe(false);
    expect(matches({ $now: { $gte: '2024-06-01', $lt: '2024-07-01' } })).toBe(true);
  });

  it('formats in the given zone, e.g. holidays by MM-DD', () => {
    const christmasInTokyo = new Date('2024-12-24T16:00:00Z'); // 01:00 on the 25th in Tokyo
    const holidays = { format: 'MM-DD', $in: ['12-25', '12-26'] };
    expect(matches({ $now: { ...holidays, timezone: 'Asia/Tokyo' } }, christmasInTokyo)).toBe(true);
    expect(matches({ $now: { ...holidays, timezone: 'Tokyo' } }, christmasInTokyo)).toBe(true);
    expect(matches({ $now: holidays }, christmasInTokyo)).toBe(false);
  });

  it('supports hour and weekday tokens', () => {
    expect(matches({ $now: { format: 'HH', $in: ['10', '11'] } })).toBe(true);
    expect(matches({ $now: { format: 'dddd', $eq: 'Monday' } })).toBe(true);
    expect(matches({ $now: { format: 'hh a', timezone: 'America/New_York', $eq: '06 am' } })).toBe(true);
  });

  it('takes $regex on the formatted text, e.g. weekends by day name', () => {
    const weekend = { $now: { format: 'dddd', $regex: '^S' } };
    expect(matches(weekend)).toBe(false);
    expect(matches(weekend, new Date('2024-06-08T10:00:00Z'))).toBe(true);
  });
});

describe('matchQuery: $timeBetween', () => {
  const office = { timezone: 'Europe/Berlin', starttime: '09:00 am', endtime: '06:00 pm' };
  const berlin = (time: string) => new Date(`2024-06-03T${time}+02:00`);

  it('holds inside the range, both ends inclusive at the minute', () => {
    expect(matches({ $timeBetween: office }, berlin('09:00:00'))).toBe(true);
    expect(matches({ $timeBetween: office }, berlin('12:00:00'))).toBe(true);
    expect(matches({ $timeBetween: office }, berlin('18:00:00'))).toBe(true);
    expect(matches({ $timeBetween: office }, berlin('18:00:59'))).toBe(true);
  });

  it('fails outside the range', () => {
    expect(matches({ $timeBetween: office }, berlin('08:59:59'))).toBe(false);
    expect(matches({ $timeBetween: office }, berlin('18:01:00'))).toBe(false);
    expect(matches({ $timeBetween: office }, berlin('23:00:00'))).toBe(false);
  });

  it('spans midnight when start is after end', () => {
    const night = { timezone: 'Europe/Berlin', starttime: '10:00 pm', endtime: '06:00 am' };
    expect(matches({ $timeBetween: night }, berlin('22:00:00'))).toBe(true);
    expect(matches({ $timeBetween: night }, berlin('23:59:00'))).toBe(true);
    expect(matches({ $timeBetween: night }, berlin('00:00:00'))).toBe(true);
    expect(matches({ $timeBetween: night }, berlin('06:00:30'))).toBe(true);
    expect(matches({ $timeBetween: night }, berlin('06:01:00'))).toBe(false);
    expect(matches({ $timeBetween: night }, berlin('12:00:00'))).toBe(false);
    expect(matches({ $timeBetween: night }, berlin('21:59:00'))).toBe(false);
  });

  it('defaults to Etc/UTC', () => {
    expect(matches({ $timeBetween: { starttime: '09:00 am', endtime: '11:00 am' } })).toBe(true);
    expect(matches({ $timeBetween: { starttime: '11:00 am', endtime: '01:00 pm' } })).toBe(false);
  });

  it('reads times in a custom timeformat, at its precision', () => {
    const exact = { timeformat: 'HH:mm:ss', starttime: '09:00:00', endtime: '10:00:00' };
    expect(matches({ $timeBetween: exact })).toBe(true);
    expect(matches({ $timeBetween: exact }, new Date('2024-06-03T10:00:01Z'))).toBe(false);
    const hours = { timeformat: 'H', starttime: '9', endtime: '10' };
    expect(matches({ $timeBetween: hours }, new Date('2024-06-03T10:59:59Z'))).toBe(true);
  });

  it('combines with $day as in the office-hours example', () => {
    const query = { $and: [{ $timeBetween: office }, { $day: { timezone: 'Europe/Berlin', $in: [1, 2, 3, 4, 5] } }] };
    expect(matches(query, berlin('10:00:00'))).toBe(true);
    expect(matches(query, new Date('2024-06-08T10:00:00+02:00'))).toBe(false); // Saturday
  });
});

describe('matchQuery never throws', () => {
  it('answers false for odd data', () => {
    for (const odd of [null, undefined, 42, 'text', [], [1, 2], { alert: null }, { alert: 'x' }, { log: [null] }]) {
      expect(matchQuery({ 'alert.title': 'x', 'log.data.a': { $gt: 1 } }, odd, now)).toBe(false);
    }
  });

  it('answers false for queries sift cannot build (they never pass validation)', () => {
    expect(matchQuery({ $foo: 1 }, data, now)).toBe(false);
    expect(matchQuery({ 'alert.title': { $in: [{ $gt: 1 }] } }, data, now)).toBe(false);
    expect(matchQuery({ 'alert.title': { $type: 'object' } }, data, now)).toBe(false);
    expect(matchQuery({ $and: [] }, data, now)).toBe(false);
    expect(matchQuery({ $day: 'Monday' }, data, now)).toBe(false);
    expect(matchQuery({ $day: { timezone: 'Mars/Base', $eq: 1 } }, data, now)).toBe(false);
    expect(matchQuery({ $timeBetween: { starttime: 'soon', endtime: 'later' } }, data, now)).toBe(false);
    expect(matchQuery({ $now: { format: 5, $eq: '5' } }, data, now)).toBe(false);
  });

  it('does not run $where code', () => {
    const probe = globalThis as { harkWhereRan?: boolean };
    expect(matchQuery({ $where: 'globalThis.harkWhereRan = true' }, data, now)).toBe(false);
    expect(probe.harkWhereRan).toBeUndefined();
  });
});
