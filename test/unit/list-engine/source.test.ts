import { describe, expect, it } from 'vitest';
import { listFromSource, pageFromKeyOrder, parseListQuery, type ListSource } from '#lib/list-engine/index.ts';

type Row = { id: string; created_at: string; name: string };

/** A collection whose key order is its default order: ids and created_at rise together. */
const rows: Row[] = Array.from({ length: 23 }, (_, i) => ({
  id: `01J${String(i).padStart(23, '0')}`,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  name: `Row ${i}`,
}));

/** A source that records which read answered. */
function recordingSource(counter: number = rows.length) {
  const reads: string[] = [];
  const source: ListSource<Row> = {
    all: async () => {
      reads.push('all');
      return [...rows];
    },
    firstInKeyOrder: async (count, newestFirst) => {
      reads.push(`first ${count} ${newestFirst ? 'newest' : 'oldest'}`);
      const ordered = newestFirst ? [...rows].reverse() : [...rows];
      return { objects: ordered.slice(0, count), total: counter };
    },
  };
  return { source, reads };
}

describe('listFromSource', () => {
  it('reads offset + limit + 1 objects in key order for the default order, and nothing else', async () => {
    const { source, reads } = recordingSource();
    const page = await listFromSource(source, { limit: '5', offset: '3' }, { searchFields: ['name'] });
    expect(reads).toEqual(['first 9 newest']);
    expect(page).toEqual({ data: [...rows].reverse().slice(3, 8), has_more: true, total_count: 23 });
  });

  it('direction=asc without sort reads oldest first', async () => {
    const { source, reads } = recordingSource();
    const page = await listFromSource(source, { direction: 'asc', page: '3', limit: '10' }, { searchFields: ['name'] });
    expect(reads).toEqual(['first 31 oldest']);
    expect(page).toEqual({ data: rows.slice(20, 23), has_more: false, total_count: 23 });
  });

  it('filters, q, sort and deep pages read the whole collection', async () => {
    for (const query of [{ name: 'Row 1' }, { q: 'row' }, { sort: 'name' }, { offset: '990', limit: '10' }, { page: '101', limit: '10' }]) {
      const { source, reads } = recordingSource();
      await listFromSource(source, query, { searchFields: ['name'] });
      expect(reads).toEqual(['all']);
    }
  });

  it('answers the same envelope as the whole-collection path for every offset and limit', async () => {
    for (const direction of [undefined, 'asc', 'desc'] as const) {
      for (let offset = 0; offset <= 25; offset++) {
        for (const limit of [1, 2, 5, 10, 22, 23, 24, 100]) {
          const query = { limit: String(limit), offset: String(offset), ...(direction ? { direction } : {}) };
          const fast = await listFromSource(recordingSource().source, query, { searchFields: ['name'] });
          const slow = await listFromSource({ all: async () => [...rows] }, query, { searchFields: ['name'] });
          expect(fast).toEqual(slow);
        }
      }
    }
  });

  it('parameter problems are the same 422 on either path', async () => {
    const fast = listFromSource(recordingSource().source, { limit: '0' }, { searchFields: [] });
    await expect(fast).rejects.toMatchObject({ kind: 'invalid', messages: ['limit must be an integer between 1 and 100'] });
  });
});

describe('pageFromKeyOrder', () => {
  const query = parseListQuery({ limit: '10' });

  it('takes total_count from the objects when the read reached the end, whatever the counter says', () => {
    expect(pageFromKeyOrder(query, { objects: rows.slice(0, 4), total: 99 })).toMatchObject({ has_more: false, total_count: 4 });
  });

  it('takes total_count from the counter otherwise, never below what was read', () => {
    expect(pageFromKeyOrder(query, { objects: rows.slice(0, 11), total: 40 })).toMatchObject({ has_more: true, total_count: 40 });
    expect(pageFromKeyOrder(query, { objects: rows.slice(0, 11), total: 3 })).toMatchObject({ has_more: true, total_count: 11 });
  });
});
