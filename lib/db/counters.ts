// Sharded counters: a tally that every alert create changes is written to one of COUNTER_SHARDS shard items, each
// in a partition of its own, and read as the sum of every shard and of the unsharded item it grew from (which keeps
// the counts written before sharding, so no migration is needed). Why and the bounds: docs/decisions/0022-sharded-alert-counters.md.
import { randomInt } from 'node:crypto';
import { COUNTER_SHARDS } from '../limits.ts';
import { getItems } from './items.ts';
import { counterShardKey } from './keys.ts';
import type { Key, TransactItem } from './writes.ts';

/** A shard chosen at random, so concurrent writers spread over the shards. */
export const pickCounterShard = (): number => randomInt(COUNTER_SHARDS);

/** The key a change of the counter at `key` is written to in shard `shard` (0 ≤ shard < COUNTER_SHARDS). Pure. */
export function shardedCounterKey(key: Key, shard: number): Key {
  if (!Number.isInteger(shard) || shard < 0 || shard >= COUNTER_SHARDS) throw new RangeError(`counter shard ${shard} is not in 0..${COUNTER_SHARDS - 1}`);
  return counterShardKey(key, shard);
}

/**
 * The transaction write adding `delta` to the counter at `key` in one shard (at random by default): what any counter
 * that every request or create changes should write instead of its one item (read it with readShardedCounter).
 */
export const shardedCounterAdd = (key: Key, delta: number, shard = pickCounterShard(), attribute = 'itemCount'): TransactItem => ({
  Update: { Key: shardedCounterKey(key, shard), UpdateExpression: 'ADD #n :delta', ExpressionAttributeNames: { '#n': attribute }, ExpressionAttributeValues: { ':delta': delta } },
});

/** Every key whose values sum to the counter: the unsharded item first, then each shard. Pure. */
export const counterReadKeys = (key: Key): Key[] => [{ pk: key.pk, sk: key.sk }, ...Array.from({ length: COUNTER_SHARDS }, (_, shard) => counterShardKey(key, shard))];

/** The sum of `attribute` over the items read (a missing item or attribute counts 0). Pure. */
export const sumCounter = (items: readonly Record<string, unknown>[], attribute = 'itemCount'): number =>
  items.reduce((sum, item) => sum + Number(item[attribute] ?? 0), 0);

/** The value of a sharded counter: one strongly consistent BatchGetItem of its unsharded item and every shard. */
export async function readShardedCounter(key: Key, attribute = 'itemCount'): Promise<number> {
  return sumCounter(await getItems<Record<string, unknown>>(counterReadKeys(key)), attribute);
}
