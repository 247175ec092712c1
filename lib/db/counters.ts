// Sharded counter groups: the tallies that every alert create or webhook request changes (the account's alert counts,
// the request log's counts) are kept as attributes of one group item per shard, `<pk>#CNT#<shard>` with the group's
// sort key, so one change of several counts is ONE Update of one item in one of COUNTER_SHARDS partitions chosen at
// random. A count is read as the sum over three layouts, so no migration ever runs: the unsharded item of the counter
// (the oldest layout), its per-counter shard items (one item per counter and shard) and the group items.
// Why and the bounds: docs/decisions/0022-sharded-alert-counters.md ("One item per change").
import { randomInt } from 'node:crypto';
import { COUNTER_SHARDS } from '../limits.ts';
import { getItems } from './items.ts';
import { counterShardKey } from './keys.ts';
import type { Key, TransactItem } from './writes.ts';

/** Where a group's counts live: `pk` is the unsharded partition (the account's), `sk` the group item's sort key. */
export type CounterGroup = Key;

/** Every group's sort key starts so: it tells a group's Update from any other write (mergeCounterGroupWrites). */
export const COUNTER_GROUP_SK_PREFIX = 'COUNTS#';

/** One counter of a group: its attribute in the group item, and its own key in the older layouts (attribute itemCount). */
export interface GroupCounter {
  group: CounterGroup;
  attribute: string;
  legacy: Key;
}

/** Count changes of one group by attribute; a zero change is written nowhere. */
export type CounterDeltas = Readonly<Record<string, number>>;

/** The attribute each older-layout item keeps its count in. */
const LEGACY_ATTRIBUTE = 'itemCount';

/** A shard chosen at random, so concurrent writers spread over the shards. */
export const pickCounterShard = (): number => randomInt(COUNTER_SHARDS);

/** The key of `key`'s item in shard `shard` (0 ≤ shard < COUNTER_SHARDS). Pure. */
export function shardedCounterKey(key: Key, shard: number): Key {
  if (!Number.isInteger(shard) || shard < 0 || shard >= COUNTER_SHARDS) throw new RangeError(`counter shard ${shard} is not in 0..${COUNTER_SHARDS - 1}`);
  return counterShardKey(key, shard);
}

const PATTERN = { counter: /^#c\d+$/, value: /^:c\d+$/, shardPk: /#CNT#\d+$/ };

/** The one Update adding `deltas` to the item at `key`, zero changes left out (none left: no write). Pure. */
function groupUpdate(key: Key, deltas: CounterDeltas): TransactItem[] {
  const moves = Object.entries(deltas).filter(([, n]) => n !== 0);
  if (moves.length === 0) return [];
  for (const [attribute, n] of moves) if (!Number.isInteger(n)) throw new RangeError(`counter ${attribute} moves by ${n}, not a whole number`);
  return [
    {
      Update: {
        Key: key,
        UpdateExpression: `ADD ${moves.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(moves.map(([attribute], i) => [`#c${i}`, attribute])),
        ExpressionAttributeValues: Object.fromEntries(moves.map(([, n], i) => [`:c${i}`, n])),
      },
    },
  ];
}

/**
 * The one write of a change to a group: an `ADD` of every counter that moves, in one shard (at random by default), with
 * each attribute through ExpressionAttributeNames (names hold `#`). Zero changes are left out; none left, no write. Pure.
 */
export function counterGroupAdd(group: CounterGroup, deltas: CounterDeltas, shard = pickCounterShard()): TransactItem[] {
  if (!group.sk.startsWith(COUNTER_GROUP_SK_PREFIX)) throw new RangeError(`a counter group's sort key starts with ${COUNTER_GROUP_SK_PREFIX}: ${group.sk}`);
  return groupUpdate(shardedCounterKey(group, shard), deltas);
}

/** The group Update a write is (its item's key and its changes by attribute), or undefined for any other write. Pure. */
export function counterGroupChange(write: TransactItem): { key: Key; deltas: Record<string, number> } | undefined {
  if (!('Update' in write)) return undefined;
  const { Key: key, UpdateExpression: expression, ExpressionAttributeNames: names = {}, ExpressionAttributeValues: values = {}, ConditionExpression } = write.Update;
  const pk = key.pk;
  const sk = key.sk;
  if (typeof pk !== 'string' || typeof sk !== 'string' || !sk.startsWith(COUNTER_GROUP_SK_PREFIX) || !PATTERN.shardPk.test(pk) || ConditionExpression !== undefined) return undefined;
  if (!expression.startsWith('ADD ')) return undefined;
  const deltas: Record<string, number> = {};
  for (const term of expression.slice(4).split(',')) {
    const [name, value, extra] = term.trim().split(/\s+/);
    if (extra !== undefined || !name || !value || !PATTERN.counter.test(name) || !PATTERN.value.test(value)) return undefined;
    const attribute = names[name];
    const n = values[value];
    if (attribute === undefined || typeof n !== 'number') return undefined;
    deltas[attribute] = (deltas[attribute] ?? 0) + n;
  }
  return { key: { pk, sk }, deltas };
}

/**
 * The writes with every group Update naming one item merged into one, where the first of them stood (their changes
 * summed; a sum of zero left out): DynamoDB refuses a transaction naming one item twice, and two count changes of
 * one transaction land on the same group item whenever they pick the same shard. Other writes are kept as they are. Pure.
 */
export function mergeCounterGroupWrites(writes: readonly TransactItem[]): TransactItem[] {
  const changes = writes.map(counterGroupChange);
  const itemId = (key: Key) => `${key.pk}\u0000${key.sk}`;
  const byKey = new Map<string, { deltas: Record<string, number>; count: number }>();
  for (const change of changes) {
    if (!change) continue;
    const id = itemId(change.key);
    const merged = byKey.get(id) ?? { deltas: {}, count: 0 };
    for (const [attribute, n] of Object.entries(change.deltas)) merged.deltas[attribute] = (merged.deltas[attribute] ?? 0) + n;
    merged.count++;
    byKey.set(id, merged);
  }
  if ([...byKey.values()].every((m) => m.count === 1)) return [...writes];
  const written = new Set<string>();
  return writes.flatMap((write, i) => {
    const change = changes[i];
    if (!change) return [write];
    const id = itemId(change.key);
    if (written.has(id)) return [];
    written.add(id);
    return groupUpdate(change.key, byKey.get(id)!.deltas);
  });
}

/**
 * Every key whose values sum to the counter, for one BatchGetItem (2 × COUNTER_SHARDS + 1 keys, far below its 100):
 * the counter's unsharded item, its per-counter shard items, then the group's shard items. Pure.
 */
export const groupCounterReadKeys = (counter: GroupCounter): Key[] => [
  { pk: counter.legacy.pk, sk: counter.legacy.sk },
  ...Array.from({ length: COUNTER_SHARDS }, (_, shard) => counterShardKey(counter.legacy, shard)),
  ...Array.from({ length: COUNTER_SHARDS }, (_, shard) => counterShardKey(counter.group, shard)),
];

/**
 * The counter's value from the items read (in any order, as BatchGetItem returns them): `itemCount` of its own items
 * (unsharded and per-counter shards), its attribute in the group items; a missing item or attribute counts 0, and a
 * shard may be negative (a decrement lands in any shard). Pure.
 */
export function sumGroupCounter(counter: GroupCounter, items: readonly Record<string, unknown>[]): number {
  let sum = 0;
  for (const item of items) {
    if (item.sk === counter.legacy.sk) sum += Number(item[LEGACY_ATTRIBUTE] ?? 0);
    else if (item.sk === counter.group.sk) sum += Number(item[counter.attribute] ?? 0);
  }
  return sum;
}

/** The value of a counter: one strongly consistent BatchGetItem of every item of the three layouts, summed. */
export async function readGroupCounter(counter: GroupCounter): Promise<number> {
  return sumGroupCounter(counter, await getItems<Record<string, unknown>>(groupCounterReadKeys(counter)));
}
