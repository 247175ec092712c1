// Reading the first items of an entity collection in key order, for lists whose default order is the key
// order (docs/lists.md, Cost): sort keys are `<TYPE>#<ULID>`, and an entity's created_at is its id's time, so
// descending keys are newest first. Costs what the page costs, not what the collection does.

import { logger } from '../logger.ts';
import { queryFirst, queryPrefix, transact } from './items.ts';
import { accountPk, besideCountSk, entityPrefix, type EntityType } from './keys.ts';
import { countOf, listEntities, type EntityItem } from './repository.ts';
import { besideCountKey, counterKey, COUNT_BESIDE_ITEMS, type TransactItem } from './writes.ts';

/** The copy of a count kept beside a collection's items (`<TYPE>$COUNT`); `exact` once checked against the counter. */
export interface BesideCountItem {
  pk: string;
  sk: string;
  itemCount?: number;
  exact?: boolean;
}

/**
 * Splits a newest-first read of `<TYPE>#…` through `<TYPE>$COUNT` into the entities and the count beside them. The
 * count is answered only when the copy is there and marked exact: a copy that only gathered changes (written before
 * it was checked against the counter) is not the collection's count. Pure.
 */
export function splitBesideCount<D>(type: EntityType, read: readonly (EntityItem<D> | BesideCountItem)[]): { items: EntityItem<D>[]; count?: number } {
  const [first, ...rest] = read;
  if (first?.sk !== besideCountSk(type)) return { items: [...read] as EntityItem<D>[] };
  const copy = first as BesideCountItem;
  return { items: rest as EntityItem<D>[], ...(copy.exact === true ? { count: Number(copy.itemCount ?? 0) } : {}) };
}

/**
 * The transaction that marks the copy beside the items exact at `count`, the counter's value just read: it holds only
 * if the counter still holds `count`, and every later count change writes both items in one transaction, so from then
 * on the copy equals the counter. Pure.
 */
export function besideCountCheck(accountId: string, type: EntityType, count: number): TransactItem[] {
  const copy: BesideCountItem = { ...besideCountKey(accountId, type), itemCount: count, exact: true };
  return [
    { Put: { Item: { ...copy } } },
    {
      ConditionCheck: {
        Key: counterKey(accountId, type),
        ConditionExpression: count === 0 ? 'attribute_not_exists(itemCount) OR itemCount = :n' : 'itemCount = :n',
        ExpressionAttributeValues: { ':n': count },
      },
    },
  ];
}

/** Up to `count` entities of the account's collection, newest (or oldest) first; strongly consistent. */
export const firstEntities = <D>(type: EntityType, accountId: string, count: number, newestFirst: boolean): Promise<EntityItem<D>[]> =>
  queryFirst<EntityItem<D>>(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': accountPk(accountId), ':prefix': entityPrefix(type) },
      ScanIndexForward: !newestFirst,
      ConsistentRead: true,
    },
    count,
  );

/**
 * The newest `count` entities and, in the same Query, the count kept beside them (COUNT_BESIDE_ITEMS types): one
 * call. A copy not yet checked is checked once (the counter read, then marked exact) and the counter's value answered.
 */
async function newestWithCount<D>(type: EntityType, accountId: string, count: number): Promise<{ items: EntityItem<D>[]; total: number }> {
  const read = await queryFirst<EntityItem<D> | BesideCountItem>(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :count',
      ExpressionAttributeValues: { ':pk': accountPk(accountId), ':first': entityPrefix(type), ':count': besideCountSk(type) },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    count + 1,
  );
  const split = splitBesideCount<D>(type, read);
  const items = split.items.slice(0, count);
  if (split.count !== undefined) return { items, total: split.count };
  const total = await countOf(accountId, type);
  try {
    await transact(besideCountCheck(accountId, type, total));
  } catch (error) {
    // A create or delete landed meanwhile (the check fails) or storage refused: the next list checks again.
    logger.debug('count beside the items not checked', { type, error: String(error) });
  }
  return { items, total };
}

/**
 * A list source (lib/list-engine/source.ts) over an account's collection of one type: the whole collection,
 * or the first items in key order with the collection's count — for COUNT_BESIDE_ITEMS types newest first, from the
 * same Query; otherwise from the counter, read in parallel.
 * `render` turns the stored items into the API objects (it sees only the items of the page on the fast path).
 */
export function entityCollection<D, T>(type: EntityType, accountId: string, render: (items: EntityItem<D>[]) => T[] | Promise<T[]>) {
  return {
    all: async () => render(await listEntities<D>(type, accountId)),
    firstInKeyOrder: async (count: number, newestFirst: boolean) => {
      const { items, total } =
        newestFirst && COUNT_BESIDE_ITEMS.has(type)
          ? await newestWithCount<D>(type, accountId, count)
          : await Promise.all([firstEntities<D>(type, accountId, count, newestFirst), countOf(accountId, type)]).then(([items, total]) => ({ items, total }));
      return { objects: await render(items), total };
    },
  };
}

/**
 * The readers of one entity type's items in each of several partitions (a sharded collection, lib/list-engine/source.ts
 * sourceOverPartitions merges them): every item of a partition, or its first `count` in key order; strongly consistent.
 */
export function entityPartitionReaders<D>(type: EntityType, partitions: readonly string[]) {
  return partitions.map((pk) => ({
    all: () => queryPrefix<EntityItem<D>>(pk, entityPrefix(type)),
    first: (count: number, newestFirst: boolean) =>
      queryFirst<EntityItem<D>>(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': entityPrefix(type) },
          ScanIndexForward: !newestFirst,
          ConsistentRead: true,
        },
        count,
      ),
  }));
}
