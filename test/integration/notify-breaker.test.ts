// A storm paging one person by push and email while their SMTP server goes down and comes back, on the real local
// parts (a gateway, the timers poller and the production timer handlers in this process, a real SMTP server, time
// 60× faster): the provider's breaker opens, the held messages show in the outbox and the alert's timeline, the
// terminal says so, push and the notification cycle keep their time, and once the server answers every page goes out
// once, in order. docs/decisions/0032-provider-breaker.md.
import { execFile } from 'node:child_process';
import { request, type Server } from 'node:http';
import { promisify } from 'node:util';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { inject } from 'vitest';
import { reloadConfig } from '#lib/config.ts';
import { ensureTable } from '#lib/local/dynamo.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { startTimersPoller } from '#lib/local/timers.ts';
import { useTerminal } from '#lib/local/terminal.ts';
import type { Poller } from '#lib/local/poller.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import { smtpEmailAdapter } from '#lib/channel-adapters/email.ts';
import type { ChannelAdapter, OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { forgetBreakers } from '#lib/delivery/breaker.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.ts';

const run = promisify(execFile);

let server: Server;
let poller: Poller;
let baseUrl: string;
let adminKey: string;
let inbox: SmtpInbox;
const lines: string[] = [];
const pushed: OutgoingMessage[] = [];

const pushAdapter: ChannelAdapter = {
  channel: 'push',
  provider: 'test-push',
  send: async (message) => {
    pushed.push(message);
    return { status: 'sent', providerMessageId: `push-${message.notificationId}` };
  },
};

/** One API call on a connection of its own (no keep-alive: a loaded machine must not race an idle connection's close). */
async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/v4${path}`, { method, agent: false, headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as T) : (undefined as T), text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  const tableName = `breaker-${process.pid}-${Date.now()}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `breaker-timers-${process.pid}-${Date.now()}`, Attributes: { VisibilityTimeout: '1' } }));
  inbox = await startSmtpInbox();
  Object.assign(process.env, {
    HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    HARK_TABLE_NAME: tableName,
    HARK_SQS_ENDPOINT: inject('sqsEndpoint'),
    HARK_TIMERS_QUEUE_URL: queue.QueueUrl!,
    HARK_TIME_SCALE: '60',
    HARK_LINK_SECRET: 'breaker-test-link-secret-0123456789abcdef',
    AWS_REGION: 'us-east-1',
  });
  reloadConfig();
  forgetBreakers();
  // The real SMTP adapter (its breaker is keyed by this server) and a push provider that records what it is handed.
  useTestAdapters({ email: smtpEmailAdapter({ url: inbox.url, from: 'alerts@hark.test' }), push: pushAdapter });
  useTerminal('info', { out: (line) => lines.push(line), err: (line) => lines.push(line) });
  server = await startGateway(0);
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  poller = startTimersPoller(queue.QueueUrl!);
  const { stdout } = await run(process.execPath, ['lib/admin/cli.ts', 'create-account', 'Breaker', '--admin-email', `admin-${process.pid}@example.test`, '--json'], { env: { ...process.env } });
  adminKey = (JSON.parse(stdout.trim().split('\n').pop()!) as { api_key: string }).api_key;
});

afterAll(async () => {
  useTestAdapters(undefined);
  await poller?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await inbox?.close();
  for (const name of ['HARK_LINK_SECRET']) delete process.env[name];
  reloadConfig();
});

async function person(name: string, email: string, rules?: string): Promise<string> {
  let notificationRuleId: string | undefined;
  if (rules) {
    const rule = await api('POST', '/notification_rules', { name: `${name}'s rule`, rules });
    expect(rule.status, rule.text).toBe(201);
    notificationRuleId = rule.body.id;
  }
  const reply = await api('POST', '/account_users', {
    roles: { admin: false },
    ...(notificationRuleId ? { notification_rule_id: notificationRuleId } : {}),
    user_attributes: { name, emails_attributes: [{ email, primary: true }], notify_push: true, notify_email: true },
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.id;
}

async function page(accountUserId: string, title: string): Promise<{ id: string; prefix_id: string }> {
  const reply = await api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: [accountUserId] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const notifications = async (alertId: string): Promise<any[]> => (await api('GET', `/alerts/${alertId}/notifications?limit=100`)).body.data;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mailsTo = (email: string) => inbox.mails.filter((m) => JSON.stringify(m.to ?? '').includes(email));
/** The storm's titles a mail names, in the order it names them, each once. */
const titlesIn = (text: string) => [...new Set(text.match(/Storm \d\d/g) ?? [])];

describe('a storm while the SMTP server is down', () => {
  it('holds email behind the breaker, keeps push and the cycle on time, then sends every page once, in order', { timeout: 600_000 }, async () => {
    // What the terminal printed tells why, when this fails.
    onTestFailed(() => console.log(lines.join('\n')));
    const email = `oncall-${process.pid}@example.test`;
    // Push and email at once; one minute later (1 s here) push again: the cycle's second step must keep its time.
    const rule = `rules:
- match: {always: true}
  actions:
  - {type: notify, channels: [push, email], timeout: 1m}
  - {type: notify, channels: [push]}
`;
    const dana = await person('Dana', email, rule);
    const titles = Array.from({ length: 5 }, (_, i) => `Storm ${String(i + 1).padStart(2, '0')}`);
    const alerts: { id: string; prefix_id: string }[] = [];

    // Two pages while the server answers: the first goes alone, what follows within the minute waits for the bundle.
    for (const title of titles.slice(0, 2)) {
      alerts.push(await page(dana, title));
      await sleep(150);
    }
    await vi.waitFor(() => expect(mailsTo(email).length).toBeGreaterThanOrEqual(1), { timeout: 60_000, interval: 100 });

    // The server goes down: the rest of the storm arrives meanwhile.
    await inbox.stop();
    for (const title of titles.slice(2)) {
      alerts.push(await page(dana, title));
      await sleep(150);
    }

    // The breaker opened: the terminal says so, held messages show in the outbox with the reason, and the timeline too.
    await vi.waitFor(() => expect(lines.some((l) => l.includes('WARN Channel provider down: its messages are held') && l.includes('channel=email'))).toBe(true), { timeout: 90_000, interval: 100 });
    const held = await vi.waitFor(
      async () => {
        const reply = await api('GET', '/outbox?status=held&limit=100');
        expect(reply.status).toBe(200);
        expect(reply.body.data.length).toBeGreaterThanOrEqual(1);
        return reply.body.data as any[];
      },
      { timeout: 90_000, interval: 250 },
    );
    for (const message of held) {
      expect(message).toMatchObject({ channel: 'email', status: 'held', to: email });
      expect(message.reason).toMatch(/^email held: provider down since \d{4}-\d\d-\d\dT[\d:.]+Z \(smtp 127\.0\.0\.1:\d+: SMTP /);
    }
    // The alert's timeline says why Dana was not reached by email.
    await vi.waitFor(
      async () => {
        const entries = (await Promise.all(alerts.slice(2).map(async (a) => (await api('GET', `/alerts/${a.id}/logs?limit=100`)).body.data as any[]))).flat();
        expect(entries.some((l) => l.event === 'notified' && l.message.includes('email held: provider down since'))).toBe(true);
      },
      { timeout: 90_000, interval: 250 },
    );
    const lastAlert = alerts[alerts.length - 1]!;
    // While email is down, push went out for every page, and the cycle's second step (1 s later here) came on time.
    await vi.waitFor(() => expect(new Set(pushed.map((m) => m.about.ownerId)).size).toBe(titles.length), { timeout: 90_000, interval: 100 });
    await vi.waitFor(
      async () => {
        const records = await notifications(lastAlert.id);
        expect(records.filter((r) => r.channel === 'push' && r.status === 'sent')).toHaveLength(2);
      },
      { timeout: 90_000, interval: 250 },
    );
    const mailedBefore = mailsTo(email).length;

    // The server comes back: at the next probe (at most 30 s later, 0.5 s here) every held page goes out.
    await inbox.start();
    await vi.waitFor(
      async () => {
        const records = (await Promise.all(alerts.map((a) => notifications(a.id)))).flat().filter((r) => r.channel === 'email');
        expect(records.map((r) => r.status)).toEqual(Array(titles.length).fill('sent'));
      },
      { timeout: 120_000, interval: 250 },
    );
    await vi.waitFor(() => expect(lines.some((l) => l.includes('WARN Channel provider answers again: its held messages are sent'))).toBe(true), { timeout: 10_000, interval: 100 });
    expect(mailsTo(email).length).toBeGreaterThan(mailedBefore);

    // Every page reached the inbox exactly once, in the order it was paged (a bundle lists oldest first).
    await sleep(2_000);
    const named = mailsTo(email).flatMap((mail) => titlesIn(`${mail.subject ?? ''}\n${mail.text ?? ''}`));
    expect(named).toEqual(titles);
    expect((await api('GET', '/outbox?status=held&limit=100')).body.data).toEqual([]);
    // The pages only: the person's welcome mail ("Your Hark login") is not a page.
    const outbox = (await api('GET', '/outbox?limit=100')).body.data.filter((m: any) => m.channel === 'email' && m.to === email && /Storm \d\d/.test(m.subject));
    expect(outbox.map((m: any) => [m.status, m.reason])).toEqual(Array(titles.length).fill(['sent', null]));
  });
});
