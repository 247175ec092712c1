// Which webhook events an alert transaction causes, read from its own writes, and the two items they add.
import { describe, expect, it } from 'vitest';
import { alertCountChanges } from '#lib/alerts/items.ts';
import { alertChangeEvents } from '#lib/alerts/webhook-events.ts';
import type { TransactItem } from '#lib/db/writes.ts';
import { logEntry, logPuts, type AlertLogEvent } from '#lib/alerts/log-items.ts';

const alert = (version: number, status: string) => ({
  Put: {
    Item: {
      pk: 'A#acc#AL#al1',
      sk: 'ALERT',
      type: 'ALERT',
      accountId: 'acc',
      id: 'al1',
      prefixId: 'alt_x',
      tinyId: 1,
      version,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      meta: {},
      data: { title: 't', urgency: 'high', status, destination_team_ids: ['team1'] },
      escalation: { status },
    },
  },
});
const log = (event: string) => ({ Put: { Item: { type: 'ALERT_LOG', alertId: 'al1', event } } });
// A status count's change as the alert counts write it: an attribute of the group item in a counter shard.
const entered = (status: string, delta = 1) => alertCountChanges('acc', { statuses: { [status]: delta } }, 0)[0]!;

const typesOf = (items: TransactItem[]) => {
  const { writes } = alertChangeEvents(items, Date.parse('2026-01-01T00:00:00Z'));
  const change = writes.find((w) => 'Put' in w && w.Put.Item.type === 'WEBHOOK_CHANGE') as { Put: { Item: { events: { type: string }[] } } } | undefined;
  return change?.Put.Item.events.map((e) => e.type) ?? [];
};

describe('alertChangeEvents', () => {
  it('a created open alert: created, then open, with two writes (the event item and its fan-out timer)', () => {
    const items = [alert(1, 'open'), log('created'), log('paged'), entered('open')];
    expect(typesOf(items)).toEqual(['alert.created', 'alert.open']);
    const { writes, timers } = alertChangeEvents(items, Date.now());
    expect(writes).toHaveLength(2);
    expect(timers).toEqual([expect.objectContaining({ ownerType: 'webhook', ownerId: 'al1', kind: 'fanout' })]);
  });

  it('maps status arrivals and logged events, and nothing else', () => {
    expect(typesOf([alert(2, 'acknowledged'), log('acknowledged'), entered('acknowledged'), entered('open', -1)])).toEqual(['alert.acknowledged']);
    expect(typesOf([alert(3, 'resolved'), entered('resolved'), entered('acknowledged', -1)])).toEqual(['alert.resolved']);
    expect(typesOf([alert(2, 'open'), log('rejected')])).toEqual(['alert.rejected']);
    expect(typesOf([alert(2, 'dropped'), log('timeout'), log('dropped'), entered('dropped')])).toEqual(['alert.timeout', 'alert.dropped']);
    expect(typesOf([alert(2, 'open'), log('updated')])).toEqual(['alert.updated']);
    expect(typesOf([alert(2, 'open'), log('paged'), log('notified')])).toEqual([]);
  });

  it('adds nothing to a transaction without exactly one alert item', () => {
    expect(alertChangeEvents([log('created')], Date.now()).writes).toEqual([]);
  });

  it('reads the entries of a log item holding several as it reads single-entry items: one event per logged kind', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const grouped = (...events: string[]): TransactItem =>
      logPuts('acc', 'al1', events.map((event, i) => logEntry(`01JD00000000000000000000${i}0`, at, { event: event as AlertLogEvent, message: '' })))[0]!;
    expect(typesOf([alert(1, 'open'), grouped('created', 'routed', 'paged', 'notified'), entered('open')])).toEqual(['alert.created', 'alert.open']);
    expect(typesOf([alert(2, 'dropped'), grouped('timeout', 'skipped', 'dropped'), log('updated'), entered('dropped')])).toEqual(['alert.updated', 'alert.timeout', 'alert.dropped']);
  });

  it('orders changes by the alert version', () => {
    const seq = (version: number) => {
      const { writes } = alertChangeEvents([alert(version, 'open'), log('updated')], Date.now());
      return String((writes[0] as { Put: { Item: { sk: string } } }).Put.Item.sk);
    };
    expect(seq(9) < seq(10)).toBe(true);
  });
});
