// The copy of an object an outgoing webhook event carries stays within the item size: shared data stored once per
// change, and data over WEBHOOK_EVENT_DATA_BYTES sent with its largest fields emptied and named in `omitted`.
import { describe, expect, it } from 'vitest';
import type { TransactItem } from '#lib/db/writes.ts';
import { WEBHOOK_EVENT_DATA_BYTES } from '#lib/limits.ts';
import { jsonBytes } from '#lib/storable.ts';
import { payloadOf } from '#lib/webhooks/deliveries.ts';
import { boundedEventData, eventsOf, webhookEventWrites, type WebhookChangeItem } from '#lib/webhooks/events.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const scope = { team_ids: [], urgency: 'high' };
const changeOf = (writes: readonly TransactItem[]) => (writes.find((w) => 'Put' in w && w.Put.Item.type === 'WEBHOOK_CHANGE') as unknown as { Put: { Item: WebhookChangeItem } }).Put.Item;

/** An alert as an event carries it, with `kb` KiB of additional data and some meta. */
const alertOf = (kb: number) => ({
  id: 'al1',
  title: 'Disk full',
  description: 'd'.repeat(5_000),
  meta: { runbook: 'r'.repeat(40_000) },
  additional_data: Array.from({ length: kb / 8 }, (_, i) => ({ format: 'text', label: `f${i}`, value: 'v'.repeat(8 * 1024 - 40) })),
});

describe('boundedEventData', () => {
  it('leaves data within the limit as it is', () => {
    const data = { alert: alertOf(64) };
    expect(boundedEventData(data, WEBHOOK_EVENT_DATA_BYTES)).toBe(data);
  });

  it('empties the largest fields first until the data fits, and names them', () => {
    const data = { alert: alertOf(248) };
    const bounded = boundedEventData(data, WEBHOOK_EVENT_DATA_BYTES);
    expect(jsonBytes(bounded)).toBeLessThanOrEqual(WEBHOOK_EVENT_DATA_BYTES);
    expect(bounded).toEqual({ alert: { ...data.alert, additional_data: [] }, omitted: ['alert.additional_data'] });
    expect(data.alert.additional_data).toHaveLength(31); // the alert itself is not changed

    const tight = boundedEventData(data, 30_000) as { alert: Record<string, unknown>; omitted: string[] };
    expect(tight.omitted).toEqual(['alert.additional_data', 'alert.meta']);
    expect(tight.alert.meta).toEqual({});
    expect(tight.alert.description).toBe(data.alert.description);
  });
});

describe('webhookEventWrites', () => {
  it('stores data shared by a change’s events once, and every event reads it back', () => {
    const data = { alert: alertOf(248) };
    const { writes } = webhookEventWrites('acc', 'al1', '0000000001#x', scope, [{ type: 'alert.created', data }, { type: 'alert.open', data }], NOW);
    const change = changeOf(writes);
    expect(change.events.every((e) => e.data === undefined)).toBe(true);
    expect(jsonBytes(change)).toBeLessThan(WEBHOOK_EVENT_DATA_BYTES + 2_000);
    const events = eventsOf(change);
    expect(events.map((e) => e.type)).toEqual(['alert.created', 'alert.open']);
    for (const event of events) {
      expect((event.data as { omitted: string[] }).omitted).toEqual(['alert.additional_data']);
      expect(Buffer.byteLength(payloadOf(event))).toBeLessThan(WEBHOOK_EVENT_DATA_BYTES + 200);
    }
  });

  it('bounds different data of one change together, so the item never passes the limit', () => {
    const { writes } = webhookEventWrites(
      'acc',
      'al1',
      '0000000001#x',
      scope,
      [
        { type: 'alert.commented', data: { alert: alertOf(200), comment: { body: 'one' } } },
        { type: 'alert.commented', data: { alert: alertOf(200), comment: { body: 'two' } } },
      ],
      NOW,
    );
    const change = changeOf(writes);
    expect(change.data).toBeUndefined();
    expect(jsonBytes(change)).toBeLessThan(WEBHOOK_EVENT_DATA_BYTES + 2_000);
    expect(eventsOf(change).map((e) => (e.data.comment as { body: string }).body)).toEqual(['one', 'two']);
  });

  it('reads events stored before data was shared (each with its own data)', () => {
    const old = { events: [{ id: 'msg_1', type: 'alert.created', timestamp: 't', data: { alert: { id: 'a' } } }] };
    expect(eventsOf(old)).toEqual(old.events);
  });
});
