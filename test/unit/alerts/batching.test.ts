// The deliver timer's writes, offline: ids derived from the timer (the same on every firing, in order), batches of
// at most 100 items that keep each part whole with its log entry, the entries of a batch in one log item, and the
// timer's progress write; and the one-item-per-entry units a firing begun before grouping is finished with.
// Rules: docs/alerts.md, "How a step is applied".
import { describe, expect, it } from 'vitest';
import { deliveryBatches, deliveryItemId, deliveryUnits, fitsInOneTransaction, type DeliveryPart } from '#lib/alerts/batching.ts';
import { entriesOf, type AlertLogItem } from '#lib/alerts/log-items.ts';
import { batchUnits, putNew, TRANSACTION_ITEMS, type TransactItem } from '#lib/db/writes.ts';

const TIMER = '01JCZ8Q7W5X0A1B2C3D4E5F6G7';
const alert = { accountId: 'acc1', id: '01JCZ8Q7W5ALERTALERTALERT0' };

/** A person's message: a record and outbox message and alias per channel, as the alert effects write them. */
const messageOf = (person: number, channels: number) => ({
  log: { event: 'notified' as const, message: `Account user au${person} is notified.`, account_user_id: `au${person}` },
  writes: Array.from({ length: channels * 3 }, (_, i) => putNew({ pk: 'ALERT', sk: `N#${person}#${i}` })),
});

const skOf = (item: TransactItem) => String((item as { Put: { Item: { sk: string } } }).Put.Item.sk);

describe('deliveryItemId', () => {
  it('keeps the timer id’s first 16 characters and encodes the index in the last 10, so ids are stable and sorted', () => {
    expect(deliveryItemId(TIMER, 0)).toBe('01JCZ8Q7W5X0A1B20000000000');
    expect(deliveryItemId(TIMER, 33)).toBe('01JCZ8Q7W5X0A1B20000000011');
    expect(deliveryItemId(TIMER, 7)).toBe(deliveryItemId(TIMER, 7));
    const ids = Array.from({ length: 2000 }, (_, i) => deliveryItemId(TIMER, i));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
  });

  it('refuses an index that is negative or not an integer', () => {
    expect(() => deliveryItemId(TIMER, -1)).toThrow('non-negative integer');
    expect(() => deliveryItemId(TIMER, 1.5)).toThrow('non-negative integer');
  });
});

describe('deliveryUnits (one item per entry, as before grouping) and their batches', () => {
  const logs = Array.from({ length: 70 }, (_, i) => ({ event: 'paged' as const, message: `Account user au${i} is paged.`, account_user_id: `au${i}` }));
  const messages = Array.from({ length: 60 }, (_, i) => messageOf(i, 2));
  const units = deliveryUnits(alert, TIMER, '2026-01-01T00:00:00.000Z', logs, messages);

  it('one unit per left-out log entry, then one per message with its log entry first, every log id derived from the timer', () => {
    expect(units).toHaveLength(130);
    expect(units.slice(0, 70).every((u) => u.writes.length === 1)).toBe(true);
    expect(units.slice(70).every((u) => u.writes.length === 7)).toBe(true);
    const logSks = units.map((u) => skOf(u.writes[0]!));
    expect(logSks).toEqual(Array.from({ length: 130 }, (_, i) => expect.stringContaining(deliveryItemId(TIMER, i))));
    // Written only if absent: a unit a previous firing wrote fails as a whole.
    expect(units.every((u) => (u.writes[0] as { Put: { ConditionExpression: string } }).Put.ConditionExpression === 'attribute_not_exists(pk)')).toBe(true);
    // The same inputs give the same keys: a second firing aims at the same items.
    const again = deliveryUnits(alert, TIMER, '2026-01-01T00:00:00.000Z', logs, messages);
    expect(again.map((u) => skOf(u.writes[0]!))).toEqual(logSks);
  });

  it('batches hold at most 100 writes, keep every unit whole and lose nothing', () => {
    const batches = batchUnits(units);
    expect(batches.every((b) => b.length <= TRANSACTION_ITEMS)).toBe(true);
    expect(batches.flat().map(skOf)).toEqual(units.flatMap((u) => u.writes).map(skOf));
    for (const unit of units) {
      const first = skOf(unit.writes[0]!);
      const batch = batches.find((b) => b.some((w) => skOf(w) === first))!;
      expect(unit.writes.every((w) => batch.includes(w))).toBe(true);
    }
    // 70 logs and 4 messages (98 writes), then 14 messages of 7 writes per batch: 5 transactions for 490 writes.
    expect(batches.map((b) => b.length)).toEqual([98, 98, 98, 98, 98]);
  });
});

describe('deliveryBatches', () => {
  const AT = '2026-01-01T00:00:00.000Z';
  const timers: DeliveryPart[] = Array.from({ length: 2 }, (_, i) => ({ writes: [putNew({ pk: 'ALERT', sk: `TIMER#${i}` })] }));
  const logs: DeliveryPart[] = Array.from({ length: 5 }, (_, i) => ({ writes: [], log: { event: 'paged', message: `Account user au${i} is paged.`, account_user_id: `au${i}` } }));
  const people: DeliveryPart[] = Array.from({ length: 40 }, (_, i) => ({ ...messageOf(i, 2), writes: messageOf(i, 2).writes }));
  const parts = [...timers, ...logs, ...people];
  const progress = (from: number, to: number, last: boolean): TransactItem => ({ Update: { Key: { pk: 'ALERT', sk: 'TIMER#deliver' }, UpdateExpression: `${from}-${to}-${last}` } });
  const plan = (start = 0) => deliveryBatches(alert, TIMER, AT, parts, start, progress);
  const logItemsOf = (writes: readonly TransactItem[]) =>
    writes.flatMap((w) => ('Put' in w && w.Put.Item.type === 'ALERT_LOG' ? [w.Put.Item as unknown as AlertLogItem] : []));

  it('packs whole parts into transactions of at most 100 items, each led by the progress write of its parts, the last marking the end', () => {
    const batches = plan();
    expect(batches.every((b) => b.writes.length <= TRANSACTION_ITEMS)).toBe(true);
    expect(batches.map((b) => [b.from, b.to])).toEqual([
      [0, 23],
      [23, 39],
      [39, 47],
    ]);
    expect(batches.map((b) => b.writes[0])).toEqual([progress(0, 23, false), progress(23, 39, false), progress(39, 47, true)]);
    // Every part's writes once, in order, each in the batch its range says.
    const partWrites = batches.flatMap((b) => b.writes.slice(1).filter((w) => !('Put' in w && w.Put.Item.type === 'ALERT_LOG')));
    expect(partWrites).toEqual(parts.flatMap((p) => p.writes));
    expect(deliveryBatches(alert, TIMER, AT, [], 0, progress)).toEqual([]);
  });

  it('puts a batch’s entries in one log item keyed by its first entry, ids derived from the timer by entry index', () => {
    const batches = plan();
    const items = batches.map((b) => logItemsOf(b.writes));
    expect(items.map((i) => i.length)).toEqual([1, 1, 1]);
    const entries = items.flat().flatMap(entriesOf);
    expect(entries.map((e) => e.id)).toEqual(Array.from({ length: 45 }, (_, n) => deliveryItemId(TIMER, n)));
    expect(entries.map((e) => e.created_at).every((at) => at === AT)).toBe(true);
    expect(entries.map((e) => e.account_user_id)).toEqual([...logs, ...people].map((p) => p.log!.account_user_id));
    expect(items.flat().map((i) => i.sk)).toEqual([0, 21, 37].map((n) => `LOG#${deliveryItemId(TIMER, n)}`));
  });

  it('plans the same keys again from any part a firing resumes at', () => {
    const full = plan();
    const resumed = plan(23);
    expect(resumed.map((b) => b.writes)).toEqual(full.slice(1).map((b) => b.writes));
    expect(resumed.map((b) => [b.from, b.to])).toEqual([
      [23, 39],
      [39, 47],
    ]);
    expect(plan(47)).toEqual([]);
  });

  it('refuses a part that cannot fit in one transaction', () => {
    const big: DeliveryPart = { writes: Array.from({ length: 99 }, (_, i) => putNew({ pk: 'ALERT', sk: `N#${i}` })), log: logs[0]!.log! };
    expect(() => deliveryBatches(alert, TIMER, AT, [big], 0, progress)).toThrow('does not fit in one transaction');
  });
});

describe('fitsInOneTransaction', () => {
  it('counts the reserved writes and every group against the limit', () => {
    expect(fitsInOneTransaction(3, 100, new Array(90), new Array(7))).toBe(true);
    expect(fitsInOneTransaction(3, 100, new Array(90), new Array(8))).toBe(false);
    expect(fitsInOneTransaction(100, 100)).toBe(true);
  });
});
