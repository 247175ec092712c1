// Broadcasts with outgoing webhooks and a scaled clock, end to end: a local receiver (node:http) gets the broadcast
// events, in order and signed (verified with the Standard Webhooks library), and a deadline two minutes out closes
// the broadcast after about two seconds because this file runs its own stack with HARK_TIME_SCALE=60.
// docs/broadcasts.md, docs/outgoing-webhooks.md.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningStack } from '#lib/local/stack.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import type { ChannelAdapter, DeliveryChannel } from '#lib/channel-adapters/port.ts';
import { addAccountUser, addTeam, errorMessages, newAccount, type TestAccount } from './helpers.ts';
import { startScaledStack, startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from './webhook-receiver.ts';

type Delivered = { type: string; timestamp: string; data: { broadcast: Record<string, any>; response?: Record<string, any> } };

const BROADCAST_EVENTS = ['broadcast.created', 'broadcast.open', 'broadcast.closed', 'broadcast.errored', 'broadcast.responded'];

let stack: RunningStack;
let receiver: WebhookReceiver<Delivered>;

/** A provider that takes every message: a broadcast none of whose messages is delivered would end errored. */
const delivering = (channel: DeliveryChannel): ChannelAdapter => ({ channel, provider: 'test', send: async (message) => ({ status: 'sent', providerMessageId: `pm-${message.notificationId}` }) });

beforeAll(async () => {
  // The stack runs in this process, so its delivery uses these adapters.
  useTestAdapters({ push: delivering('push'), email: delivering('email') });
  stack = await startScaledStack('hark-broadcast-webhooks-test');
  receiver = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  useTestAdapters(undefined);
});

let paths = 0;
const newPath = () => `/broadcast-hook-${++paths}`;
const at = (path: string) => receiver.at(path);
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const eventually = <T>(check: () => Promise<T> | T, timeout = 45_000) => vi.waitFor(check, { timeout, interval: 100 });

async function subscribe(acct: TestAccount, path: string, fields: Record<string, unknown> = {}) {
  const reply = await acct.api('POST', '/outgoing_webhooks', { name: `Receiver ${path}`, url: `${receiver.base}${path}`, events: BROADCAST_EVENTS, ...fields });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: string; secret: string };
}

async function createBroadcast(acct: TestAccount, body: Record<string, unknown>) {
  const reply = await acct.api('POST', '/broadcasts', body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: string; broadcast_response_options: { id: string }[] };
}

async function statusOf(acct: TestAccount, id: string) {
  return (await acct.api('GET', `/broadcasts/${id}`)).body as { status: string; closed_at: string | null; response_requested_by: string };
}

// Generous limits: the machine running the whole suite may be busy; nothing here asserts speed.
describe('broadcast events to outgoing webhooks', { timeout: 60_000 }, () => {
  it('sends created, open and responded in order, signed, with the broadcast and the answer', async () => {
    const acct = await newAccount('Broadcast webhooks', stack);
    const path = newPath();
    // Urgencies do not filter broadcasts: a subscription filtered to high urgency still gets them.
    const sub = await subscribe(acct, path, { filters: { urgencies: ['high'] } });
    const b = await createBroadcast(acct, {
      title: 'Who can cover Saturday?',
      destination_account_user_ids: [acct.adminAccountUserId],
      response_requested: true,
      response_requested_by: inSeconds(86_400),
      broadcast_response_options_attributes: [{ value: 'Me' }, { value: 'Not me' }],
    });
    await eventually(async () => expect((await statusOf(acct, b.id)).status).toBe('open'));
    const option = b.broadcast_response_options[1]!.id;
    const answered = await acct.api('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: option });
    expect(answered.status, answered.text).toBe(200);

    await eventually(() => expect(at(path).map((r) => r.json.type)).toEqual(['broadcast.created', 'broadcast.open', 'broadcast.responded']));
    const verifier = new Webhook(sub.secret);
    for (const r of at(path)) {
      expect(verifier.verify(r.body, r.headers)).toEqual(r.json);
      expect(r.json.data.broadcast.id).toBe(b.id);
    }
    const [created, open, responded] = at(path) as [ReceivedRequest<Delivered>, ReceivedRequest<Delivered>, ReceivedRequest<Delivered>];
    expect(created.json.data.broadcast.status).toBe('queued');
    expect(open.json.data.broadcast).toMatchObject({ status: 'open', recipients_count: 1, reached_count: 1 });
    expect(responded.json.data.response).toMatchObject({ account_user_id: acct.adminAccountUserId, broadcast_response_option_id: option, channel: 'api' });
    expect(responded.json.data.broadcast.broadcast_responses).toHaveLength(1);
    expect(responded.json.data.broadcast.broadcast_response_options.map((o: { broadcast_responses_count: number }) => o.broadcast_responses_count)).toEqual([0, 1]);

    // The outcome is committed after the receiver answered.
    await eventually(async () => {
      const log = await acct.api('GET', `/outgoing_webhooks/${sub.id}/deliveries?limit=100`);
      expect(log.body.data.map((d: { event_type: string; alert_id: string | null; state: string }) => [d.event_type, d.alert_id, d.state]).sort()).toEqual([
        ['broadcast.created', null, 'delivered'],
        ['broadcast.open', null, 'delivered'],
        ['broadcast.responded', null, 'delivered'],
      ]);
    });
  });

  it('matches a team filter on the destination teams, and sends errored when nobody was reached', async () => {
    const acct = await newAccount('Broadcast webhooks', stack);
    const [team, otherTeam] = [await addTeam(acct, 'Empty'), await addTeam(acct, 'Other')];
    const matching = newPath();
    const other = newPath();
    await subscribe(acct, matching, { filters: { team_ids: [team.id] } });
    const otherSub = await subscribe(acct, other, { filters: { team_ids: [otherTeam.id] } });
    const b = await createBroadcast(acct, { title: 'Nobody home', destination_team_ids: [team.id] });
    await eventually(() => expect(at(matching).map((r) => r.json.type)).toEqual(['broadcast.created', 'broadcast.errored']));
    expect(at(matching)[1]!.json.data.broadcast).toMatchObject({ id: b.id, status: 'errored', recipients_count: 0 });
    // Fan-out writes every subscription's deliveries of a change at once: the other team's has none.
    const log = await acct.api('GET', `/outgoing_webhooks/${otherSub.id}/deliveries?limit=100`);
    expect(log.body.data).toEqual([]);
    expect(at(other)).toEqual([]);
  });
});

describe('the deadline under HARK_TIME_SCALE', { timeout: 60_000 }, () => {
  it('closes a broadcast whose deadline is two minutes out within seconds, and refuses answers after it', async () => {
    const acct = await newAccount('Broadcast deadline', stack);
    const path = newPath();
    await subscribe(acct, path, { events: ['broadcast.open', 'broadcast.closed'] });
    const recipient = await addAccountUser(acct);
    const b = await createBroadcast(acct, {
      title: 'Standby tonight?',
      destination_account_user_ids: [acct.adminAccountUserId, recipient.id],
      response_requested: true,
      response_requested_by: inSeconds(120),
      broadcast_response_options_attributes: [{ value: 'Yes' }],
    });
    const closed = await eventually(async () => {
      const now = await statusOf(acct, b.id);
      expect(now.status).toBe('closed');
      return now;
    });
    // Closed by the deadline timer well before the wall-clock deadline: its wait was divided by the scale.
    expect(Date.parse(closed.closed_at!)).toBeLessThan(Date.parse(closed.response_requested_by) - 60_000);
    const late = await acct.api('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: b.broadcast_response_options[0]!.id });
    expect(late.status).toBe(422);
    expect(errorMessages(late)).toEqual(['This broadcast is closed; answers are no longer taken']);
    await eventually(() => expect(at(path).map((r) => r.json.type)).toEqual(['broadcast.open', 'broadcast.closed']));
    expect(at(path)[1]!.json.data.broadcast).toMatchObject({ status: 'closed', closed_at: closed.closed_at });
  });
});
