// Where a list's objects come from, and the one code path every list endpoint answers through: the common case
// (no filter, no q, default order, offset + limit under MAX_KEY_ORDER_READ) reads only the first offset + limit + 1 objects in key order and takes
// total_count from the collection's counter; everything else reads the whole collection (docs/lists.md, Cost).

import { listFromQuery } from './apply.ts';
import { readListQuery, type ListOptions, type ListPage, type ListQuery } from './query.ts';

/** The first objects of a collection in its default order, and the collection's size. */
export interface KeyOrderPage<T> {
  objects: T[];
  /** The collection's count (a counter kept with every create and delete). */
  total: number;
}

export interface ListSource<T> {
  /** The whole collection as API objects: filters, q and other sorts need it. */
  all: () => Promise<T[]>;
  /**
   * The first `count` objects in the default order (newest first, or oldest first), read in key order. Only
   * sources whose key order IS the default order offer it: ids are ULIDs and created_at is the id's time.
   */
  firstInKeyOrder?: (count: number, newestFirst: boolean) => Promise<KeyOrderPage<T>>;
}

/**
 * Most items a key-order read may take; deeper pages read the whole (bounded) collection, which never costs
 * more than this path would and keeps the read within what one Query with a Limit is meant for.
 */
export const MAX_KEY_ORDER_READ = 1000;

/** The query asks for a page of the default order, near its start, with nothing that needs the whole collection. */
export const needsOnlyKeyOrder = (query: ListQuery): boolean =>
  query.filters.length === 0 && query.q === undefined && query.sort === undefined && query.offset + query.limit + 1 <= MAX_KEY_ORDER_READ;

/** A page from the first objects in key order (read: up to offset + limit + 1 of them). Pure. */
export function pageFromKeyOrder<T>(query: ListQuery, read: KeyOrderPage<T>): ListPage<T> {
  const { offset, limit } = query;
  const wanted = offset + limit + 1;
  const reachedEnd = read.objects.length < wanted;
  return {
    data: read.objects.slice(offset, offset + limit),
    has_more: read.objects.length > offset + limit,
    // Having read to the end, the objects are the count; otherwise the counter (never less than what was read).
    total_count: reachedEnd ? read.objects.length : Math.max(read.total, read.objects.length),
  };
}

/** Answers a list request from a source: 422 for query problems, then the cheapest read that gives the page. */
export async function listFromSource<T extends object>(
  source: ListSource<T>,
  query: Record<string, string | undefined>,
  options: ListOptions,
): Promise<ListPage<T>> {
  const { listQuery, problems } = readListQuery(query);
  if (problems.length === 0 && source.firstInKeyOrder && needsOnlyKeyOrder(listQuery)) {
    const read = await source.firstInKeyOrder(listQuery.offset + listQuery.limit + 1, listQuery.direction !== 'asc');
    return pageFromKeyOrder(listQuery, read);
  }
  return listFromQuery(await source.all(), query, options);
}

// A collection over several partitions ----------------------------------------------------------------------------
// A collection written to several partitions (outbox messages in shards, and the account partition they were in
// before) is read with one Query per partition, in parallel, each for as many items as the page needs, and the reads
// are merged by sort key (docs/lists.md, "A collection over several partitions").

/** One partition of a collection: all its items, or its first `count` in key order (ascending, or descending). */
export interface PartitionReader<S> {
  all: () => Promise<S[]>;
  first: (count: number, newestFirst: boolean) => Promise<S[]>;
}

/**
 * The first `count` items of several reads, each already in key order (ascending, or descending when `newestFirst`),
 * in that order across all of them. Equal keys keep the order of the reads. Pure.
 */
export function mergeInKeyOrder<S>(reads: readonly (readonly S[])[], keyOf: (item: S) => string, count: number, newestFirst: boolean): S[] {
  const merged: S[] = [];
  const at = reads.map(() => 0);
  const before = (a: string, b: string) => (newestFirst ? a > b : a < b);
  while (merged.length < count) {
    let pick = -1;
    for (let r = 0; r < reads.length; r++) {
      const candidate = reads[r]![at[r]!];
      if (candidate === undefined) continue;
      if (pick < 0 || before(keyOf(candidate), keyOf(reads[pick]![at[pick]!]!))) pick = r;
    }
    if (pick < 0) break;
    merged.push(reads[pick]![at[pick]!]!);
    at[pick]! += 1;
  }
  return merged;
}

/**
 * A list source over a collection spread across partitions: `all` reads every partition (in parallel), in ascending
 * key order; `firstInKeyOrder` asks each partition for `count` items, merges them and renders only the page's, with
 * the collection's count from `total` (read in parallel). Each partition must keep the collection's key order.
 */
export function sourceOverPartitions<S, T>(
  partitions: readonly PartitionReader<S>[],
  keyOf: (item: S) => string,
  total: () => Promise<number>,
  render: (items: S[]) => T[] | Promise<T[]>,
): Required<ListSource<T>> {
  return {
    all: async () => {
      const reads = await Promise.all(partitions.map((p) => p.all()));
      return render(mergeInKeyOrder(reads, keyOf, Number.POSITIVE_INFINITY, false));
    },
    firstInKeyOrder: async (count, newestFirst) => {
      const [reads, collectionCount] = await Promise.all([Promise.all(partitions.map((p) => p.first(count, newestFirst))), total()]);
      return { objects: await render(mergeInKeyOrder(reads, keyOf, count, newestFirst)), total: collectionCount };
    },
  };
}
