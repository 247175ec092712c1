// Sharded counters' pure parts: which key a shard is, which keys a read sums, and the sum itself.
// Rules: docs/decisions/0022-sharded-alert-counters.md.
import { describe, expect, it } from 'vitest';
import { counterReadKeys, pickCounterShard, shardedCounterAdd, shardedCounterKey, sumCounter } from '#lib/db/counters.ts';
import { COUNTER_SHARDS } from '#lib/limits.ts';

const counter = { pk: 'A#acc', sk: 'COUNTER#ALERT#STATUS#open' };

describe('sharded counters', () => {
  it('a shard is the counter’s sort key in a partition of its own per shard', () => {
    expect(shardedCounterKey(counter, 0)).toEqual({ pk: 'A#acc#CNT#0', sk: 'COUNTER#ALERT#STATUS#open' });
    expect(shardedCounterKey(counter, COUNTER_SHARDS - 1)).toEqual({ pk: `A#acc#CNT#${COUNTER_SHARDS - 1}`, sk: 'COUNTER#ALERT#STATUS#open' });
  });

  it('refuses a shard outside 0..COUNTER_SHARDS − 1, so no write lands where no read looks', () => {
    for (const shard of [-1, COUNTER_SHARDS, 1.5, Number.NaN]) expect(() => shardedCounterKey(counter, shard)).toThrow(RangeError);
  });

  it('a read sums the unsharded item (counts from before sharding) and every shard', () => {
    const keys = counterReadKeys(counter);
    expect(keys).toHaveLength(COUNTER_SHARDS + 1);
    expect(keys[0]).toEqual(counter);
    expect(new Set(keys.map((k) => k.pk)).size).toBe(COUNTER_SHARDS + 1);
    for (let shard = 0; shard < COUNTER_SHARDS; shard++) expect(keys).toContainEqual(shardedCounterKey(counter, shard));
  });

  it('the sum counts a missing attribute as 0 and keeps negative shards (a decrement may land in another shard)', () => {
    expect(sumCounter([])).toBe(0);
    expect(sumCounter([{ itemCount: 5 }, { itemCount: -2 }, {}, { itemCount: 1 }])).toBe(4);
    expect(sumCounter([{ lastTinyId: 9 }, { lastTinyId: 1 }], 'lastTinyId')).toBe(10);
  });

  it('a sharded add is one ADD in the shard given, of the attribute given', () => {
    expect(shardedCounterAdd(counter, -1, 5)).toEqual({
      Update: { Key: { pk: 'A#acc#CNT#5', sk: 'COUNTER#ALERT#STATUS#open' }, UpdateExpression: 'ADD #n :delta', ExpressionAttributeNames: { '#n': 'itemCount' }, ExpressionAttributeValues: { ':delta': -1 } },
    });
    expect(() => shardedCounterAdd(counter, 1, COUNTER_SHARDS)).toThrow(RangeError);
  });

  it('picks every shard, and only those', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(pickCounterShard());
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: COUNTER_SHARDS }, (_, i) => i));
  });
});
