// The webhook events of broadcast changes, and how subscription filters treat a broadcast (teams = destination
// teams, no urgency). docs/outgoing-webhooks.md, "Events".
import { describe, expect, it } from 'vitest';
import { broadcastChangeEvents, broadcastEventType } from '#lib/broadcasts/webhook-events.ts';
import type { BroadcastItem } from '#lib/broadcasts/items.ts';
import type { OutgoingWebhookData } from '#lib/webhooks/schema.ts';
import { matches } from '#lib/webhooks/worker.ts';

const broadcast = (version: number): BroadcastItem =>
  ({
    pk: 'A#acc',
    sk: 'BROADCAST#b1',
    type: 'BROADCAST',
    accountId: 'acc',
    id: 'b1',
    prefixId: 'brd_x',
    tinyId: 1,
    version,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    meta: {},
    data: { title: 'Standby?', status: 'open', destination_team_ids: ['team1'], destination_account_user_ids: [], broadcast_response_options: [{ id: 'o1', value: 'Yes', position: 1 }] },
    responses: {},
  }) as unknown as BroadcastItem;

const response = { id: 'r1', prefix_id: 'brr_x', account_user_id: 'u1', broadcast_response_option_id: 'o1', channel: 'api', created_at: '2026-01-01T00:00:01.000Z' };

const changeOf = (writes: ReturnType<typeof broadcastChangeEvents>['writes']) =>
  (writes.find((w) => 'Put' in w && w.Put.Item.type === 'WEBHOOK_CHANGE') as { Put: { Item: Record<string, any> } }).Put.Item;

const subscription = (filters: OutgoingWebhookData['filters']): OutgoingWebhookData => ({
  name: 's',
  url: 'https://example.com',
  events: ['broadcast.open'],
  filters,
  enabled: true,
  timeout_seconds: 15,
  disabled_reason: null,
  disabled_at: null,
  secrets: [],
});

describe('broadcast webhook events', () => {
  it('names one event per change: created, the status entered, responded', () => {
    expect(broadcastEventType({ kind: 'created' })).toBe('broadcast.created');
    expect(broadcastEventType({ kind: 'entered', status: 'open' })).toBe('broadcast.open');
    expect(broadcastEventType({ kind: 'entered', status: 'closed' })).toBe('broadcast.closed');
    expect(broadcastEventType({ kind: 'entered', status: 'errored' })).toBe('broadcast.errored');
    expect(broadcastEventType({ kind: 'responded', response })).toBe('broadcast.responded');
  });

  it('records the broadcast as the API shows it (and the answer) in two writes, ordered by its version, scoped to its teams', () => {
    const after = { ...broadcast(4), responses: { u1: response } } as BroadcastItem;
    const { writes, timers } = broadcastChangeEvents(after, { kind: 'responded', response }, Date.parse('2026-01-01T00:00:01Z'));
    expect(writes).toHaveLength(2);
    expect(timers).toEqual([expect.objectContaining({ ownerType: 'webhook', ownerId: 'b1', kind: 'fanout' })]);
    const change = changeOf(writes);
    expect(change.sequence).toMatch(/^0000000004#/);
    expect(change.scope).toEqual({ team_ids: ['team1'], urgency: null });
    expect(change.events).toHaveLength(1);
    expect(change.events[0].type).toBe('broadcast.responded');
    expect(change.events[0].data.response).toEqual(response);
    expect(change.events[0].data.broadcast).toMatchObject({ id: 'b1', prefix_id: 'brd_x', status: 'open', broadcast_responses: [response] });
    expect(change.events[0].data.broadcast.broadcast_response_options).toEqual([{ id: 'o1', value: 'Yes', position: 1, broadcast_responses_count: 1 }]);
  });

  it('is matched by team filters on its destination teams and never filtered out by urgencies', () => {
    const scope = { team_ids: ['team1'], urgency: null };
    expect(matches(subscription({ team_ids: [], urgencies: ['high'] }), 'broadcast.open', scope)).toBe(true);
    expect(matches(subscription({ team_ids: ['team1'], urgencies: [] }), 'broadcast.open', scope)).toBe(true);
    expect(matches(subscription({ team_ids: ['team2'], urgencies: [] }), 'broadcast.open', scope)).toBe(false);
    expect(matches(subscription({ team_ids: [], urgencies: ['high'] }), 'alert.open', { team_ids: [], urgency: 'low' })).toBe(false);
  });
});
