// Sharded counters' pure parts: which key a shard is, the one Update of a counter's own item and of a partition's
// counter group (names, values, zero changes left out), the counter changes read back from a transaction, merging the
// changes of one transaction per item they count into, the keys a read sums and the sum over the layouts.
// Rules: docs/decisions/0022-sharded-alert-counters.md.
import { describe, expect, it } from 'vitest';
import {
  counterChanges,
  counterGroupAdd,
  counterReadKeys,
  mergeCounterWrites,
  pickCounterShard,
  shardedCounterAdd,
  shardedCounterKey,
  sumCounter,
} from '#lib/db/counters.ts';
import type { TransactItem } from '#lib/db/writes.ts';
import { COUNTER_SHARDS } from '#lib/limits.ts';

const all = { pk: 'A#acc', sk: 'COUNTER#ALERT' };
const open = { pk: 'A#acc', sk: 'COUNTER#ALERT#STATUS#open' };
const resolved = { pk: 'A#acc', sk: 'COUNTER#ALERT#STATUS#resolved' };
const logs = { pk: 'A#acc', sk: 'COUNTER#LOG' };
const team = { pk: 'A#acc', sk: 'COUNTER#ALERT#TEAM#t$1' };
const put = (sk: string): TransactItem => ({ Put: { Item: { pk: 'A#acc#AL#1', sk } } });
const update = (key: { pk: string; sk: string }, names: Record<string, string>, values: Record<string, number>) => ({
  Update: { Key: key, UpdateExpression: `ADD ${Object.keys(names).map((n, i) => `${n} :c${i}`).join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values },
});

describe('sharded counters', () => {
  it('a shard is the key in a partition of its own per shard', () => {
    expect(shardedCounterKey(team, 0)).toEqual({ pk: 'A#acc#CNT#0', sk: team.sk });
    expect(shardedCounterKey(team, COUNTER_SHARDS - 1)).toEqual({ pk: `A#acc#CNT#${COUNTER_SHARDS - 1}`, sk: team.sk });
  });

  it('refuses a shard outside 0..COUNTER_SHARDS − 1, so no write lands where no read looks', () => {
    for (const shard of [-1, COUNTER_SHARDS, 1.5, Number.NaN]) {
      expect(() => shardedCounterAdd(team, 1, shard)).toThrow(RangeError);
      expect(() => counterGroupAdd([{ key: all, delta: 1 }], shard)).toThrow(RangeError);
    }
  });

  it('a counter of its own is one ADD of itemCount in its item of the shard; a zero change writes nothing', () => {
    expect(shardedCounterAdd(team, -1, 4)).toEqual([update({ pk: 'A#acc#CNT#4', sk: team.sk }, { '#c0': 'itemCount' }, { ':c0': -1 })]);
    expect(shardedCounterAdd(team, 0, 4)).toEqual([]);
    expect(() => shardedCounterAdd(team, 0.5, 4)).toThrow(RangeError);
  });

  it('a group change is one ADD of the group item, one attribute per counter named by its sort key (names hold # and $)', () => {
    expect(counterGroupAdd([{ key: all, delta: 1 }, { key: open, delta: 1 }, { key: logs, delta: 1 }], 5)).toEqual([
      update({ pk: 'A#acc#CNT#5', sk: 'COUNTS' }, { '#c0': 'COUNTER#ALERT', '#c1': 'COUNTER#ALERT#STATUS#open', '#c2': 'COUNTER#LOG' }, { ':c0': 1, ':c1': 1, ':c2': 1 }),
    ]);
  });

  it('a group change sums changes of one counter, leaves zeros out, writes nothing when nothing moves, and holds one partition', () => {
    expect(counterGroupAdd([{ key: open, delta: -1 }, { key: resolved, delta: 0 }, { key: all, delta: 1 }, { key: all, delta: -1 }], 2)).toEqual([
      update({ pk: 'A#acc#CNT#2', sk: 'COUNTS' }, { '#c0': open.sk }, { ':c0': -1 }),
    ]);
    expect(counterGroupAdd([{ key: all, delta: 0 }])).toEqual([]);
    expect(counterGroupAdd([])).toEqual([]);
    expect(() => counterGroupAdd([{ key: all, delta: 1 }, { key: { pk: 'A#other', sk: 'COUNTER#ALERT' }, delta: 1 }], 0)).toThrow(RangeError);
    expect(() => counterGroupAdd([{ key: all, delta: 0.5 }], 0)).toThrow(RangeError);
  });

  it('reads the counter changes back from a transaction, each by its counter’s key; other writes change no counter', () => {
    const writes = [
      put('ALERT'),
      ...counterGroupAdd([{ key: all, delta: 2 }, { key: open, delta: -1 }], 3),
      ...shardedCounterAdd(team, 1, 6),
      // A configuration counter with its cap condition, an Update outside the shards, one that is not an ADD.
      { Update: { Key: { pk: 'A#acc', sk: 'COUNTER#TEAM' }, UpdateExpression: 'ADD itemCount :d', ConditionExpression: 'itemCount < :max', ExpressionAttributeValues: { ':d': 1, ':max': 5 } } },
      { Update: { ...update({ pk: 'A#acc#CNT#1', sk: 'COUNTS' }, { '#c0': 'COUNTER#ALERT' }, { ':c0': 1 }).Update, ConditionExpression: 'attribute_exists(pk)' } },
      update({ pk: 'A#acc', sk: 'COUNTS' }, { '#c0': 'COUNTER#ALERT' }, { ':c0': 1 }),
      { Update: { Key: { pk: 'A#acc#CNT#1', sk: 'COUNTS' }, UpdateExpression: 'SET #c0 = :c0', ExpressionAttributeNames: { '#c0': 'x' }, ExpressionAttributeValues: { ':c0': 1 } } },
    ] as TransactItem[];
    expect(counterChanges(writes)).toEqual([
      { key: all, delta: 2 },
      { key: open, delta: -1 },
      { key: team, delta: 1 },
    ]);
  });

  it('merges every change of one group into one Update (whichever shard each picked) where the first stood, and every change of one counter’s own items', () => {
    const [alert] = counterGroupAdd([{ key: all, delta: 1 }, { key: open, delta: 1 }], 4);
    const [log] = counterGroupAdd([{ key: logs, delta: 1 }], 6);
    const [move] = counterGroupAdd([{ key: open, delta: -1 }, { key: resolved, delta: 1 }], 1);
    const [teamA] = shardedCounterAdd(team, 1, 2);
    const [teamB] = shardedCounterAdd(team, 1, 7);
    const [otherTeam] = shardedCounterAdd({ pk: 'A#acc', sk: 'COUNTER#ALERT#TEAM#t2' }, 1, 2);
    const [otherAccount] = counterGroupAdd([{ key: { pk: 'A#b', sk: 'COUNTER#LOG' }, delta: 1 }], 4);
    const merged = mergeCounterWrites([put('ALERT'), alert!, teamA!, otherTeam!, log!, otherAccount!, move!, teamB!, put('LOG')]);
    expect(merged).toEqual([
      put('ALERT'),
      ...counterGroupAdd([{ key: all, delta: 1 }, { key: logs, delta: 1 }, { key: resolved, delta: 1 }], 4),
      ...shardedCounterAdd(team, 2, 2),
      otherTeam,
      otherAccount,
      put('LOG'),
    ]);
    // Changes that cancel out write nothing; writes naming distinct counters are kept as they are.
    expect(mergeCounterWrites([alert!, put('X'), ...counterGroupAdd([{ key: all, delta: -1 }, { key: open, delta: -1 }], 0)])).toEqual([put('X')]);
    const distinct = [alert!, teamA!, otherTeam!, otherAccount!];
    expect(mergeCounterWrites(distinct)).toEqual(distinct);
  });

  it('a read of a counter of its own sums its unsharded item and its shards: 1 + shards keys', () => {
    const keys = counterReadKeys(team);
    expect(keys).toEqual([team, ...Array.from({ length: COUNTER_SHARDS }, (_, shard) => ({ pk: `A#acc#CNT#${shard}`, sk: team.sk }))]);
  });

  it('a read of a grouped counter adds the group items: one BatchGetItem of 2 × shards + 1 keys', () => {
    const keys = counterReadKeys(open, true);
    expect(keys).toHaveLength(2 * COUNTER_SHARDS + 1);
    expect(keys.length).toBeLessThanOrEqual(100);
    expect(keys[0]).toEqual(open);
    expect(new Set(keys.map((k) => `${k.pk} ${k.sk}`)).size).toBe(keys.length);
    for (let shard = 0; shard < COUNTER_SHARDS; shard++) {
      expect(keys).toContainEqual({ pk: `A#acc#CNT#${shard}`, sk: open.sk });
      expect(keys).toContainEqual({ pk: `A#acc#CNT#${shard}`, sk: 'COUNTS' });
    }
  });

  it('the sum takes itemCount of the counter’s own items and its attribute of the group items, in any order; missing is 0, negatives count', () => {
    expect(sumCounter(open, [])).toBe(0);
    const items = [
      { pk: 'A#acc#CNT#1', sk: 'COUNTS', 'COUNTER#ALERT': 40, 'COUNTER#ALERT#STATUS#open': 7, 'COUNTER#ALERT#STATUS#resolved': 9 },
      { pk: 'A#acc', sk: open.sk, itemCount: 5, lastTinyId: 99 },
      { pk: 'A#acc#CNT#3', sk: open.sk, itemCount: -2 },
      { pk: 'A#acc#CNT#2', sk: 'COUNTS', 'COUNTER#ALERT#STATUS#open': -1 },
      { pk: 'A#acc#CNT#4', sk: 'COUNTS', 'COUNTER#ALERT': 3 },
      { pk: 'A#acc#CNT#5', sk: open.sk },
    ];
    expect(sumCounter(open, items)).toBe(5 - 2 + 7 - 1);
    expect(sumCounter(all, items)).toBe(43);
  });

  it('picks every shard, and only those', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(pickCounterShard());
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: COUNTER_SHARDS }, (_, i) => i));
  });
});
