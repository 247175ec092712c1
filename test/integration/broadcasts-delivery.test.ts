// A broadcast end to end on the real local parts: a gateway, the timers poller and the production timer handlers
// run in this test process (so the email adapter is a test adapter recording what it is handed), on a table and a
// timers queue of their own. The send hands each message to delivery, the message carries one signed link per
// option, and posting a link's form records the answer with the message's channel; a broadcast none of whose messages
// could be delivered ends errored, with the reason. docs/broadcasts.md.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UNDELIVERED_TIMER_KIND } from '#lib/broadcasts/undelivered.ts';
import { queryPrefix } from '#lib/db/items.ts';
import { broadcastPk } from '#lib/db/keys.ts';
import type { OutgoingMessage, SendResult } from '#lib/channel-adapters/port.ts';
import { newAccount, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let stack: OwnStack;
let account: TestAccount;
const handed: OutgoingMessage[] = [];

/** A message whose broadcast title says "Undeliverable" is refused for good, as a mailbox that does not exist is. */
const UNDELIVERABLE: SendResult = { status: 'failed', retryable: false, error: 'SMTP 550: mailbox unavailable' };

async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(`${stack.baseUrl}${path.startsWith('/actions/') ? '' : '/api/v4'}${path}`, {
    method,
    headers: { authorization: `Bearer ${account.adminKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // an HTML page
  }
  return { status: response.status, body: parsed as T, text };
}

beforeAll(async () => {
  // Email is the one channel with a provider here; push, SMS and the others have none (their messages are suppressed).
  stack = await startOwnStack('broadcasts', {
    email: {
      channel: 'email',
      provider: 'test-email',
      send: async (message) => {
        handed.push(message);
        return message.subject.includes('Undeliverable') ? UNDELIVERABLE : { status: 'sent', providerMessageId: `pm-${message.notificationId}` };
      },
    },
  });
  account = await newAccount('Broadcast delivery', stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('a broadcast through delivery', () => {
  it('sends each message through the channel adapter with one signed link per option; posting one answers by that channel', { timeout: 60_000 }, async () => {
    const me = (await api('GET', '/account_users')).body.data[0].id as string;
    const created = await api('POST', '/broadcasts', {
      title: 'Standby tonight?',
      description: 'Database maintenance 22:00-23:00 UTC',
      destination_account_user_ids: [me],
      select_specific_channels: true,
      notify_email: true,
      response_requested: true,
      response_requested_by: new Date(Date.now() + 3_600_000).toISOString(),
      broadcast_response_options_attributes: [{ value: 'I can' }, { value: 'I cannot' }],
    });
    expect(created.status, created.text).toBe(201);
    const options = created.body.broadcast_response_options as { id: string; value: string }[];

    await vi.waitFor(() => expect(handed).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const message = handed[0]!;
    expect(message).toMatchObject({ channel: 'email', accountUserId: me, about: { ownerType: 'broadcast', ownerId: created.body.id, prefixId: created.body.prefix_id } });
    expect(message.subject).toBe(`[Broadcast] Standby tonight? (${created.body.prefix_id})`);
    expect(message.text).toContain('Database maintenance 22:00-23:00 UTC');
    expect(message.actions.map((a) => [a.action, a.label])).toEqual(options.map((o) => [o.id, o.value]));
    expect(message.actions.every((a) => a.url.startsWith('https://hark.example.test/actions/'))).toBe(true);
    await vi.waitFor(async () => expect((await api('GET', `/broadcasts/${created.body.id}/notifications`)).body.data.map((r: { status: string }) => r.status)).toEqual(['sent']), {
      timeout: 10_000,
      interval: 100,
    });

    const cannot = new URL(message.actions[1]!.url).pathname;
    const answered = await api('POST', cannot);
    expect(answered.status).toBe(200);
    expect(answered.text).toContain('Your answer &quot;I cannot&quot; is recorded.');
    const after = (await api('GET', `/broadcasts/${created.body.id}`)).body;
    expect(after.broadcast_responses.map((r: Record<string, string>) => [r.account_user_id, r.broadcast_response_option_id, r.channel])).toEqual([[me, options[1]!.id, 'email']]);
    expect(after.broadcast_response_options.map((o: { broadcast_responses_count: number }) => o.broadcast_responses_count)).toEqual([0, 1]);
  });

  /** Polls the broadcast until `done` holds for it, and returns it. */
  async function broadcastWhen(id: string, done: (b: any) => boolean): Promise<any> {
    let broadcast: any;
    await vi.waitFor(
      async () => {
        broadcast = (await api('GET', `/broadcasts/${id}`)).body;
        expect(done(broadcast), JSON.stringify(broadcast)).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );
    return broadcast;
  }

  /** A new person with an email address of their own (email is throttled per address: docs/notifications.md). */
  let people = 0;
  async function newPerson(): Promise<string> {
    people += 1;
    const reply = await api('POST', '/account_users', { user_attributes: { name: `Person ${people}`, emails_attributes: [{ email: `person-${people}-${process.pid}-${Date.now()}@example.test` }] } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.id as string;
  }

  const records = async (id: string) => (await api('GET', `/broadcasts/${id}/notifications?limit=100`)).body.data as { account_user_id: string; channel: string; status: string; reason: string | null }[];

  it('ends errored when every message it sent failed: open → errored, answers refused, the reason on it and on each notification', { timeout: 60_000 }, async () => {
    const [me, other] = [await newPerson(), await newPerson()];
    const created = await api('POST', '/broadcasts', {
      title: 'Undeliverable notice',
      destination_account_user_ids: [me, other],
      select_specific_channels: true,
      notify_email: true,
      response_requested: true,
      response_requested_by: new Date(Date.now() + 3_600_000).toISOString(),
      broadcast_response_options_attributes: [{ value: 'Seen' }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.errored_reason).toBeNull();
    const errored = await broadcastWhen(created.body.id, (b) => b.status === 'errored');
    expect(errored).toMatchObject({
      recipients_count: 2,
      reached_count: 2,
      errored_reason: 'No message could be delivered to any of its 2 recipients: 2 messages failed (SMTP 550: mailbox unavailable)',
    });
    expect(errored.closed_at).not.toBeNull();
    expect((await records(created.body.id)).map((r) => [r.channel, r.status, r.reason])).toEqual([
      ['email', 'failed', 'SMTP 550: mailbox unavailable'],
      ['email', 'failed', 'SMTP 550: mailbox unavailable'],
    ]);
    const answer = await api('POST', `/broadcasts/${created.body.id}/responses`, { broadcast_response_option_id: created.body.broadcast_response_options[0].id });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ message: 'This broadcast is errored; answers are no longer taken' }]);
  });

  it('ends errored when every message was suppressed (a channel without a provider): closed → errored', { timeout: 60_000 }, async () => {
    const me = (await api('GET', '/account_users')).body.data[0].id as string;
    const created = await api('POST', '/broadcasts', { title: 'Push only', destination_account_user_ids: [me], select_specific_channels: true, notify_push: true });
    expect(created.status, created.text).toBe(201);
    const errored = await broadcastWhen(created.body.id, (b) => b.status === 'errored');
    expect(errored.sent_at).not.toBeNull();
    expect(errored.closed_at).toBe(errored.sent_at);
    const [record] = await records(created.body.id);
    expect(record).toMatchObject({ channel: 'push', status: 'suppressed' });
    expect(errored.errored_reason).toBe(`No message could be delivered to its one recipient: 1 message suppressed (${record!.reason})`);
  });

  it('stays closed when one message got through, though another was suppressed', { timeout: 60_000 }, async () => {
    const me = await newPerson();
    const created = await api('POST', '/broadcasts', { title: 'Push and email', destination_account_user_ids: [me], select_specific_channels: true, notify_push: true, notify_email: true });
    expect(created.status, created.text).toBe(201);
    await vi.waitFor(async () => expect((await records(created.body.id)).map((r) => [r.channel, r.status]).sort()).toEqual([['email', 'sent'], ['push', 'suppressed']]), { timeout: 20_000, interval: 100 });
    // Once the suppressed message's check has fired, the broadcast is still closed.
    await vi.waitFor(
      async () => {
        const timers = await queryPrefix<{ kind: string; state: string }>(broadcastPk(account.accountId, created.body.id), 'TIMER#');
        expect(timers.filter((t) => t.kind === UNDELIVERED_TIMER_KIND).map((t) => t.state)).toEqual(['fired']);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect((await api('GET', `/broadcasts/${created.body.id}`)).body).toMatchObject({ status: 'closed', errored_reason: null });
  });
});
