// Sharded counters: a tally that every alert create or webhook request changes is written to one of COUNTER_SHARDS
// shard partitions, `<pk>#CNT#<shard>`, chosen at random. A counter whose set of siblings is bounded (the account's
// alert counts by status, its request-log count) is an attribute of its partition's group item (sort key `COUNTS`,
// attribute named by the counter's own sort key), so one change of several of them is one Update of one small item;
// a counter of which an account holds one per team or integration keeps an item of its own per shard, so no item
// grows with the account (write units are billed by the item's size). A count is read as the sum of every layout,
// so no migration runs: the unsharded item, the per-counter shard items, and (for a grouped counter) the group items.
// Why and the bounds: docs/decisions/0022-sharded-alert-counters.md ("One item per change").
import { randomInt } from 'node:crypto';
import { COUNTER_SHARDS } from '../limits.ts';
import { getItems } from './items.ts';
import { counterShardKey } from './keys.ts';
import type { Key, TransactItem } from './writes.ts';

/** The attribute a counter's own items (unsharded, per-counter shard) keep its count in. */
const COUNT_ATTRIBUTE = 'itemCount';

/** The sort key of a partition's counter group item in each shard. */
export const COUNTER_GROUP_SK = 'COUNTS';

/** A change of one counter, named by its own (unsharded) key. */
export interface CounterChange {
  key: Key;
  delta: number;
}

/** A shard chosen at random, so concurrent writers spread over the shards. */
export const pickCounterShard = (): number => randomInt(COUNTER_SHARDS);

/** The key of `key`'s item in shard `shard` (0 ≤ shard < COUNTER_SHARDS). Pure. */
export function shardedCounterKey(key: Key, shard: number): Key {
  if (!Number.isInteger(shard) || shard < 0 || shard >= COUNTER_SHARDS) throw new RangeError(`counter shard ${shard} is not in 0..${COUNTER_SHARDS - 1}`);
  return counterShardKey(key, shard);
}

/** One Update `ADD`ing each attribute's change to the item at `key`, names through #c<i> (they hold `#`); zeros left out. Pure. */
function shardItemAdd(key: Key, deltas: ReadonlyMap<string, number>): TransactItem[] {
  const moves = [...deltas].filter(([, n]) => n !== 0);
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

/** The write adding `delta` to the counter at `key` in its own item of shard `shard` (random by default); none for 0. Pure. */
export const shardedCounterAdd = (key: Key, delta: number, shard = pickCounterShard()): TransactItem[] =>
  shardItemAdd(shardedCounterKey(key, shard), new Map([[COUNT_ATTRIBUTE, delta]]));

/**
 * The one write of a change to grouped counters of one partition: an `ADD` of each counter that moves, as the
 * attribute named by its sort key, in the group item of shard `shard` (random by default). Only counters of a bounded
 * set may be grouped (the item's size is what each write is billed by). Zeros left out; none left, no write. Pure.
 */
export function counterGroupAdd(changes: readonly CounterChange[], shard = pickCounterShard()): TransactItem[] {
  const pks = new Set(changes.map((c) => c.key.pk));
  if (pks.size > 1) throw new RangeError(`a counter group holds the counters of one partition, not of ${[...pks].join(', ')}`);
  const deltas = new Map<string, number>();
  for (const { key, delta } of changes) deltas.set(key.sk, (deltas.get(key.sk) ?? 0) + delta);
  const [pk] = pks;
  return pk === undefined ? [] : shardItemAdd(shardedCounterKey({ pk, sk: COUNTER_GROUP_SK }, shard), deltas);
}

const SHARD_PK = /^(.+)#CNT#(\d+)$/;
const ADD_TERM = /^#c\d+ :c\d+$/;

/** A counter shard Update as these builders write it: its item, the partition it shards, its changes by attribute. */
interface ShardWrite {
  key: Key;
  unshardedPk: string;
  deltas: Map<string, number>;
}

function shardWrite(write: TransactItem): ShardWrite | undefined {
  if (!('Update' in write)) return undefined;
  const { Key: key, UpdateExpression: expression, ExpressionAttributeNames: names = {}, ExpressionAttributeValues: values = {}, ConditionExpression } = write.Update;
  const { pk, sk } = key;
  const sharded = typeof pk === 'string' ? SHARD_PK.exec(pk) : null;
  if (!sharded || typeof sk !== 'string' || ConditionExpression !== undefined || !expression.startsWith('ADD ')) return undefined;
  const deltas = new Map<string, number>();
  for (const term of expression.slice(4).split(',').map((t) => t.trim())) {
    if (!ADD_TERM.test(term)) return undefined;
    const [name, value] = term.split(' ') as [string, string];
    const attribute = names[name];
    const n = values[value];
    if (attribute === undefined || typeof n !== 'number') return undefined;
    deltas.set(attribute, (deltas.get(attribute) ?? 0) + n);
  }
  return { key: { pk: sharded[0], sk }, unshardedPk: sharded[1]!, deltas };
}

/** The counter changes a transaction's writes make, each named by its counter's own key (a group's attributes too). Pure. */
export function counterChanges(writes: readonly TransactItem[]): CounterChange[] {
  return writes.flatMap((write) => {
    const shard = shardWrite(write);
    if (!shard) return [];
    const grouped = shard.key.sk === COUNTER_GROUP_SK;
    return [...shard.deltas].map(([attribute, delta]) => ({ key: { pk: shard.unshardedPk, sk: grouped ? attribute : shard.key.sk }, delta }));
  });
}

/**
 * The writes with the counter Updates of one transaction merged per item they count into: every change of one
 * partition's group (whichever shard each picked) into one Update of the group item, every change of one counter's
 * own items into one Update, each in the shard and place of the first (sums of zero left out). DynamoDB refuses a
 * transaction naming one item twice, and a change that moves several counts (an alert's and its request log's) then
 * writes one item, not one per shard picked. Other writes are kept as they are. Pure.
 */
export function mergeCounterWrites(writes: readonly TransactItem[]): TransactItem[] {
  const shards = writes.map(shardWrite);
  const counterOf = (s: ShardWrite) => `${s.unshardedPk}\u0000${s.key.sk}`;
  const merged = new Map<string, ShardWrite>();
  for (const shard of shards) {
    if (!shard) continue;
    const first = merged.get(counterOf(shard));
    if (!first) merged.set(counterOf(shard), { ...shard, deltas: new Map(shard.deltas) });
    else for (const [attribute, n] of shard.deltas) first.deltas.set(attribute, (first.deltas.get(attribute) ?? 0) + n);
  }
  if (merged.size === shards.filter(Boolean).length) return [...writes];
  const written = new Set<string>();
  return writes.flatMap((write, i) => {
    const shard = shards[i];
    if (!shard) return [write];
    const counter = counterOf(shard);
    if (written.has(counter)) return [];
    written.add(counter);
    const { key, deltas } = merged.get(counter)!;
    return shardItemAdd(key, deltas);
  });
}

/**
 * Every key whose values sum to the counter at `key`, for one BatchGetItem (at most 2 × COUNTER_SHARDS + 1 keys, far
 * below its 100): its unsharded item, its own shard items, and for a grouped counter the group items. Pure.
 */
export const counterReadKeys = (key: Key, grouped = false): Key[] => [
  { pk: key.pk, sk: key.sk },
  ...Array.from({ length: COUNTER_SHARDS }, (_, shard) => counterShardKey(key, shard)),
  ...(grouped ? Array.from({ length: COUNTER_SHARDS }, (_, shard) => counterShardKey({ pk: key.pk, sk: COUNTER_GROUP_SK }, shard)) : []),
];

/**
 * The counter's value from the items read (in any order): itemCount of its own items, its attribute of the group
 * items; a missing item or attribute counts 0, and a shard may be negative (a decrement lands in any shard). Pure.
 */
export function sumCounter(key: Key, items: readonly Record<string, unknown>[]): number {
  let sum = 0;
  for (const item of items) {
    if (item.sk === key.sk) sum += Number(item[COUNT_ATTRIBUTE] ?? 0);
    else if (item.sk === COUNTER_GROUP_SK) sum += Number(item[key.sk] ?? 0);
  }
  return sum;
}

/** The value of a sharded counter (`grouped`: one of a group): one strongly consistent BatchGetItem of its items, summed. */
export async function readShardedCounter(key: Key, grouped = false): Promise<number> {
  return sumCounter(key, await getItems<Record<string, unknown>>(counterReadKeys(key, grouped)));
}
