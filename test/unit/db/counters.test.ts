// Sharded counter groups' pure parts: which key a shard is, the one Update of a change (names, values, zero changes
// left out), reading it back, merging two changes of one item, the keys a read sums and the sum over the three
// layouts. Rules: docs/decisions/0022-sharded-alert-counters.md.
import { describe, expect, it } from 'vitest';
import {
  counterGroupAdd,
  counterGroupChange,
  groupCounterReadKeys,
  mergeCounterGroupWrites,
  pickCounterShard,
  shardedCounterKey,
  sumGroupCounter,
  type GroupCounter,
} from '#lib/db/counters.ts';
import type { TransactItem } from '#lib/db/writes.ts';
import { COUNTER_SHARDS } from '#lib/limits.ts';

const group = { pk: 'A#acc', sk: 'COUNTS#ALERT' };
const open: GroupCounter = { group, attribute: 'STATUS#open', legacy: { pk: 'A#acc', sk: 'COUNTER#ALERT#STATUS#open' } };
const put = (sk: string): TransactItem => ({ Put: { Item: { pk: 'A#acc#AL#1', sk } } });

describe('sharded counter groups', () => {
  it('a shard is the key in a partition of its own per shard', () => {
    expect(shardedCounterKey(group, 0)).toEqual({ pk: 'A#acc#CNT#0', sk: 'COUNTS#ALERT' });
    expect(shardedCounterKey(group, COUNTER_SHARDS - 1)).toEqual({ pk: `A#acc#CNT#${COUNTER_SHARDS - 1}`, sk: 'COUNTS#ALERT' });
  });

  it('refuses a shard outside 0..COUNTER_SHARDS − 1, so no write lands where no read looks', () => {
    for (const shard of [-1, COUNTER_SHARDS, 1.5, Number.NaN]) expect(() => counterGroupAdd(group, { ALL: 1 }, shard)).toThrow(RangeError);
  });

  it('a change is one ADD of every counter that moves, each attribute through a name (names hold # and $)', () => {
    expect(counterGroupAdd(group, { ALL: 1, 'STATUS#open': 1, 'TEAM#t$1': 1 }, 5)).toEqual([
      {
        Update: {
          Key: { pk: 'A#acc#CNT#5', sk: 'COUNTS#ALERT' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1, #c2 :c2',
          ExpressionAttributeNames: { '#c0': 'ALL', '#c1': 'STATUS#open', '#c2': 'TEAM#t$1' },
          ExpressionAttributeValues: { ':c0': 1, ':c1': 1, ':c2': 1 },
        },
      },
    ]);
  });

  it('leaves zero changes out, and writes nothing when nothing moves', () => {
    expect(counterGroupAdd(group, { 'STATUS#open': -1, 'STATUS#acknowledged': 0 }, 2)).toEqual([
      { Update: { Key: { pk: 'A#acc#CNT#2', sk: 'COUNTS#ALERT' }, UpdateExpression: 'ADD #c0 :c0', ExpressionAttributeNames: { '#c0': 'STATUS#open' }, ExpressionAttributeValues: { ':c0': -1 } } },
    ]);
    expect(counterGroupAdd(group, { ALL: 0 })).toEqual([]);
    expect(counterGroupAdd(group, {})).toEqual([]);
  });

  it('refuses a group whose sort key would not be told from other writes, and a change that is not a whole number', () => {
    expect(() => counterGroupAdd({ pk: 'A#acc', sk: 'COUNTER#ALERT' }, { ALL: 1 }, 0)).toThrow(RangeError);
    expect(() => counterGroupAdd(group, { ALL: 0.5 }, 0)).toThrow(RangeError);
  });

  it('reads a group Update back, and nothing else', () => {
    const write = counterGroupAdd(group, { ALL: 2, 'TEAM#t1': -1 }, 3)[0] as Extract<TransactItem, { Update: unknown }>;
    expect(counterGroupChange(write)).toEqual({ key: { pk: 'A#acc#CNT#3', sk: 'COUNTS#ALERT' }, deltas: { ALL: 2, 'TEAM#t1': -1 } });
    expect(counterGroupChange(put('COUNTS#ALERT'))).toBeUndefined();
    // An older layout's counter, a configuration counter with its cap condition, an Update outside the shards.
    expect(counterGroupChange({ Update: { Key: { pk: 'A#acc#CNT#1', sk: 'COUNTER#ALERT' }, UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': 1 } } })).toBeUndefined();
    expect(counterGroupChange({ Update: { ...write.Update, ConditionExpression: 'attribute_exists(pk)' } } as TransactItem)).toBeUndefined();
    expect(counterGroupChange({ Update: { ...write.Update, Key: { pk: 'A#acc', sk: 'COUNTS#ALERT' } } } as TransactItem)).toBeUndefined();
    expect(counterGroupChange({ Update: { ...write.Update, UpdateExpression: 'SET #c0 = :c0' } } as TransactItem)).toBeUndefined();
  });

  it('merges the changes of one transaction that land on one item into one Update, where the first stood', () => {
    const [a] = counterGroupAdd(group, { ALL: 1, 'STATUS#open': 1, 'TEAM#t1': 1 }, 4);
    const [b] = counterGroupAdd(group, { 'STATUS#open': -1, 'STATUS#resolved': 1 }, 4);
    const [other] = counterGroupAdd(group, { 'STATUS#open': 1 }, 6);
    const [logs] = counterGroupAdd({ pk: 'A#acc', sk: 'COUNTS#LOG' }, { ALL: 1 }, 4);
    const merged = mergeCounterGroupWrites([put('ALERT'), a!, other!, logs!, b!, put('LOG')]);
    expect(merged).toEqual([put('ALERT'), ...counterGroupAdd(group, { ALL: 1, 'TEAM#t1': 1, 'STATUS#resolved': 1 }, 4), other, logs, put('LOG')]);
    // Changes that cancel out write nothing; writes naming distinct items are kept as they are.
    expect(mergeCounterGroupWrites([a!, put('X'), ...counterGroupAdd(group, { ALL: -1, 'STATUS#open': -1, 'TEAM#t1': -1 }, 4)])).toEqual([put('X')]);
    const distinct = [a!, other!, logs!];
    expect(mergeCounterGroupWrites(distinct)).toEqual(distinct);
  });

  it('a read sums the unsharded item, the per-counter shards and the group shards: one BatchGetItem of 2 × shards + 1 keys', () => {
    const keys = groupCounterReadKeys(open);
    expect(keys).toHaveLength(2 * COUNTER_SHARDS + 1);
    expect(keys.length).toBeLessThanOrEqual(100);
    expect(keys[0]).toEqual(open.legacy);
    expect(new Set(keys.map((k) => `${k.pk} ${k.sk}`)).size).toBe(keys.length);
    for (let shard = 0; shard < COUNTER_SHARDS; shard++) {
      expect(keys).toContainEqual({ pk: `A#acc#CNT#${shard}`, sk: 'COUNTER#ALERT#STATUS#open' });
      expect(keys).toContainEqual({ pk: `A#acc#CNT#${shard}`, sk: 'COUNTS#ALERT' });
    }
  });

  it('the sum takes itemCount of the counter’s own items and its attribute of the group items, in any order; missing is 0, negatives count', () => {
    expect(sumGroupCounter(open, [])).toBe(0);
    const items = [
      { pk: 'A#acc#CNT#1', sk: 'COUNTS#ALERT', ALL: 40, 'STATUS#open': 7, 'STATUS#resolved': 9 },
      { pk: 'A#acc', sk: 'COUNTER#ALERT#STATUS#open', itemCount: 5, lastTinyId: 99 },
      { pk: 'A#acc#CNT#3', sk: 'COUNTER#ALERT#STATUS#open', itemCount: -2 },
      { pk: 'A#acc#CNT#2', sk: 'COUNTS#ALERT', 'STATUS#open': -1 },
      { pk: 'A#acc#CNT#4', sk: 'COUNTS#ALERT', ALL: 3 },
      { pk: 'A#acc#CNT#5', sk: 'COUNTER#ALERT#STATUS#open' },
    ];
    expect(sumGroupCounter(open, items)).toBe(5 - 2 + 7 - 1);
    expect(sumGroupCounter({ ...open, attribute: 'ALL', legacy: { pk: 'A#acc', sk: 'COUNTER#ALERT' } }, items)).toBe(43);
  });

  it('picks every shard, and only those', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(pickCounterShard());
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: COUNTER_SHARDS }, (_, i) => i));
  });
});
