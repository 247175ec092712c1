// Delivery on the real local parts: a gateway, the timers poller and the production timer handlers run in this
// test process (so the channel adapters are test adapters that record what they are handed), on a table and a
// timers queue of their own in the test stack's DynamoDB Local and SQS emulator, with time 60× faster
// (HARK_TIME_SCALE=60: a 5-minute timeout is 5 s, a 30-second retry half a second).
import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import { promisify } from 'node:util';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { queryPrefix } from '#lib/db/items.ts';
import { alertPk } from '#lib/db/keys.ts';
import { reloadConfig } from '#lib/config.ts';
import { ensureTable } from '#lib/local/dynamo.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { startTimersPoller } from '#lib/local/timers.ts';
import type { Poller } from '#lib/local/poller.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import type { ChannelAdapter, DeliveryChannel, OutgoingMessage, SendResult } from '#lib/channel-adapters/port.ts';
import type { TimerItem } from '#lib/timers/index.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.ts';

const run = promisify(execFile);

let server: Server;
let poller: Poller;
let baseUrl: string;
let tableName: string;
let adminKey: string;
let accountId: string;

/** What each test adapter was handed, and the answers it gives in turn (then `sent`). */
const handed: OutgoingMessage[] = [];
const scripted = new Map<string, SendResult[]>();

function recordingAdapter(channel: DeliveryChannel): ChannelAdapter {
  return {
    channel,
    provider: `test-${channel}`,
    send: async (message) => {
      handed.push(message);
      const answer = scripted.get(message.to)?.shift();
      return answer ?? { status: 'sent', providerMessageId: `pm-${message.notificationId}` };
    },
  };
}

async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(`${baseUrl}/api/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

beforeAll(async () => {
  tableName = `delivery-${process.pid}-${Date.now()}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `delivery-timers-${process.pid}-${Date.now()}`, Attributes: { VisibilityTimeout: '1' } }));
  Object.assign(process.env, {
    HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    HARK_TABLE_NAME: tableName,
    HARK_SQS_ENDPOINT: inject('sqsEndpoint'),
    HARK_TIMERS_QUEUE_URL: queue.QueueUrl!,
    HARK_TIME_SCALE: '60',
    AWS_REGION: 'us-east-1',
  });
  useTestAdapters({ email: recordingAdapter('email'), sms: recordingAdapter('sms') });
  server = await startGateway(0);
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  poller = startTimersPoller(queue.QueueUrl!);
  const { stdout } = await run(process.execPath, ['lib/admin/cli.ts', 'create-account', 'Delivery', '--admin-email', `admin-${process.pid}@example.test`, '--json'], {
    env: { ...process.env },
  });
  const created = JSON.parse(stdout.trim().split('\n').pop()!) as { account_id: string; api_key: string };
  adminKey = created.api_key;
  accountId = created.account_id;
});

afterAll(async () => {
  useTestAdapters(undefined);
  await poller?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

let people = 0;
async function person(options: { phone?: string; rule?: string; notify?: Record<string, boolean> } = {}): Promise<{ id: string; email: string }> {
  people += 1;
  const email = `p${people}-${process.pid}@example.test`;
  let notificationRuleId: string | undefined;
  if (options.rule) {
    const rule = await api('POST', '/notification_rules', { name: `Rule ${people}`, rules: options.rule });
    expect(rule.status, rule.text).toBe(201);
    notificationRuleId = rule.body.id;
  }
  const reply = await api('POST', '/account_users', {
    roles: { admin: false },
    ...(notificationRuleId ? { notification_rule_id: notificationRuleId } : {}),
    user_attributes: {
      name: `Person ${people}`,
      emails_attributes: [{ email, primary: true }],
      ...(options.phone ? { phones_attributes: [{ phone: options.phone, primary: true }] } : {}),
      ...options.notify,
    },
  });
  expect(reply.status, reply.text).toBe(201);
  return { id: reply.body.id, email };
}

async function pageDirectly(accountUserId: string, title: string): Promise<{ id: string; prefix_id: string }> {
  const reply = await api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: [accountUserId] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const notifications = async (alertId: string): Promise<any[]> => (await api('GET', `/alerts/${alertId}/notifications?limit=100`)).body.data;
const logs = async (alertId: string): Promise<any[]> => (await api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data;
const settled = async (alertId: string) => {
  const records = await notifications(alertId);
  expect(records.filter((r) => r.status === 'queued')).toEqual([]);
  return records;
};
const timersOf = (alertId: string) => queryPrefix<TimerItem>(alertPk(accountId, alertId), 'TIMER#');

describe('sending', () => {
  it('sends a page through the channel adapter and records the provider; a channel without a provider is suppressed', async () => {
    const ann = await person();
    const alert = await pageDirectly(ann.id, 'Disk full');
    const records = await vi.waitFor(() => settled(alert.id), { timeout: 20_000, interval: 200 });
    const email = records.find((r) => r.channel === 'email');
    const push = records.find((r) => r.channel === 'push');
    expect(email).toMatchObject({ status: 'sent', provider: 'test-email', provider_message_id: `pm-${email.id}`, attempts: 1, error: null });
    expect(Date.parse(email.sent_at)).toBeGreaterThanOrEqual(Date.parse(email.created_at));
    expect(push).toMatchObject({ status: 'suppressed', reason: 'no push provider is configured: set HARK_NTFY_URL (and a link key, HARK_LINK_SECRET or HARK_NTFY_TOPIC_KEY)', provider: null, sent_at: null });
    const message = handed.find((m) => m.notificationId === email.id)!;
    expect(message).toMatchObject({ channel: 'email', to: ann.email, accountUserId: ann.id, accountId, about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefix_id } });
    expect(message.subject).toContain('Disk full');
    expect(message.text).toContain('You are paged directly.');
    expect(handed.filter((m) => m.notificationId === push.id)).toEqual([]);
    const outboxEmail = (await api('GET', `/outbox/${email.outbox_id}`)).body;
    expect(outboxEmail).toMatchObject({ status: 'sent', sent_at: email.sent_at });
    expect((await api('GET', `/outbox/${push.outbox_id}`)).body).toMatchObject({ status: 'suppressed', sent_at: null });
    expect((await timersOf(alert.id)).filter((t) => t.ownerType === 'delivery' && t.state === 'pending')).toEqual([]);
  });

  it('retries a retryable failure with backoff, then records the send with the attempts it took', async () => {
    const bob = await person({ notify: { notify_push: false } });
    const error = { status: 'failed', retryable: true, error: 'provider answered 503' } as const;
    scripted.set(bob.email, [error, error]);
    const alert = await pageDirectly(bob.id, 'Flaky provider');
    const [record] = await vi.waitFor(() => settled(alert.id), { timeout: 20_000, interval: 200 });
    expect(record).toMatchObject({ channel: 'email', status: 'sent', attempts: 3, error: null, next_attempt_at: null });
    const attempts = handed.filter((m) => m.notificationId === record.id);
    expect(attempts).toHaveLength(3);
    // The waits were 30 s and 2 min, divided by the time scale: the record was sent no earlier than that.
    expect(Date.parse(record.sent_at) - Date.parse(record.created_at)).toBeGreaterThanOrEqual((30_000 + 120_000) / 60);
  });

  it('fails a record on a permanent error and logs it on the alert', async () => {
    const carol = await person({ notify: { notify_push: false } });
    scripted.set(carol.email, [{ status: 'failed', retryable: false, error: '550 mailbox unavailable' }]);
    const alert = await pageDirectly(carol.id, 'Bounce');
    const [record] = await vi.waitFor(() => settled(alert.id), { timeout: 20_000, interval: 200 });
    expect(record).toMatchObject({ status: 'failed', error: '550 mailbox unavailable', reason: '550 mailbox unavailable', attempts: 1, provider: 'test-email' });
    expect((await api('GET', `/outbox/${record.outbox_id}`)).body.status).toBe('failed');
    const entry = (await logs(alert.id)).find((l) => l.message.includes('failed after'));
    expect(entry).toMatchObject({ event: 'notified', account_user_id: carol.id });
    expect(entry.message).toBe(`The email notification (alert.open) to account user ${carol.id} failed after 1 attempt: 550 mailbox unavailable`);
  });
});

describe('the throttle', () => {
  it('holds a burst to one number and sends what waits as one bundle; every record ends sent', { timeout: 90_000 }, async () => {
    const phone = '+4915112345670';
    const ivy = await person({ phone, notify: { notify_push: false, notify_email: false, notify_sms: true } });
    // Seven pages at once: past the per-minute limit (1 s here) and the cap of 5 SMS per 15 minutes (15 s here).
    const alerts = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => pageDirectly(ivy.id, `Burst ${n}`)));
    const records = await vi.waitFor(
      async () => {
        const all = (await Promise.all(alerts.map((a) => settled(a.id)))).flat();
        expect(all.map((r) => r.status)).toEqual(Array(7).fill('sent'));
        return all;
      },
      { timeout: 60_000, interval: 250 },
    );
    const toIvy = handed.filter((m) => m.to === phone);
    // The burst went out as fewer messages than pages: what waited went as one bundle.
    expect(toIvy.length).toBeLessThan(7);
    const bundle = toIvy.find((m) => 'covers' in m) as (OutgoingMessage & { covers: { notificationId: string }[] }) | undefined;
    expect(bundle).toBeDefined();
    expect(bundle!.covers.length).toBeGreaterThanOrEqual(2);
    // The bundle's own record and at least one it covered were recorded sent by that one provider message.
    const byBundle = records.filter((r) => r.provider_message_id === `pm-${bundle!.notificationId}`);
    expect(byBundle.length).toBeGreaterThanOrEqual(2);
    expect(byBundle.every((r) => bundle!.covers.some((c) => c.notificationId === r.id))).toBe(true);
  });
});

const CYCLE_RULE = `rules:
- match: {always: true}
  actions:
  - {type: notify, channels: [email], timeout: 5m}
  - {type: notify, channels: [sms], timeout: 5m}
  - {type: repeat, times: 1}
`;

describe('the notification cycle', () => {
  it('runs notify → timeout → notify → repeat in order, and stops when the alert is acknowledged', { timeout: 90_000 }, async () => {
    const dana = await person({ phone: '+4915112345678', rule: CYCLE_RULE });
    const alert = await pageDirectly(dana.id, 'Cycle');
    const sent = async (count: number) => {
      const records = await settled(alert.id);
      expect(records).toHaveLength(count);
      return records;
    };
    await vi.waitFor(() => sent(3), { timeout: 40_000, interval: 250 });
    const ack = await api('POST', `/alerts/${alert.id}/acknowledge`);
    expect(ack.status, ack.text).toBe(200);
    // The pending cycle timer fires (due 5 s after the third message) and finds the alert acknowledged.
    await vi.waitFor(
      async () => {
        const cycleTimers = (await timersOf(alert.id)).filter((t) => t.kind === 'notification_cycle');
        expect(cycleTimers.length).toBeGreaterThan(0);
        expect(cycleTimers.every((t) => t.state === 'fired')).toBe(true);
      },
      { timeout: 20_000, interval: 250 },
    );
    const all = await settled(alert.id);
    // Dana did not acknowledge herself, so she is told once that someone did (her defaults: the rule is for pages).
    expect(all.filter((r) => r.type === 'alert.acknowledged').map((r) => [r.channel, r.status])).toEqual([
      ['push', 'suppressed'],
      ['email', 'sent'],
    ]);
    const records = all.filter((r) => r.type === 'alert.open');
    expect(records.map((r) => [r.channel, r.status, r.type])).toEqual([
      ['email', 'sent', 'alert.open'],
      ['sms', 'sent', 'alert.open'],
      ['email', 'sent', 'alert.open'],
    ]);
    const times = records.map((r) => Date.parse(r.created_at));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(5_000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(5_000);
    expect(handed.find((m) => m.notificationId === records[1].id)).toMatchObject({ channel: 'sms', to: '+4915112345678' });
    expect(handed.find((m) => m.notificationId === records[2].id)?.text).toContain('Reminder: You are paged directly.');
  });

  it('sends other notification types once, on the first matching rule, never by voice', async () => {
    const rule = `rules:
- types: [alert.dropped]
  match: {always: true}
  actions:
  - {type: notify, channels: [email, voice], timeout: 1m}
  - {type: notify, channels: [sms]}
`;
    const fay = await person({ phone: '+4915112345679', rule });
    const team = await api('POST', '/teams', { name: 'Nobody on call', drop_notifications: 'specific_users', drop_notification_account_user_ids: [fay.id] });
    expect(team.status, team.text).toBe(201);
    const created = await api('POST', '/alerts', { title: 'Unstaffed', urgency: 'high', destination_team_ids: [team.body.id] });
    expect(created.status, created.text).toBe(201);
    const records = await vi.waitFor(
      async () => {
        const all = await settled(created.body.id);
        expect(all.length).toBeGreaterThan(0);
        return all;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(records.map((r) => [r.account_user_id, r.type, r.channel, r.status])).toEqual([[fay.id, 'alert.dropped', 'email', 'sent']]);
    expect((await timersOf(created.body.id)).filter((t) => t.kind === 'notification_cycle')).toEqual([]);
  });
});

describe('a real email, end to end', () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    Object.assign(process.env, { HARK_SMTP_URL: inbox.url, HARK_LINK_SECRET: 'delivery-test-link-secret-0123456789abcdef', HARK_PUBLIC_URL: baseUrl });
    reloadConfig();
    useTestAdapters(undefined);
  });
  afterAll(async () => {
    for (const name of ['HARK_SMTP_URL', 'HARK_LINK_SECRET', 'HARK_PUBLIC_URL']) delete process.env[name];
    reloadConfig();
    await inbox?.close();
  });

  it('a page arrives by SMTP; posting its acknowledge link acknowledges the alert and stops the cycle', { timeout: 60_000 }, async () => {
    const gus = await person({ rule: CYCLE_RULE });
    const alert = await pageDirectly(gus.id, 'Mail me');
    const mail = await inbox.waitFor(gus.email, 20_000);
    expect(mail.subject).toContain('Mail me');
    const link = /Acknowledge: (\S+)/.exec(mail.text ?? '')?.[1];
    expect(link?.startsWith(`${baseUrl}/actions/`)).toBe(true);
    const [record] = await vi.waitFor(() => settled(alert.id), { timeout: 20_000, interval: 200 });
    expect(record).toMatchObject({ channel: 'email', status: 'sent', provider: 'smtp', provider_message_id: mail.messageId });

    const page = await fetch(link!);
    expect(page.status).toBe(200);
    expect((await api('GET', `/alerts/${alert.id}`)).body.status).toBe('open');
    const posted = await fetch(link!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(posted.status).toBe(200);
    expect((await api('GET', `/alerts/${alert.id}`)).body.status).toBe('acknowledged');

    // The cycle's next step (an sms, 5 minutes later) fires and sends nothing.
    await vi.waitFor(
      async () => {
        const cycleTimers = (await timersOf(alert.id)).filter((t) => t.kind === 'notification_cycle');
        expect(cycleTimers.length).toBe(1);
        expect(cycleTimers[0]!.state).toBe('fired');
      },
      { timeout: 20_000, interval: 250 },
    );
    expect((await settled(alert.id)).map((r) => r.channel)).toEqual(['email']);
    expect(inbox.mails.filter((m) => m.to && JSON.stringify(m.to).includes(gus.email))).toHaveLength(1);
  });
});
