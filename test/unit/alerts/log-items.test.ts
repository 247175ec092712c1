// An alert's log items, offline: a transaction's entries share one item (sort key of the first entry's id), a lone
// entry keeps the single-entry shape items were always written in, a long list splits by size, and either shape
// reads back as the same entries, in id order. Layout: docs/storage.md, "Alerts".
import { describe, expect, it } from 'vitest';
import {
  entriesOf,
  entriesPut,
  logEntry,
  logItem,
  logItemCount,
  logItems,
  logPuts,
  logRuns,
  timelineOf,
  type AlertLogEntry,
  type AlertLogItem,
  type LogEntry,
} from '#lib/alerts/log-items.ts';
import { ALERT_LOG_ITEM_BYTES } from '#lib/limits.ts';

const AT = '2026-11-26T10:00:00.000Z';
const id = (n: number) => `01JD0000000000000000000${String(n).padStart(3, '0')}`;
const paged = (n: number): LogEntry => ({ event: 'paged', message: `Account user au${n} is paged on layer 1.`, account_user_id: `au${n}`, layer: 1, pass: 1, team_id: undefined });
const stamped = (n: number, entry: LogEntry = paged(n)) => logEntry(id(n), AT, entry);

describe('logEntry', () => {
  it('keeps id, instant, event, message and only the optional fields that are set', () => {
    expect(logEntry(id(1), AT, { event: 'created', message: 'Alert created.', account_user_id: undefined, router_id: 'rtr1' })).toEqual({
      id: id(1),
      created_at: AT,
      event: 'created',
      message: 'Alert created.',
      router_id: 'rtr1',
    });
    expect(Object.keys(stamped(2))).toEqual(['id', 'created_at', 'event', 'message', 'account_user_id', 'layer', 'pass']);
  });
});

describe('logItems', () => {
  it('writes a lone entry as the single-entry item, exactly as logItem always has', () => {
    const [item, ...more] = logItems('acc1', 'al1', [stamped(1)]);
    expect(more).toEqual([]);
    expect(item).toEqual(logItem('acc1', 'al1', id(1), AT, paged(1)));
    expect(item).toEqual({ pk: 'A#acc1#AL#al1', sk: `LOG#${id(1)}`, type: 'ALERT_LOG', accountId: 'acc1', alertId: 'al1', ...stamped(1) });
  });

  it('puts two or more entries in one item keyed by the first entry’s id, in the order given', () => {
    const entries = [stamped(3), stamped(4), stamped(5)];
    expect(logItems('acc1', 'al1', entries)).toEqual([{ pk: 'A#acc1#AL#al1', sk: `LOG#${id(3)}`, type: 'ALERT_LOG', accountId: 'acc1', alertId: 'al1', entries }]);
    expect(logItems('acc1', 'al1', [])).toEqual([]);
  });

  it('splits entries past the byte cap into further items, each keyed by its own first entry; one larger entry stands alone', () => {
    const entries = Array.from({ length: 10 }, (_, n) => stamped(n));
    const size = Buffer.byteLength(JSON.stringify(entries[0]), 'utf8');
    // Three entries fit under the cap, a fourth does not.
    const items = logItems('acc1', 'al1', entries, size * 3 + 1);
    expect(items.map((item) => item.sk)).toEqual([id(0), id(3), id(6), id(9)].map((i) => `LOG#${i}`));
    expect(items.flatMap(entriesOf)).toEqual(entries);
    expect(items[3]).not.toHaveProperty('entries');

    const huge = stamped(20, { event: 'trimmed', message: 'x'.repeat(500) });
    const runs = logRuns([stamped(1), huge, stamped(2)], 400);
    expect(runs.map((run) => run.map((e) => e.id))).toEqual([[id(1)], [id(20)], [id(2)]]);
  });

  it('keeps every item far below DynamoDB’s 400 KB: the cap is a sixth of it, and a real step fits one item', () => {
    expect(ALERT_LOG_ITEM_BYTES).toBeLessThanOrEqual(400_000 / 6);
    const step = Array.from({ length: 200 }, (_, n) => stamped(n));
    expect(logItems('acc1', 'al1', step)).toHaveLength(1);
    const long = Array.from({ length: 2000 }, (_, n) => stamped(n));
    const items = logItems('acc1', 'al1', long);
    expect(items.length).toBeGreaterThan(1);
    for (const item of items) expect(Buffer.byteLength(JSON.stringify(item), 'utf8')).toBeLessThan(ALERT_LOG_ITEM_BYTES + 1_000);
  });

  it('logItemCount counts, before ids are given, the items the stamped entries take', () => {
    const entries: LogEntry[] = Array.from({ length: 600 }, (_, n) => ({ ...paged(n), message: `${'é'.repeat(n % 300)} entry ${n}` }));
    const count = logItemCount(entries);
    expect(count).toBe(logItems('acc1', 'al1', entries.map((entry, n) => logEntry(id(n), '2026-12-31T23:59:59.999Z', entry))).length);
    expect(count).toBeGreaterThan(1);
    expect(logItemCount([paged(1)])).toBe(1);
    expect(logItemCount([])).toBe(0);
  });

  it('logPuts writes each item only if absent', () => {
    const puts = logPuts('acc1', 'al1', [stamped(1), stamped(2)]);
    expect(puts).toEqual([{ Put: { Item: logItems('acc1', 'al1', [stamped(1), stamped(2)])[0], ConditionExpression: 'attribute_not_exists(pk)' } }]);
  });
});

describe('reading log items', () => {
  const single = logItem('acc1', 'al1', id(2), AT, paged(2));
  const grouped = logItems('acc1', 'al1', [stamped(1), stamped(3), stamped(5)])[0]!;

  it('gives the entries of either shape, the same fields the API shows', () => {
    expect(entriesOf(single)).toEqual([stamped(2)]);
    expect(entriesOf(grouped)).toEqual([stamped(1), stamped(3), stamped(5)]);
    // An item written before grouping, as DynamoDB returns it.
    const old = { pk: 'A#acc1#AL#al1', sk: `LOG#${id(7)}`, type: 'ALERT_LOG', accountId: 'acc1', alertId: 'al1', id: id(7), created_at: AT, event: 'commented', message: 'Comment', comment_id: 'cm1' };
    expect(entriesOf(old as AlertLogItem)).toEqual([{ id: id(7), created_at: AT, event: 'commented', message: 'Comment', comment_id: 'cm1' }]);
  });

  it('orders the entries of all items by id, also an entry written between a group’s entries by another writer', () => {
    const later = logItems('acc1', 'al1', [stamped(6), stamped(8)])[0]!;
    const lone = logItem('acc1', 'al1', id(4), AT, paged(4));
    // As a Query returns them: by sort key (the first entry's id).
    const items: AlertLogItem[] = [grouped, single, lone, later];
    expect(timelineOf(items).map((e: AlertLogEntry) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 8].map(id));
  });

  it('finds the entries one alert’s transaction puts, of both shapes, ignoring other alerts and other items', () => {
    const other = logItem('acc1', 'al2', id(9), AT, paged(9));
    const puts = [{ type: 'ALERT', id: 'al1' }, grouped, single, other, { type: 'ALERT_NOTIFICATION', alertId: 'al1' }] as unknown as Record<string, unknown>[];
    expect(entriesPut(puts, 'al1').map((e) => e.id)).toEqual([1, 2, 3, 5].map(id));
  });
});
