// A collection over several partitions (an outbox in shards plus the account partition it was in before): the pure
// merge, and pages with offset and limit across partitions. Rules: docs/lists.md, "A collection over several partitions".
import { describe, expect, it } from 'vitest';
import { mergeInKeyOrder, pageFromKeyOrder, sourceOverPartitions, type PartitionReader } from '#lib/list-engine/source.ts';
import { readListQuery } from '#lib/list-engine/query.ts';

const key = (s: string) => s;

describe('mergeInKeyOrder', () => {
  it('merges reads that are each newest first into the newest `count` of all, newest first', () => {
    const reads = [['09', '05', '01'], ['08', '07'], [], ['06', '04', '03', '02']];
    expect(mergeInKeyOrder(reads, key, 5, true)).toEqual(['09', '08', '07', '06', '05']);
    expect(mergeInKeyOrder(reads, key, 100, true)).toEqual(['09', '08', '07', '06', '05', '04', '03', '02', '01']);
  });

  it('merges reads that are each oldest first, oldest first', () => {
    expect(mergeInKeyOrder([['01', '05'], ['02', '03', '09']], key, 4, false)).toEqual(['01', '02', '03', '05']);
  });

  it('nothing to read, or a count of 0, is an empty page', () => {
    expect(mergeInKeyOrder([[], []], key, 10, true)).toEqual([]);
    expect(mergeInKeyOrder([], key, 10, true)).toEqual([]);
    expect(mergeInKeyOrder([['1']], key, 0, true)).toEqual([]);
  });
});

/** A fake partition of stored items (`OUTBOX#<n>` keys), read as DynamoDB would: in key order, at most `count`. */
function partition(keys: string[], reads: number[] = []): PartitionReader<{ sk: string }> {
  const items = keys.map((k) => ({ sk: `OUTBOX#${k}` })).sort((a, b) => a.sk.localeCompare(b.sk));
  return {
    all: async () => items,
    first: async (count, newestFirst) => {
      reads.push(count);
      return (newestFirst ? [...items].reverse() : items).slice(0, count);
    },
  };
}

describe('sourceOverPartitions', () => {
  // 16 items over three shards and the old partition (items 01–04 written before sharding).
  const layout = () => [partition(['05', '08', '11', '14']), partition(['06', '09', '12', '15', '16']), partition(['07', '10', '13']), partition(['01', '02', '03', '04'])];
  const source = (partitions = layout(), total = 16) =>
    sourceOverPartitions(partitions, (i) => i.sk, async () => total, (items) => items.map((i) => i.sk.slice('OUTBOX#'.length)));
  const page = async (qs: Record<string, string>, partitions = layout(), total = 16) => {
    const { listQuery } = readListQuery(qs);
    const read = await source(partitions, total).firstInKeyOrder(listQuery.offset + listQuery.limit + 1, listQuery.direction !== 'asc');
    return pageFromKeyOrder(listQuery, read);
  };

  it('the first page is the newest of every partition, with the collection’s count', async () => {
    expect(await page({ limit: '5' })).toEqual({ data: ['16', '15', '14', '13', '12'], has_more: true, total_count: 16 });
  });

  it('asks each partition for offset + limit + 1 items, no more', async () => {
    const reads: number[] = [];
    await page({ limit: '3', offset: '4' }, [partition(['05'], reads), partition(['06'], reads), partition(['01'], reads)]);
    expect(reads).toEqual([8, 8, 8]);
  });

  it('pages across the shards into the partition written before sharding, to the last item', async () => {
    expect((await page({ limit: '5', offset: '5' })).data).toEqual(['11', '10', '09', '08', '07']);
    expect(await page({ limit: '5', offset: '10' })).toEqual({ data: ['06', '05', '04', '03', '02'], has_more: true, total_count: 16 });
    expect(await page({ limit: '5', offset: '15' })).toEqual({ data: ['01'], has_more: false, total_count: 16 });
    expect(await page({ limit: '5', offset: '20' })).toEqual({ data: [], has_more: false, total_count: 16 });
  });

  it('oldest first starts in the old partition', async () => {
    expect((await page({ limit: '6', direction: 'asc' })).data).toEqual(['01', '02', '03', '04', '05', '06']);
  });

  it('having read to the end, the items read are the count (a counter that missed some does not hide them)', async () => {
    expect((await page({ limit: '100' }, layout(), 4)).total_count).toBe(16);
  });

  it('all() is every item of every partition, oldest first', async () => {
    expect(await source().all()).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16']);
  });
});
