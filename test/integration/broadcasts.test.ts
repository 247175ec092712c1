// Broadcasts through the gateway: every 422, roles, team expansion without repeats, both channel modes, the status
// timeline (send, deadline), answers (last one wins, refused after the close, 403 for non-recipients), the counts
// under 50 concurrent answers, comments and delete. On a stack of this file's own whose every channel has a (test)
// provider: a broadcast none of whose messages is delivered ends errored (broadcasts-delivery.test.ts), and the
// shared stack has no provider at all. docs/broadcasts.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '#lib/auth/api-keys.ts';
import { broadcastMessageActions } from '#lib/broadcasts/message-owner.ts';
import { findBroadcast } from '#lib/broadcasts/service.ts';
import type { ChannelAdapter, DeliveryChannel } from '#lib/channel-adapters/port.ts';
import { addAccountUser, errorMessages, newAccount, request, type Reply, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

interface Option {
  id: string;
  value: string;
  position: number;
  broadcast_responses_count: number;
}
interface Broadcast {
  id: string;
  prefix_id: string;
  status: 'queued' | 'open' | 'closed' | 'errored';
  destination_team_ids: string[];
  destination_account_user_ids: string[];
  broadcast_response_options: Option[];
  broadcast_responses: { id: string; prefix_id: string; account_user_id: string; broadcast_response_option_id: string; channel: string; created_at: string }[];
  sent_at: string | null;
  closed_at: string | null;
  recipients_count: number;
  reached_count: number;
}
interface NotificationRecord {
  outbox_id: string | null;
  account_user_id: string;
  channel: string | null;
  status: string;
  notification_type: string;
  broadcast_id: string;
  reason: string | null;
}

let acme: TestAccount;
let stack: OwnStack;
let people = 0;

/** A provider that takes every message. */
const delivering = (channel: DeliveryChannel): ChannelAdapter => ({ channel, provider: 'test', send: async (message) => ({ status: 'sent', providerMessageId: `pm-${message.notificationId}` }) });
/** Requests to this file's stack (paths, and links' paths, as given). */
const call = (method: string, path: string, options: Parameters<typeof request>[2] = {}) => request(method, path, { ...options, base: stack.baseUrl });

/** An account user with an API key of their own (issued straight into the test stack's table). */
async function personWithKey(account: TestAccount, attributes: Record<string, unknown> = {}, roles: Record<string, boolean> = {}) {
  people += 1;
  const reply = await account.api('POST', '/account_users', {
    roles,
    user_attributes: { name: `Recipient ${people}`, emails_attributes: [{ email: `rcpt-${process.pid}-${Date.now()}-${people}@example.test`, primary: true }], ...attributes },
  });
  if (reply.status !== 201) throw new Error(`account user: ${reply.status} ${reply.text}`);
  const { key } = await issueApiKey({ accountId: account.accountId, accountUserId: reply.body.id, userId: reply.body.user_id, name: 'test' });
  return { id: reply.body.id as string, key, api: <T = any>(method: string, path: string, body?: unknown) => request<T>(method, `/api/v4${path}`, { key, body, base: stack.baseUrl }) };
}

async function create(account: TestAccount, body: Record<string, unknown>): Promise<Broadcast> {
  const reply = await account.api<Broadcast>('POST', '/broadcasts', body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

/** Polls until the broadcast leaves `from` (the send and the deadline are timers fired by the local poller). */
async function statusAfter(account: TestAccount, id: string, from: Broadcast['status']): Promise<Broadcast> {
  for (let i = 0; i < 200; i++) {
    const reply = await account.api<Broadcast>('GET', `/broadcasts/${id}`);
    if (reply.body.status !== from) return reply.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`broadcast ${id} stayed ${from}`);
}

/**
 * The broadcast's records, each `queued` one as the send wrote it: delivery may already have sent it on (`sent`); a
 * record with an outbox message was queued.
 */
async function notificationsOf(account: TestAccount, id: string): Promise<NotificationRecord[]> {
  const reply = await account.api<{ data: NotificationRecord[] }>('GET', `/broadcasts/${id}/notifications?limit=100`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data.map((r) => (r.outbox_id !== null ? { ...r, status: 'queued' } : r));
}

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const sorted = (rows: (string | null)[][]) => rows.map((r) => r.join(' ')).sort();

beforeAll(async () => {
  stack = await startOwnStack('broadcasts-api', Object.fromEntries((['push', 'email', 'sms', 'slack', 'whatsapp'] as const).map((c) => [c, delivering(c)])));
  acme = await newAccount('Broadcasts', stack);
});

afterAll(async () => {
  await stack?.stop();
});

describe('creating a broadcast', () => {
  it('answers 422 naming every problem, and writes nothing', async () => {
    const before = (await acme.api('GET', '/broadcasts')).body.total_count;
    const cases: [Record<string, unknown>, string[]][] = [
      [{ destination_account_user_ids: [acme.adminAccountUserId] }, ['title is required']],
      [{ title: 'No one' }, ['destination_team_ids or destination_account_user_ids must name at least one destination']],
      [{ title: 'Empty lists', destination_team_ids: [], destination_account_user_ids: [] }, ['destination_team_ids or destination_account_user_ids must name at least one destination']],
      [
        { title: 'Unknown', destination_team_ids: ['tem_nothere12345'], destination_account_user_ids: ['usr_nothere12345'] },
        ['destination_account_user_ids contains unknown account user usr_nothere12345', 'destination_team_ids contains unknown team tem_nothere12345'],
      ],
      [
        { title: 'Late', destination_account_user_ids: [acme.adminAccountUserId], response_requested: true, response_requested_by: inSeconds(-60), broadcast_response_options_attributes: [{ value: 'Yes' }] },
        ['response_requested_by must be in the future'],
      ],
      [
        { title: 'No deadline', destination_account_user_ids: [acme.adminAccountUserId], response_requested: true, broadcast_response_options_attributes: [{ value: 'Yes' }] },
        ['response_requested_by is required when response_requested is true'],
      ],
      [
        { title: 'No options', destination_account_user_ids: [acme.adminAccountUserId], response_requested: true, response_requested_by: inSeconds(600) },
        ['broadcast_response_options_attributes must hold at least one option when response_requested is true'],
      ],
      [
        {
          title: 'Twice',
          destination_account_user_ids: [acme.adminAccountUserId],
          response_requested: true,
          response_requested_by: inSeconds(600),
          broadcast_response_options_attributes: [{ value: 'Yes' }, { value: 'No' }, { value: ' yES ' }],
        },
        ['broadcast_response_options_attributes contains the value "Yes" more than once (values are compared ignoring case)'],
      ],
      [{ title: 'Call', destination_account_user_ids: [acme.adminAccountUserId], notify_voice: true }, ['notify_voice is not available: broadcasts are never sent by voice call']],
      [
        { title: 'Nothing flagged', destination_account_user_ids: [acme.adminAccountUserId], select_specific_channels: true },
        ['select_specific_channels needs at least one of notify_push, notify_email, notify_sms, notify_slack, notify_whatsapp set to true'],
      ],
      [{ title: 'Bad deadline', destination_account_user_ids: [acme.adminAccountUserId], response_requested_by: 'tomorrow' }, ['response_requested_by must be an ISO 8601 date and time, e.g. 2030-01-01T18:00:00Z']],
      [{ title: 'Bad option', destination_account_user_ids: [acme.adminAccountUserId], broadcast_response_options_attributes: [{ value: '' }] }, ["broadcast_response_options_attributes[0].value can't be blank"]],
    ];
    for (const [body, messages] of cases) {
      const reply = await acme.api('POST', '/broadcasts', body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(errorMessages(reply)).toEqual(messages);
    }
    expect((await acme.api('GET', '/broadcasts')).body.total_count).toBe(before);
  });

  it('lets admins and broadcasters create; members read but get 403 on changes', async () => {
    const member = await personWithKey(acme);
    const broadcaster = await personWithKey(acme, {}, { broadcaster: true });
    const refused = await member.api('POST', '/broadcasts', { title: 'Hi', destination_account_user_ids: [member.id] });
    expect(refused.status).toBe(403);
    expect(errorMessages(refused)).toEqual(['Only account admins and broadcasters can send, change or delete broadcasts']);
    const made = await broadcaster.api<Broadcast>('POST', '/broadcasts', { title: 'From a broadcaster', destination_account_user_ids: [member.id] });
    expect(made.status, made.text).toBe(201);
    expect(made.body.prefix_id).toMatch(/^brd_/);
    expect((await member.api('GET', `/broadcasts/${made.body.prefix_id}`)).body.id).toBe(made.body.id);
    expect((await member.api('PUT', `/broadcasts/${made.body.id}`, { title: 'x' })).status).toBe(403);
    expect((await member.api('DELETE', `/broadcasts/${made.body.id}`)).status).toBe(403);
  });

  it('keeps options in the order given, with positions and zero counts; PUT changes words only', async () => {
    const b = await create(acme, {
      title: 'Standby tonight?',
      description: 'Database maintenance 22:00-23:00',
      tag_list: ['db', 'db', 'maintenance'],
      destination_account_user_ids: [acme.adminAccountUserId],
      response_requested: true,
      response_requested_by: inSeconds(3600),
      broadcast_response_options_attributes: [{ value: 'Yes' }, { value: 'No' }, { value: 'Maybe' }],
    });
    expect(b).toMatchObject({ status: 'queued', response_requested: true, tag_list: ['db', 'maintenance'], broadcast_responses: [] });
    expect(b.broadcast_response_options.map((o) => [o.value, o.position, o.broadcast_responses_count])).toEqual([
      ['Yes', 1, 0],
      ['No', 2, 0],
      ['Maybe', 3, 0],
    ]);
    const renamed = await acme.api<Broadcast & { title: string }>('PUT', `/broadcasts/${b.id}`, { title: 'Standby tonight (22:00)?' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.title).toBe('Standby tonight (22:00)?');
    const fixed = await acme.api('PUT', `/broadcasts/${b.id}`, { destination_team_ids: [], response_requested_by: inSeconds(10) });
    expect(fixed.status).toBe(422);
    expect(errorMessages(fixed)).toEqual([
      'destination_team_ids cannot be changed: a broadcast is sent as it was created',
      'response_requested_by cannot be changed: a broadcast is sent as it was created',
    ]);
  });
});

describe('sending', () => {
  it('expands teams to members and admins at send time, one message per person and channel, then closes when no answer is asked', async () => {
    const [ann, bob, cat] = await Promise.all([addAccountUser(acme), addAccountUser(acme), addAccountUser(acme)]);
    const one = await acme.api('POST', '/teams', { name: 'Team one', member_account_user_ids: [ann.id, bob.id], admin_account_user_ids: [cat.id] });
    const two = await acme.api('POST', '/teams', { name: 'Team two', member_account_user_ids: [bob.id], admin_account_user_ids: [ann.id] });
    const b = await create(acme, { title: 'All hands at 15:00', destination_team_ids: [one.body.id, two.body.prefix_id], destination_account_user_ids: [ann.id] });
    expect(b.destination_team_ids).toEqual([one.body.id, two.body.id]);
    const sent = await statusAfter(acme, b.id, 'queued');
    expect(sent).toMatchObject({ status: 'closed', recipients_count: 3, reached_count: 3 });
    expect(sent.sent_at).not.toBeNull();
    expect(sent.closed_at).toBe(sent.sent_at);
    const records = await notificationsOf(acme, b.id);
    // Defaults of a new person: push and email.
    expect(sorted(records.map((r) => [r.account_user_id, r.channel, r.status, r.notification_type]))).toEqual(
      sorted([ann.id, bob.id, cat.id].flatMap((id) => [[id, 'push', 'queued', 'broadcast.sent'], [id, 'email', 'queued', 'broadcast.sent']])),
    );
    expect(records.every((r) => r.broadcast_id === b.id)).toBe(true);
  });

  it('select_specific_channels sends exactly the flagged channels, whatever people prefer', async () => {
    const withPhone = await personWithKey(acme, { notify_push: false, notify_email: false, phones_attributes: [{ phone: '+81 90 1234 5601' }] });
    const noPhone = await personWithKey(acme);
    const b = await create(acme, { title: 'Flagged', destination_account_user_ids: [withPhone.id, noPhone.id], select_specific_channels: true, notify_sms: true, notify_email: true });
    expect(await statusAfter(acme, b.id, 'queued')).toMatchObject({ status: 'closed', reached_count: 2 });
    const records = await notificationsOf(acme, b.id);
    expect(sorted(records.map((r) => [r.account_user_id, r.channel, r.status]))).toEqual(
      sorted([
        [withPhone.id, 'sms', 'queued'],
        [withPhone.id, 'email', 'queued'],
        [noPhone.id, 'sms', 'failed'],
        [noPhone.id, 'email', 'queued'],
      ]),
    );
  });

  it('otherwise uses each person\'s notification rule for broadcast.sent or their defaults, never voice', async () => {
    const rule = await acme.api('POST', '/notification_rules', {
      name: 'Broadcasts by SMS',
      rules: 'rules:\n- match: {always: true}\n  types: [broadcast.sent]\n  actions: [{type: notify, channels: [sms, voice]}]\n',
    });
    expect(rule.status, rule.text).toBe(201);
    const quiet = await acme.api('POST', '/notification_rules', { name: 'No broadcasts', rules: 'rules:\n- match: {always: true}\n  types: [broadcast.sent]\n  actions: [{type: ignore}]\n' });
    expect(quiet.status, quiet.text).toBe(201);
    const ruled = await personWithKey(acme, { phones_attributes: [{ phone: '+81 90 1234 5602' }] });
    const ignoring = await personWithKey(acme);
    const caller = await personWithKey(acme, { notify_push: false, notify_email: true, notify_voice: true, phones_attributes: [{ phone: '+81 90 1234 5603' }] });
    await acme.api('PUT', `/account_users/${ruled.id}`, { notification_rule_id: rule.body.id });
    await acme.api('PUT', `/account_users/${ignoring.id}`, { notification_rule_id: quiet.body.id });
    const b = await create(acme, { title: 'Preferred', destination_account_user_ids: [ruled.id, ignoring.id, caller.id] });
    expect(await statusAfter(acme, b.id, 'queued')).toMatchObject({ status: 'closed', recipients_count: 3, reached_count: 2 });
    expect(sorted((await notificationsOf(acme, b.id)).map((r) => [r.account_user_id, r.channel, r.status]))).toEqual(
      sorted([
        [ruled.id, 'sms', 'queued'],
        [ignoring.id, null, 'suppressed'],
        [caller.id, 'email', 'queued'],
      ]),
    );
  });

  it('is errored when nobody could be reached on any channel, or there is nobody to reach, with the reason', async () => {
    const noPhone = await personWithKey(acme);
    const b = await create(acme, { title: 'SMS only', destination_account_user_ids: [noPhone.id], select_specific_channels: true, notify_sms: true, response_requested: true, response_requested_by: inSeconds(600), broadcast_response_options_attributes: [{ value: 'OK' }] });
    expect(await statusAfter(acme, b.id, 'queued')).toMatchObject({
      status: 'errored',
      recipients_count: 1,
      reached_count: 0,
      errored_reason: 'No message could be delivered to its one recipient: 1 message failed (the person has no usable phone number)',
    });
    expect((await notificationsOf(acme, b.id)).map((r) => [r.channel, r.status, r.reason])).toEqual([['sms', 'failed', 'the person has no usable phone number']]);
    const answer = await noPhone.api('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: b.broadcast_response_options[0]!.id });
    expect(answer.status).toBe(422);
    expect(errorMessages(answer)).toEqual(['This broadcast is errored; answers are no longer taken']);
    // A team with nobody in it: nobody to send to.
    const empty = await acme.api('POST', '/teams', { name: 'Nobody here' });
    const none = await create(acme, { title: 'To nobody', destination_team_ids: [empty.body.id] });
    expect(await statusAfter(acme, none.id, 'queued')).toMatchObject({
      status: 'errored',
      recipients_count: 0,
      errored_reason: 'Nobody to send to: the destination teams have no members or admins',
    });
  });
});

describe('answers', () => {
  it('take the last answer of each person, refuse non-recipients, and stop at the deadline', async () => {
    const [ann, bob, outsider] = await Promise.all([personWithKey(acme), personWithKey(acme), personWithKey(acme)]);
    const b = await create(acme, {
      title: 'Who can cover Saturday?',
      destination_account_user_ids: [ann.id, bob.id],
      response_requested: true,
      response_requested_by: inSeconds(4),
      broadcast_response_options_attributes: [{ value: 'Me' }, { value: 'Not me' }],
    });
    const [me, notMe] = b.broadcast_response_options.map((o) => o.id) as [string, string];
    // Before it opens an answer is refused and kept nowhere. The send may win the race (the broadcast is sent at
    // once): then the answer must have met an open broadcast and be kept. Either way the branch taken is checked.
    const early = await ann.api<Broadcast>('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: me });
    const afterEarly = (await acme.api<Broadcast>('GET', `/broadcasts/${b.id}`)).body;
    if (early.status === 200) {
      expect(early.body.status).toBe('open');
      expect(afterEarly.broadcast_responses.map((r) => [r.account_user_id, r.broadcast_response_option_id])).toEqual([[ann.id, me]]);
    } else {
      expect(early.status).toBe(422);
      expect(errorMessages(early)).toEqual(['This broadcast has not been sent yet; answers are taken once it is open']);
      expect(afterEarly.broadcast_responses).toEqual([]);
    }
    const open = await statusAfter(acme, b.id, 'queued');
    expect(open.status).toBe('open');

    const first = await ann.api<Broadcast>('POST', `/broadcasts/${b.prefix_id}/responses`, { broadcast_response_option_id: me });
    expect(first.status, first.text).toBe(200);
    const changed = await ann.api<Broadcast>('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: notMe });
    const bobs = await bob.api<Broadcast>('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: notMe });
    expect(changed.status).toBe(200);
    expect(bobs.status).toBe(200);
    const now = (await acme.api<Broadcast>('GET', `/broadcasts/${b.id}`)).body;
    expect(now.broadcast_response_options.map((o) => [o.value, o.broadcast_responses_count])).toEqual([
      ['Me', 0],
      ['Not me', 2],
    ]);
    expect(now.broadcast_responses.map((r) => [r.account_user_id, r.broadcast_response_option_id, r.channel])).toEqual([
      [ann.id, notMe, 'api'],
      [bob.id, notMe, 'api'],
    ]);
    expect(now.broadcast_responses[0]!.prefix_id).toMatch(/^brr_/);

    const stranger = await outsider.api('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: me });
    expect(stranger.status).toBe(403);
    expect(errorMessages(stranger)).toEqual(['Only the people this broadcast was sent to can answer it']);
    const unknown = await ann.api('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: 'nope' });
    expect(unknown.status).toBe(422);
    expect(errorMessages(unknown)).toEqual(['broadcast_response_option_id nope is not an option of this broadcast']);
    const missing = await ann.api('POST', `/broadcasts/${b.id}/responses`, {});
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)[0]).toMatch(/^broadcast_response_option_id /);

    const closed = await statusAfter(acme, b.id, 'open');
    expect(closed.status).toBe('closed');
    expect(closed.closed_at).not.toBeNull();
    const late = await bob.api('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: me });
    expect(late.status).toBe(422);
    expect(errorMessages(late)).toEqual(['This broadcast is closed; answers are no longer taken']);
    const after = (await acme.api<Broadcast>('GET', `/broadcasts/${b.id}`)).body;
    expect(after.broadcast_response_options.map((o) => o.broadcast_responses_count)).toEqual([0, 2]);
  });

  it('are taken by the signed link of each option: the page asks, the form answers with the message\'s channel', async () => {
    const [ann, outsider] = await Promise.all([personWithKey(acme), personWithKey(acme)]);
    const b = await create(acme, {
      title: 'Standby <tonight>?',
      destination_account_user_ids: [ann.id],
      response_requested: true,
      response_requested_by: inSeconds(3600),
      broadcast_response_options_attributes: [{ value: 'Yes' }, { value: 'No' }],
    });
    await statusAfter(acme, b.id, 'queued');
    const stored = (await findBroadcast(acme.accountId, b.id))!;
    const signing = { keys: { current: stack.linkSecret }, baseUrl: stack.baseUrl };
    const links = broadcastMessageActions(stored, ann.id, 'email', Date.now(), signing);
    expect(links.map((l) => [l.action, l.label])).toEqual(b.broadcast_response_options.map((o) => [o.id, o.value]));
    const path = (label: string, list = links) => new URL(list.find((l) => l.label === label)!.url).pathname;

    const confirm = await call('GET', path('Yes'));
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Answer &quot;Yes&quot; to the broadcast &quot;Standby &lt;tonight&gt;?&quot;?');
    expect((await acme.api<Broadcast>('GET', `/broadcasts/${b.id}`)).body.broadcast_responses).toEqual([]);

    const yes = await call('POST', path('Yes'));
    expect(yes.status).toBe(200);
    expect(yes.text).toContain('Your answer &quot;Yes&quot; is recorded.');
    const no = await call('POST', path('No'));
    expect(no.status).toBe(200);
    const after = (await acme.api<Broadcast>('GET', `/broadcasts/${b.id}`)).body;
    expect(after.broadcast_responses.map((r) => [r.account_user_id, r.broadcast_response_option_id, r.channel])).toEqual([[ann.id, b.broadcast_response_options[1]!.id, 'email']]);
    expect(after.broadcast_response_options.map((o) => o.broadcast_responses_count)).toEqual([0, 1]);

    const foreign = broadcastMessageActions(stored, outsider.id, 'sms', Date.now(), signing);
    const refused = await call('POST', path('Yes', foreign));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only the people this broadcast was sent to can answer it.');
  });

  it('keep every option count equal to the answers under 50 concurrent answers, twice over', async () => {
    const crowd = await Promise.all(Array.from({ length: 50 }, () => personWithKey(acme)));
    const b = await create(acme, {
      title: 'Pizza?',
      destination_account_user_ids: crowd.map((p) => p.id),
      response_requested: true,
      response_requested_by: inSeconds(3600),
      broadcast_response_options_attributes: [{ value: 'Margherita' }, { value: 'Funghi' }, { value: 'None' }],
    });
    expect(await statusAfter(acme, b.id, 'queued')).toMatchObject({ status: 'open', recipients_count: 50 });
    const options = b.broadcast_response_options.map((o) => o.id);
    for (const round of [0, 1]) {
      const chosen = crowd.map((_, i) => options[(i + round) % options.length]!);
      const replies: Reply[] = await Promise.all(crowd.map((p, i) => p.api('POST', `/broadcasts/${b.id}/responses`, { broadcast_response_option_id: chosen[i] })));
      expect(replies.map((r) => r.status)).toEqual(crowd.map(() => 200));
      const seen = (await acme.api<Broadcast>('GET', `/broadcasts/${b.id}`)).body;
      expect(seen.broadcast_responses).toHaveLength(50);
      expect(Object.fromEntries(seen.broadcast_responses.map((r) => [r.account_user_id, r.broadcast_response_option_id]))).toEqual(
        Object.fromEntries(crowd.map((p, i) => [p.id, chosen[i]])),
      );
      expect(seen.broadcast_response_options.map((o) => o.broadcast_responses_count)).toEqual(options.map((id) => chosen.filter((c) => c === id).length));
    }
  }, 120_000);
});

describe('comments and delete', () => {
  it('comments through the comments group; delete removes the broadcast, its records and its comments', async () => {
    const b = await create(acme, { title: 'Bye', destination_account_user_ids: [acme.adminAccountUserId] });
    await statusAfter(acme, b.id, 'queued');
    const comment = await acme.api('POST', `/broadcasts/${b.prefix_id}/comments`, { body: 'I will be on the bridge' });
    expect(comment.status, comment.text).toBe(201);
    expect(comment.body).toMatchObject({ commentable_type: 'Broadcast', commentable_id: b.id });
    expect((await acme.api('GET', `/broadcasts/${b.id}/comments`)).body.data).toHaveLength(1);
    const reply = await acme.api('POST', `/comments/${comment.body.id}/comments`, { body: 'Joining too' });
    expect(reply.status, reply.text).toBe(201);
    expect(await notificationsOf(acme, b.id)).not.toHaveLength(0);

    expect((await acme.api('DELETE', `/broadcasts/${b.id}`)).status).toBe(204);
    expect((await acme.api('GET', `/broadcasts/${b.id}`)).status).toBe(404);
    expect((await acme.api('GET', `/broadcasts/${b.id}/notifications`)).status).toBe(404);
    expect((await acme.api('GET', `/comments/${comment.body.id}`)).status).toBe(404);
    // Replies to its comments go with them.
    expect((await acme.api('GET', `/comments/${reply.body.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/broadcasts/${b.id}`)).status).toBe(404);
  });

  it('lists newest first with the list envelope, options and answers included', async () => {
    const account = await newAccount('Broadcast list', stack);
    const made: Broadcast[] = [];
    for (const title of ['first', 'second', 'third']) made.push(await create(account, { title, destination_account_user_ids: [account.adminAccountUserId] }));
    const list = await account.api<{ data: (Broadcast & { title: string })[]; has_more: boolean; total_count: number }>('GET', '/broadcasts?limit=2');
    expect(list.status).toBe(200);
    expect(list.body.data.map((b) => b.title)).toEqual(['third', 'second']);
    expect(list.body).toMatchObject({ total_count: 3, has_more: true });
    expect(list.body.data[0]).toMatchObject({ broadcast_response_options: [], broadcast_responses: [] });
    const found = await account.api<{ data: (Broadcast & { title: string })[] }>('GET', '/broadcasts?q=SECOND');
    expect(found.body.data.map((b) => b.id)).toEqual([made[1]!.id]);
  });
});
