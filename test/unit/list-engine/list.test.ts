import { describe, expect, it } from 'vitest';
import { applyList, listFromQuery, parseListQuery, type ListOptions } from '#lib/list-engine/index.ts';
import { parseInstant } from '#lib/time/instant.ts';
import { MAX_LIST_OFFSET } from '#lib/limits.ts';
import { messagesOf as problemsOf } from '../support.ts';

type Query = Record<string, string | undefined>;
type Item = Record<string, unknown>;

const SEARCH: ListOptions = { searchFields: ['title', 'description'] };

const run = (query: Query, items: readonly Item[] = ITEMS, options: ListOptions = SEARCH) =>
  applyList(items, parseListQuery(query), options);
/** Ids of the matching items, in the order returned (limit 100). */
const ids = (query: Query, items: readonly Item[] = ITEMS, options: ListOptions = SEARCH) =>
  run({ limit: '100', ...query }, items, options).data.map((item) => item.id);
/** Ids of the matching items as a sorted set, for filters where order is not the point. */
const matching = (query: Query, items: readonly Item[] = ITEMS) => [...ids(query, items)].sort();

// Five alerts-like objects in the API representation; every attribute differs enough to tell filters apart.
const ITEMS: Item[] = [
  {
    id: 'a1',
    title: 'Disk full on db-1',
    description: 'Disk usage at 95%',
    status: 'open',
    tiny_id: 1,
    score: 9,
    acknowledged: false,
    tags: ['db', 'disk'],
    ports: [80, 443],
    created_at: '2024-05-01T10:00:00.000Z',
    ended_at: null,
    user: { name: 'Ada', admin: true },
  },
  {
    id: 'a2',
    title: 'CPU high',
    description: null,
    status: 'acknowledged',
    tiny_id: 2,
    score: 10,
    acknowledged: true,
    tags: ['cpu'],
    ports: [22],
    created_at: '2024-05-02T10:00:00.000Z',
    ended_at: '2024-05-02T11:00:00.000Z',
    user: { name: 'bob', admin: false },
  },
  {
    id: 'a3',
    title: 'disk latency',
    status: 'Open',
    tiny_id: 3,
    score: 2.5,
    acknowledged: false,
    tags: [],
    ports: [8080],
    created_at: '2024-05-03T10:00:00.000Z',
    ended_at: '2024-05-03T09:00:00.000Z',
    user: { name: 'Cy', admin: false },
  },
  {
    id: 'a4',
    title: 'Memory',
    description: 'Swap is DISKY',
    status: 'resolved',
    tiny_id: 4,
    score: -1,
    acknowledged: true,
    tags: ['mem', 'db'],
    ports: [],
    created_at: '2024-05-04T10:00:00.000Z',
    ended_at: '2024-05-04T10:30:00.000Z',
  },
  {
    id: 'a5',
    title: 'Network',
    status: null,
    tiny_id: 5,
    score: null,
    created_at: '2024-05-05T10:00:00.000Z',
  },
];

describe('parseListQuery', () => {
  it('defaults: limit 10, offset 0, no filters, default order, no search', () => {
    expect(parseListQuery({})).toEqual({ limit: 10, offset: 0, filters: [], sort: undefined, direction: undefined, q: undefined });
  });

  it('accepts limit 1 and 100', () => {
    expect(parseListQuery({ limit: '1' }).limit).toBe(1);
    expect(parseListQuery({ limit: '100' }).limit).toBe(100);
  });

  it.each(['0', '101', 'abc', '1.5', '-1', '+5', ' 5', '1e2', '99999999999999999999'])('rejects limit=%j with 422, not clamped', (limit) => {
    expect(problemsOf(() => parseListQuery({ limit }))).toEqual(['limit must be an integer between 1 and 100']);
  });

  it('offset: integers of 0 or more', () => {
    expect(parseListQuery({ offset: '0' }).offset).toBe(0);
    expect(parseListQuery({ offset: '25' }).offset).toBe(25);
    expect(problemsOf(() => parseListQuery({ offset: '-1' }))).toEqual(['offset must be an integer of 0 or more']);
    expect(problemsOf(() => parseListQuery({ offset: 'x' }))).toEqual(['offset must be an integer of 0 or more']);
  });

  it('page computes offset = (page - 1) * limit', () => {
    expect(parseListQuery({ page: '1' }).offset).toBe(0);
    expect(parseListQuery({ page: '2' }).offset).toBe(10);
    expect(parseListQuery({ page: '3', limit: '25' }).offset).toBe(50);
    expect(problemsOf(() => parseListQuery({ page: '0' }))).toEqual(['page must be an integer of 1 or more']);
    expect(problemsOf(() => parseListQuery({ page: 'two' }))).toEqual(['page must be an integer of 1 or more']);
  });

  it('offset and page skip at most MAX_LIST_OFFSET elements; deeper is a 422 naming the parameter, never a read', () => {
    expect(MAX_LIST_OFFSET).toBe(10_000);
    expect(parseListQuery({ offset: '10000' }).offset).toBe(10_000);
    for (const offset of ['10001', '2147483648', '9007199254740991']) {
      expect(problemsOf(() => parseListQuery({ offset }))).toEqual(['offset must be at most 10000']);
    }
    expect(parseListQuery({ page: '1001' }).offset).toBe(10_000);
    expect(parseListQuery({ page: '101', limit: '100' }).offset).toBe(10_000);
    expect(problemsOf(() => parseListQuery({ page: '1002' }))).toEqual(['page must be at most 1001 with limit 10 (it skips at most 10000 elements)']);
    expect(problemsOf(() => parseListQuery({ page: '102', limit: '100' }))).toEqual(['page must be at most 101 with limit 100 (it skips at most 10000 elements)']);
    expect(problemsOf(() => parseListQuery({ page: '99999999999999' }))).toEqual(['page must be at most 1001 with limit 10 (it skips at most 10000 elements)']);
  });

  it('page and offset together are a 422, whatever their values', () => {
    expect(problemsOf(() => parseListQuery({ page: '2', offset: '5' }))).toEqual(['page and offset cannot be combined; give one of them']);
    expect(problemsOf(() => parseListQuery({ page: '1', offset: '0' }))).toEqual(['page and offset cannot be combined; give one of them']);
  });

  it('an empty reserved parameter counts as not given', () => {
    expect(parseListQuery({ limit: '', offset: '', page: '', sort: '', direction: '', q: '', ops: '' })).toEqual(parseListQuery({}));
  });

  it('direction: asc or desc in any case, else 422', () => {
    expect(parseListQuery({ direction: 'asc' }).direction).toBe('asc');
    expect(parseListQuery({ direction: 'DESC' }).direction).toBe('desc');
    expect(problemsOf(() => parseListQuery({ direction: 'up' }))).toEqual(['direction must be asc or desc']);
  });

  it('sort must be an attribute name or dot path', () => {
    expect(parseListQuery({ sort: 'user.name' }).sort).toBe('user.name');
    expect(problemsOf(() => parseListQuery({ sort: 'user..name' }))).toEqual(['sort must be an attribute name, got "user..name"']);
  });

  it('every other parameter is an equality filter; undefined values are skipped', () => {
    expect(parseListQuery({ status: 'open', 'user.name': 'Ada', gone: undefined }).filters).toEqual([
      { attribute: 'status', op: 'equals', value: 'open' },
      { attribute: 'user.name', op: 'equals', value: 'Ada' },
    ]);
  });

  it('ops changes the operation of the same-named parameter; spaces and empty tokens are tolerated', () => {
    expect(parseListQuery({ ops: ' tiny_id:gt , ,created_at:between,', tiny_id: '2', created_at: '2024-01-01..2024-02-01' }).filters).toEqual([
      { attribute: 'tiny_id', op: 'gt', value: '2' },
      { attribute: 'created_at', op: 'between', from: '2024-01-01', to: '2024-02-01' },
    ]);
  });

  it.each(['status', 'status:', ':gt', 'status:gt:x'])('rejects the malformed ops token %j', (token) => {
    expect(problemsOf(() => parseListQuery({ ops: token, status: 'open' }))).toEqual([
      `ops token "${token}" must have the shape attribute:operation`,
    ]);
  });

  it('rejects unknown operations (names are case-sensitive), listing the valid ones', () => {
    const valid = 'equals, ne, lt, lte, gt, gte, beginsWith, contains, between';
    expect(problemsOf(() => parseListQuery({ ops: 'title:like', title: 'x' }))).toEqual([
      `ops: unknown operation "like" for title; use one of ${valid}`,
    ]);
    expect(problemsOf(() => parseListQuery({ ops: 'title:beginswith', title: 'x' }))).toEqual([
      `ops: unknown operation "beginswith" for title; use one of ${valid}`,
    ]);
  });

  it('rejects an op for an attribute without a value parameter, a reserved one, or one named twice', () => {
    expect(problemsOf(() => parseListQuery({ ops: 'tiny_id:gt' }))).toEqual(['ops names tiny_id but the query has no tiny_id parameter']);
    expect(problemsOf(() => parseListQuery({ ops: 'limit:gt', limit: '5' }))).toEqual([
      'ops: limit is a reserved parameter and cannot be filtered',
    ]);
    expect(problemsOf(() => parseListQuery({ ops: 'tiny_id:gt,tiny_id:lt,tiny_id:ne', tiny_id: '3' }))).toEqual([
      'ops names tiny_id more than once',
    ]);
  });

  it.each(['5', '..5', '5..', '1..2..3', '1...3'])('rejects the between value %j', (value) => {
    expect(problemsOf(() => parseListQuery({ ops: 'tiny_id:between', tiny_id: value }))).toEqual([
      `tiny_id must have the shape <from>..<to> for between, got ${JSON.stringify(value)}`,
    ]);
  });

  it('the literal null works with equals and ne only', () => {
    expect(parseListQuery({ ended_at: 'null' }).filters).toEqual([{ attribute: 'ended_at', op: 'equals', value: null }]);
    expect(parseListQuery({ ended_at: 'null', ops: 'ended_at:ne' }).filters).toEqual([{ attribute: 'ended_at', op: 'ne', value: null }]);
    expect(problemsOf(() => parseListQuery({ ended_at: 'null', ops: 'ended_at:lt' }))).toEqual([
      'ended_at: null can only be used with equals or ne, not lt',
    ]);
  });

  it('reports every problem together in one 422', () => {
    const query = {
      limit: '0',
      page: '2',
      offset: '1',
      direction: 'sideways',
      ops: 'title:like,tiny_id:between,x:lt,missing:gt',
      tiny_id: '1..2..3',
      x: 'null',
    };
    expect(problemsOf(() => parseListQuery(query))).toEqual([
      'limit must be an integer between 1 and 100',
      'page and offset cannot be combined; give one of them',
      'direction must be asc or desc',
      'ops: unknown operation "like" for title; use one of equals, ne, lt, lte, gt, gte, beginsWith, contains, between',
      'ops names missing but the query has no missing parameter',
      'tiny_id must have the shape <from>..<to> for between, got "1..2..3"',
      'x: null can only be used with equals or ne, not lt',
    ]);
  });
});

describe('pagination', () => {
  const many: Item[] = Array.from({ length: 250 }, (_, i) => ({
    id: `i${String(i).padStart(3, '0')}`,
    created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  }));
  const page = (query: Query) => run(query, many);
  const first = (query: Query) => page(query).data.map((item) => item.id);

  it('limit 1 returns the newest element and says more exist', () => {
    expect(page({ limit: '1' })).toEqual({ data: [many[249]], has_more: true, total_count: 250 });
  });

  it('limit 100 returns 100 elements; the default is 10', () => {
    expect(page({ limit: '100' }).data).toHaveLength(100);
    expect(page({}).data).toHaveLength(10);
    expect(page({}).has_more).toBe(true);
  });

  it('page 2 continues where page 1 ended', () => {
    expect(first({ limit: '2', page: '2' })).toEqual(['i247', 'i246']);
    expect(first({ limit: '2', offset: '2' })).toEqual(['i247', 'i246']);
  });

  it('has_more is false on the last page exactly and true one element before', () => {
    expect(page({ limit: '100', offset: '150' })).toMatchObject({ has_more: false, total_count: 250 });
    expect(page({ limit: '100', offset: '150' }).data).toHaveLength(100);
    expect(page({ limit: '100', offset: '149' }).has_more).toBe(true);
    expect(page({ limit: '100', page: '3' })).toMatchObject({ has_more: false, total_count: 250 });
    expect(page({ limit: '100', page: '3' }).data).toHaveLength(50);
    expect(page({ limit: '100', page: '2' }).has_more).toBe(true);
  });

  it('an offset past the end gives empty data, has_more false and the full total_count', () => {
    expect(page({ offset: '250' })).toEqual({ data: [], has_more: false, total_count: 250 });
    expect(page({ offset: '10000' })).toEqual({ data: [], has_more: false, total_count: 250 });
  });

  it('total_count counts the elements after filtering, before paging', () => {
    expect(run({ limit: '1', ops: 'created_at:lt', created_at: '2024-01-01T00:05:00Z' }, many)).toEqual({
      data: [many[4]],
      has_more: true,
      total_count: 5,
    });
  });

  it('an empty collection gives an empty page', () => {
    expect(run({}, [])).toEqual({ data: [], has_more: false, total_count: 0 });
  });
});

describe('filters on strings (case-sensitive)', () => {
  it('equals is the default and case-sensitive', () => {
    expect(matching({ status: 'open' })).toEqual(['a1']);
    expect(matching({ status: 'Open' })).toEqual(['a3']);
    expect(matching({ status: 'open', ops: 'status:equals' })).toEqual(['a1']);
  });
  it('ne is the complement of equals: null and missing match', () => {
    expect(matching({ status: 'open', ops: 'status:ne' })).toEqual(['a2', 'a3', 'a4', 'a5']);
    expect(matching({ description: 'Disk usage at 95%', ops: 'description:ne' })).toEqual(['a2', 'a3', 'a4', 'a5']);
  });
  it('lt, lte, gt, gte compare by code unit (uppercase before lowercase); null never matches', () => {
    expect(matching({ status: 'open', ops: 'status:lt' })).toEqual(['a2', 'a3']);
    expect(matching({ status: 'open', ops: 'status:lte' })).toEqual(['a1', 'a2', 'a3']);
    expect(matching({ status: 'open', ops: 'status:gt' })).toEqual(['a4']);
    expect(matching({ status: 'open', ops: 'status:gte' })).toEqual(['a1', 'a4']);
  });
  it('beginsWith is case-sensitive', () => {
    expect(matching({ title: 'Disk', ops: 'title:beginsWith' })).toEqual(['a1']);
    expect(matching({ title: 'disk', ops: 'title:beginsWith' })).toEqual(['a3']);
  });
  it('contains is a case-sensitive substring', () => {
    expect(matching({ description: 'Disk', ops: 'description:contains' })).toEqual(['a1']);
    expect(matching({ description: 'DISK', ops: 'description:contains' })).toEqual(['a4']);
    expect(matching({ title: 'high', ops: 'title:contains' })).toEqual(['a2']);
  });
  it('between is inclusive at both ends', () => {
    expect(matching({ status: 'acknowledged..open', ops: 'status:between' })).toEqual(['a1', 'a2']);
    expect(matching({ status: 'Open..acknowledged', ops: 'status:between' })).toEqual(['a2', 'a3']);
    expect(matching({ status: 'b..open', ops: 'status:between' })).toEqual(['a1']);
  });
  it('an empty value equals the empty string', () => {
    const items = [{ id: 'x', name: '' }, { id: 'y', name: 'y' }];
    expect(matching({ name: '' }, items)).toEqual(['x']);
  });
  it('between with the start after the end is a 422', () => {
    expect(problemsOf(() => run({ status: 'z..a', ops: 'status:between' }))).toEqual([
      'status must be a range whose start is not after its end, got "z..a"',
    ]);
  });
});

describe('filters on numbers', () => {
  it('equals and ne compare as numbers', () => {
    expect(matching({ score: '10' })).toEqual(['a2']);
    expect(matching({ score: '2.50' })).toEqual(['a3']);
    expect(matching({ score: '1e1' })).toEqual(['a2']);
    expect(matching({ score: '10', ops: 'score:ne' })).toEqual(['a1', 'a3', 'a4', 'a5']);
  });
  it('lt, lte, gt, gte are numeric, not lexicographic', () => {
    expect(matching({ score: '9', ops: 'score:lt' })).toEqual(['a3', 'a4']);
    expect(matching({ score: '9', ops: 'score:lte' })).toEqual(['a1', 'a3', 'a4']);
    expect(matching({ score: '9', ops: 'score:gt' })).toEqual(['a2']);
    expect(matching({ score: '9', ops: 'score:gte' })).toEqual(['a1', 'a2']);
    expect(matching({ score: '-1', ops: 'score:lte' })).toEqual(['a4']);
  });
  it('between is inclusive at both ends', () => {
    expect(matching({ score: '2.5..9', ops: 'score:between' })).toEqual(['a1', 'a3']);
    expect(matching({ tiny_id: '2..4', ops: 'tiny_id:between' })).toEqual(['a2', 'a3', 'a4']);
    expect(matching({ score: '-5..-1', ops: 'score:between' })).toEqual(['a4']);
  });
  it('a value that is not a number is a 422 naming the attribute', () => {
    expect(problemsOf(() => run({ score: 'high' }))).toEqual(['score must be a number, got "high"']);
    expect(problemsOf(() => run({ score: '' }))).toEqual(['score must be a number, got ""']);
    expect(problemsOf(() => run({ score: '1..x', ops: 'score:between' }))).toEqual(['score must be a number, got "x"']);
    expect(problemsOf(() => run({ score: '9..1', ops: 'score:between' }))).toEqual([
      'score must be a range whose start is not after its end, got "9..1"',
    ]);
  });
  it('beginsWith and contains do not apply to numbers', () => {
    expect(problemsOf(() => run({ score: '1', ops: 'score:beginsWith' }))).toEqual([
      'score: beginsWith applies to text attributes, not to number ones',
    ]);
    expect(problemsOf(() => run({ score: '1', ops: 'score:contains' }))).toEqual([
      'score: contains applies to text and array attributes, not to number ones',
    ]);
  });
});

describe('filters on booleans', () => {
  it('equals accepts true/false/1/0 in any case', () => {
    expect(matching({ acknowledged: 'true' })).toEqual(['a2', 'a4']);
    expect(matching({ acknowledged: '1' })).toEqual(['a2', 'a4']);
    expect(matching({ acknowledged: 'FALSE' })).toEqual(['a1', 'a3']);
    expect(matching({ acknowledged: '0' })).toEqual(['a1', 'a3']);
  });
  it('ne includes items without the attribute', () => {
    expect(matching({ acknowledged: 'true', ops: 'acknowledged:ne' })).toEqual(['a1', 'a3', 'a5']);
  });
  it('orders false before true', () => {
    expect(matching({ acknowledged: 'true', ops: 'acknowledged:lt' })).toEqual(['a1', 'a3']);
    expect(matching({ acknowledged: 'false', ops: 'acknowledged:gt' })).toEqual(['a2', 'a4']);
    expect(matching({ acknowledged: 'false', ops: 'acknowledged:lte' })).toEqual(['a1', 'a3']);
    expect(matching({ acknowledged: 'true', ops: 'acknowledged:gte' })).toEqual(['a2', 'a4']);
    expect(matching({ acknowledged: 'false..true', ops: 'acknowledged:between' })).toEqual(['a1', 'a2', 'a3', 'a4']);
  });
  it('other values are a 422; text operations do not apply', () => {
    expect(problemsOf(() => run({ acknowledged: 'yes' }))).toEqual(['acknowledged must be true, false, 1 or 0, got "yes"']);
    expect(problemsOf(() => run({ acknowledged: 't', ops: 'acknowledged:beginsWith' }))).toEqual([
      'acknowledged: beginsWith applies to text attributes, not to boolean ones',
    ]);
  });
});

describe('filters on timestamps', () => {
  it('equals compares instants, whatever the offset of the query value', () => {
    expect(matching({ created_at: '2024-05-02T10:00:00.000Z' })).toEqual(['a2']);
    expect(matching({ created_at: '2024-05-02T12:00:00+02:00' })).toEqual(['a2']);
    expect(matching({ created_at: '2024-05-02T05:30:00-0430' })).toEqual(['a2']);
    expect(matching({ created_at: '2024-05-02T10:00:00' })).toEqual(['a2']);
    expect(matching({ created_at: '2024-05-02 10:00:00' })).toEqual(['a2']);
    expect(matching({ created_at: '2024-05-02 12:00:00 02:00' })).toEqual(['a2']); // '+' decoded as a space
  });
  it('ne, lt, lte, gt, gte compare instants; null and missing match ne only', () => {
    expect(matching({ created_at: '2024-05-02T12:00:00+02:00', ops: 'created_at:ne' })).toEqual(['a1', 'a3', 'a4', 'a5']);
    expect(matching({ created_at: '2024-05-03T12:00:00+02:00', ops: 'created_at:lt' })).toEqual(['a1', 'a2']);
    expect(matching({ created_at: '2024-05-03T12:00:00+02:00', ops: 'created_at:lte' })).toEqual(['a1', 'a2', 'a3']);
    expect(matching({ created_at: '2024-05-03 10:00:00', ops: 'created_at:gt' })).toEqual(['a4', 'a5']);
    expect(matching({ created_at: '2024-05-03 10:00:00', ops: 'created_at:gte' })).toEqual(['a3', 'a4', 'a5']);
    expect(matching({ ended_at: '2024-05-03T09:00:00Z', ops: 'ended_at:lte' })).toEqual(['a2', 'a3']);
    expect(matching({ ended_at: '2024-05-03T09:00:00Z', ops: 'ended_at:ne' })).toEqual(['a1', 'a2', 'a4', 'a5']);
  });
  it('compares by instant even where the text order differs', () => {
    const items = [
      { id: 'x', at: '2024-05-01T10:00:00+05:00' }, // 05:00Z
      { id: 'y', at: '2024-05-01T06:00:00Z' },
    ];
    expect(matching({ at: '2024-05-01T05:30:00Z', ops: 'at:lt' }, items)).toEqual(['x']);
    expect(ids({ sort: 'at' }, items)).toEqual(['x', 'y']);
  });
  it('between is inclusive at both ends; a date alone is midnight UTC', () => {
    expect(matching({ created_at: '2024-05-02T10:00:00Z..2024-05-04T10:00:00Z', ops: 'created_at:between' })).toEqual(['a2', 'a3', 'a4']);
    expect(matching({ created_at: '2024-05-02..2024-05-04', ops: 'created_at:between' })).toEqual(['a2', 'a3']);
    expect(matching({ created_at: '2024-05-02T10:00:00.001Z..2024-05-04T09:59:59.999Z', ops: 'created_at:between' })).toEqual(['a3']);
  });
  it('beginsWith and contains work on the rendered text', () => {
    expect(matching({ created_at: '2024-05-03', ops: 'created_at:beginsWith' })).toEqual(['a3']);
    expect(matching({ created_at: '05-04T', ops: 'created_at:contains' })).toEqual(['a4']);
  });
  it.each(['yesterday', '2024-02-30T00:00:00Z', '2024-13-01', '2024-05-01T24:00:00Z', '1714557600', '2024-05-01T10:00:00+25:00'])(
    'an unparseable value %j is a 422',
    (value) => {
      expect(problemsOf(() => run({ created_at: value }))).toEqual([
        `created_at must be an ISO-8601 datetime (2024-05-01T10:00:00Z) or YYYY-MM-DD HH:MM:SS, got ${JSON.stringify(value)}`,
      ]);
    },
  );
  it('parseInstant reads fractions, offsets, leap days and two-digit years', () => {
    expect(parseInstant('2024-05-01T10:00:00.123456Z')).toBe(Date.UTC(2024, 4, 1, 10, 0, 0, 123));
    expect(parseInstant('2024-05-01T10:00Z')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(parseInstant('2024-05-01T10:00:00+02')).toBe(Date.UTC(2024, 4, 1, 8));
    expect(parseInstant('2024-02-29T00:00:00.000Z')).toBe(Date.UTC(2024, 1, 29));
    expect(parseInstant('2023-02-29T00:00:00.000Z')).toBeUndefined();
    expect(parseInstant('0099-01-01T00:00:00.000Z')).toBe(new Date('0099-01-01T00:00:00.000Z').getTime());
    expect(parseInstant('2024-05-01Z')).toBeUndefined();
  });
});

describe('filters on arrays', () => {
  it('equals and contains mean "has that member" (not a substring of one)', () => {
    expect(matching({ tags: 'db' })).toEqual(['a1', 'a4']);
    expect(matching({ tags: 'db', ops: 'tags:contains' })).toEqual(['a1', 'a4']);
    expect(matching({ tags: 'dis', ops: 'tags:contains' })).toEqual([]);
  });
  it('ne means "has no such member"; empty and missing arrays match', () => {
    expect(matching({ tags: 'db', ops: 'tags:ne' })).toEqual(['a2', 'a3', 'a5']);
  });
  it('members compare by their type', () => {
    expect(matching({ ports: '443' })).toEqual(['a1']);
    expect(matching({ ports: '443.0', ops: 'ports:contains' })).toEqual(['a1']);
    expect(matching({ ports: '100', ops: 'ports:lt' })).toEqual(['a1', 'a2']);
    expect(matching({ ports: '443', ops: 'ports:gte' })).toEqual(['a1', 'a3']);
    expect(matching({ ports: '22', ops: 'ports:lte' })).toEqual(['a2']);
    expect(matching({ ports: '8080', ops: 'ports:gt' })).toEqual([]);
    expect(matching({ ports: '80..443', ops: 'ports:between' })).toEqual(['a1']);
    expect(problemsOf(() => run({ ports: 'http' }))).toEqual(['ports must be a number, got "http"']);
  });
  it('beginsWith matches when a member begins with the value', () => {
    expect(matching({ tags: 'di', ops: 'tags:beginsWith' })).toEqual(['a1']);
    expect(matching({ tags: 'm', ops: 'tags:beginsWith' })).toEqual(['a4']);
  });
});

describe('null, unknown and nested attributes', () => {
  it('null matches null and missing; ne null matches the rest', () => {
    expect(matching({ ended_at: 'null' })).toEqual(['a1', 'a5']);
    expect(matching({ ended_at: 'null', ops: 'ended_at:ne' })).toEqual(['a2', 'a3', 'a4']);
    expect(matching({ status: 'null' })).toEqual(['a5']);
  });
  it('ignores attributes no item has, whatever their value or op', () => {
    expect(matching({ colour: 'red' })).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(matching({ colour: 'x..', ops: 'colour:gt' })).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(matching({ constructor: 'x', toString: 'y', __proto__: 'z' } as Query)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });
  it('an empty collection checks no types', () => {
    expect(run({ score: 'high', sort: 'anything' }, [])).toEqual({ data: [], has_more: false, total_count: 0 });
  });
  it('follows dot paths, typed like any attribute', () => {
    expect(matching({ 'user.name': 'Ada' })).toEqual(['a1']);
    expect(matching({ 'user.admin': 'false' })).toEqual(['a2', 'a3']);
    expect(matching({ 'user.admin': 'true', ops: 'user.admin:ne' })).toEqual(['a2', 'a3', 'a4', 'a5']);
    expect(problemsOf(() => run({ 'user.admin': 'maybe' }))).toEqual(['user.admin must be true, false, 1 or 0, got "maybe"']);
  });
  it('a dot path through an array of objects collects the members', () => {
    const users = [
      { id: 'u1', emails: [{ email: 'a@x.io', primary: true }, { email: 'b@x.io', primary: false }] },
      { id: 'u2', emails: [{ email: 'c@x.io', primary: true }] },
      { id: 'u3', emails: [] },
    ];
    expect(matching({ 'emails.email': 'b@x.io' }, users)).toEqual(['u1']);
    expect(matching({ 'emails.primary': 'false' }, users)).toEqual(['u1']);
    expect(matching({ 'emails.email': 'c@', ops: 'emails.email:beginsWith' }, users)).toEqual(['u2']);
  });
  it('several filters AND together', () => {
    expect(matching({ acknowledged: 'false', tags: 'db' })).toEqual(['a1']);
    expect(matching({ acknowledged: 'true', tags: 'db', score: '0', ops: 'score:gt' })).toEqual([]);
    expect(matching({ acknowledged: 'true', tags: 'db', score: '0', ops: 'score:lt' })).toEqual(['a4']);
  });
  it('an attribute of mixed types compares as text', () => {
    const items = [
      { id: 'x', code: 5 },
      { id: 'y', code: 'E5' },
      { id: 'z', code: true },
    ];
    expect(matching({ code: '5' }, items)).toEqual(['x']);
    expect(matching({ code: 'true' }, items)).toEqual(['z']);
    expect(matching({ code: 'E', ops: 'code:beginsWith' }, items)).toEqual(['y']);
  });
});

describe('sorting', () => {
  it('strings, by code unit, both ways', () => {
    expect(ids({ sort: 'title' })).toEqual(['a2', 'a1', 'a4', 'a5', 'a3']);
    expect(ids({ sort: 'title', direction: 'desc' })).toEqual(['a3', 'a5', 'a4', 'a1', 'a2']);
  });
  it('numbers, numerically, both ways; nulls last in both', () => {
    expect(ids({ sort: 'score', direction: 'asc' })).toEqual(['a4', 'a3', 'a1', 'a2', 'a5']);
    expect(ids({ sort: 'score', direction: 'desc' })).toEqual(['a2', 'a1', 'a3', 'a4', 'a5']);
  });
  it('booleans, false first ascending; missing last in both', () => {
    expect(ids({ sort: 'acknowledged' })).toEqual(['a1', 'a3', 'a2', 'a4', 'a5']);
    expect(ids({ sort: 'acknowledged', direction: 'desc' })).toEqual(['a2', 'a4', 'a1', 'a3', 'a5']);
  });
  it('timestamps by instant both ways; null and missing last in both', () => {
    expect(ids({ sort: 'ended_at' })).toEqual(['a2', 'a3', 'a4', 'a1', 'a5']);
    expect(ids({ sort: 'ended_at', direction: 'desc' })).toEqual(['a4', 'a3', 'a2', 'a1', 'a5']);
  });
  it('strings with nulls and missing values: last in both directions', () => {
    expect(ids({ sort: 'description' })).toEqual(['a1', 'a4', 'a2', 'a3', 'a5']);
    expect(ids({ sort: 'description', direction: 'desc' })).toEqual(['a4', 'a1', 'a2', 'a3', 'a5']);
  });
  it('dot paths', () => {
    expect(ids({ sort: 'user.name' })).toEqual(['a1', 'a3', 'a2', 'a4', 'a5']);
  });
  it('is stable: ties keep the collection order in both directions', () => {
    const items = [
      { id: 'p', rank: 1 },
      { id: 'q', rank: 2 },
      { id: 'r', rank: 1 },
      { id: 's', rank: 2 },
    ];
    expect(ids({ sort: 'rank' }, items)).toEqual(['p', 'r', 'q', 's']);
    expect(ids({ sort: 'rank', direction: 'desc' }, items)).toEqual(['q', 's', 'p', 'r']);
  });
  it('default order: newest first, id descending between equal created_at; missing created_at last', () => {
    const items = [
      { id: 'b', created_at: '2024-05-01T10:00:00.000Z' },
      { id: 'd', created_at: '2024-05-02T10:00:00.000Z' },
      { id: 'a', created_at: '2024-05-01T10:00:00.000Z' },
      { id: 'z' },
      { id: 'c', created_at: '2024-05-01T10:00:00.000Z' },
    ];
    expect(ids({}, items)).toEqual(['d', 'c', 'b', 'a', 'z']);
    expect(ids({ direction: 'asc' }, items)).toEqual(['a', 'b', 'c', 'd', 'z']);
    expect(ids({}, [...ITEMS].reverse())).toEqual(['a5', 'a4', 'a3', 'a2', 'a1']);
  });
  it('sorts after filtering and before paging', () => {
    expect(run({ sort: 'score', limit: '1', offset: '1', acknowledged: 'false' })).toEqual({
      data: [ITEMS[0]],
      has_more: false,
      total_count: 2,
    });
  });
  it('an attribute no item has is a 422; with no items any attribute is accepted', () => {
    expect(problemsOf(() => run({ sort: 'colour' }))).toEqual(['sort: colour is not an attribute of this resource']);
    expect(run({ sort: 'colour' }, []).data).toEqual([]);
  });
  it('with sortable, only listed attributes (and their dot paths) are accepted', () => {
    const options = { ...SEARCH, sortable: ['title', 'user', 'colour'] };
    expect(ids({ sort: 'user.name' }, ITEMS, options)).toEqual(['a1', 'a3', 'a2', 'a4', 'a5']);
    expect(ids({ sort: 'colour' }, ITEMS, options)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(problemsOf(() => run({ sort: 'score' }, ITEMS, options))).toEqual(['sort: score is not an attribute of this resource']);
    expect(problemsOf(() => run({ sort: 'score' }, [], options))).toEqual(['sort: score is not an attribute of this resource']);
    expect(problemsOf(() => run({ sort: 'titles' }, ITEMS, options))).toEqual(['sort: titles is not an attribute of this resource']);
  });
  it('arrays and objects cannot be sorted', () => {
    expect(problemsOf(() => run({ sort: 'tags' }))).toEqual(['sort: tags holds arrays and cannot be sorted']);
    expect(problemsOf(() => run({ sort: 'user' }))).toEqual(['sort: user holds objects and cannot be sorted']);
  });
});

describe('q', () => {
  it('is a case-insensitive substring over the search fields', () => {
    expect(matching({ q: 'DISK' })).toEqual(['a1', 'a3', 'a4']);
    expect(matching({ q: 'usage at' })).toEqual(['a1']);
    expect(matching({ q: 'cpu' })).toEqual(['a2']);
  });
  it('only searches the given fields; items lacking them do not match', () => {
    expect(ids({ q: 'open' })).toEqual([]);
    expect(ids({ q: 'disk' }, ITEMS, { searchFields: ['description'] }).sort()).toEqual(['a1', 'a4']);
    expect(ids({ q: 'ada' }, ITEMS, { searchFields: ['user.name'] })).toEqual(['a1']);
    expect(ids({ q: 'mem' }, ITEMS, { searchFields: ['tags'] })).toEqual(['a4']);
    expect(ids({ q: '1' }, ITEMS, { searchFields: ['tiny_id'] })).toEqual([]);
  });
  it('combines with filters, counted in total_count', () => {
    expect(run({ q: 'disk', acknowledged: 'true' })).toEqual({ data: [ITEMS[3]], has_more: false, total_count: 1 });
  });
});

describe('problems found against the collection', () => {
  it('applyList reports every typing problem together', () => {
    expect(problemsOf(() => run({ score: 'x', acknowledged: 'maybe', created_at: 'soon', sort: 'colour' }))).toEqual([
      'score must be a number, got "x"',
      'acknowledged must be true, false, 1 or 0, got "maybe"',
      'created_at must be an ISO-8601 datetime (2024-05-01T10:00:00Z) or YYYY-MM-DD HH:MM:SS, got "soon"',
      'sort: colour is not an attribute of this resource',
    ]);
  });
  it('listFromQuery reports query and typing problems together', () => {
    expect(problemsOf(() => listFromQuery(ITEMS, { limit: '101', direction: 'up', score: 'x', ops: 'title:like' }, SEARCH))).toEqual([
      'limit must be an integer between 1 and 100',
      'direction must be asc or desc',
      'ops: unknown operation "like" for title; use one of equals, ne, lt, lte, gt, gte, beginsWith, contains, between',
      'score must be a number, got "x"',
    ]);
  });
  it('listFromQuery gives the same page as parseListQuery + applyList', () => {
    const query = { q: 'disk', sort: 'score', direction: 'desc', limit: '2' };
    expect(listFromQuery(ITEMS, query, SEARCH)).toEqual(run(query));
  });
});

describe('large collections', () => {
  it('filters, searches, sorts and pages 5000 items together', () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      id: String(i).padStart(26, '0'),
      title: `Alert ${i} disk full`,
      status: ['open', 'acknowledged', 'resolved'][i % 3],
      tiny_id: i,
      tags: ['a', `t${i % 10}`],
      created_at: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
    }));
    const query = { status: 'open', q: 'DISK', tags: 't3', tiny_id: '100..4000', ops: 'tiny_id:between', limit: '100' };
    const page = listFromQuery(items, query, SEARCH);
    expect(page.total_count).toBe(130);
    expect(page.data[0]?.tiny_id).toBe(3993);
  });
});
