import { describe, expect, it } from 'vitest';
import { batchUnits, TRANSACTION_ITEMS as TRANSACTION_LIMIT, type TransactItem, type WriteUnit } from '#lib/db/writes.ts';

const put = (n: number): TransactItem => ({ Put: { Item: { pk: 'p', sk: String(n) } } });
const update = (n: number): WriteUnit => ({ writes: [put(n)] });
const remove = (n: number): WriteUnit => ({ writes: [put(n), put(n + 0.5)], counts: [{ accountId: 'acct', type: 'EVENT', delta: -1 }] });

const counts = (batch: TransactItem[]) =>
  batch.filter((w) => 'Update' in w && (w.Update.Key.sk as string).startsWith('COUNTER#')).map((w) => ('Update' in w ? w.Update.ExpressionAttributeValues?.[':delta'] : undefined));

describe('batchUnits', () => {
  it('keeps every transaction within 100 items, count changes included', () => {
    const units = [...Array.from({ length: 130 }, (_, i) => update(i)), ...Array.from({ length: 60 }, (_, i) => remove(1000 + i))];
    const batches = batchUnits(units);
    expect(batches.every((b) => b.length <= TRANSACTION_LIMIT)).toBe(true);
    const total = batches.reduce((n, b) => n + b.length - counts(b).length, 0);
    expect(total).toBe(130 + 60 * 2);
    // One net count change per batch that deletes, summing to the deletions.
    expect(batches.flatMap(counts).reduce((a: number, b) => a + Number(b), 0)).toBe(-60);
    expect(batches.every((b) => counts(b).length <= 1)).toBe(true);
  });

  it('never splits a unit', () => {
    const units = [...Array.from({ length: 98 }, (_, i) => update(i)), remove(500)];
    const batches = batchUnits(units);
    expect(batches.map((b) => b.length)).toEqual([98, 3]);
  });

  it('gives nothing for nothing', () => {
    expect(batchUnits([])).toEqual([]);
  });
});
