// What a page writes and what its delivery reads (docs/decisions/0023-what-a-page-writes.md), on the real local
// parts: pages are made through the gateway, and their delivery timers are fired here, one by one, through the
// production firing (fireStoredTimer → onDeliveryTimer), with every DynamoDB call of the firing counted. No timers
// poller runs, so nothing fires behind the test's back; the channel adapters are test adapters.
import type { Server } from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { documentClient } from '#lib/db/client.ts';
import { getItem, queryPrefix, transact } from '#lib/db/items.ts';
import { alertPk } from '#lib/db/keys.ts';
import { ensureTable } from '#lib/local/dynamo.ts';
import { request } from './helpers.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import type { ChannelAdapter, DeliveryChannel, OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { onDeliveryTimer, type MessagePayload, type MessageSend, type SendPayload } from '#lib/delivery/sender.ts';
import { fireStoredTimer } from '#lib/timers/fire.ts';
import type { TimerItem } from '#lib/timers/index.ts';
import { DELIVERY_OWNERS } from '#lib/wiring/delivery-owners.ts';
import type { DeliveryOwners } from '#lib/delivery/port.ts';

const run = promisify(execFile);

let server: Server;
let baseUrl: string;
let adminKey: string;
let accountId: string;

const handed: OutgoingMessage[] = [];
/** Channels whose provider answers a retryable failure while listed. */
const failing = new Set<DeliveryChannel>();
const recordingAdapter = (channel: DeliveryChannel): ChannelAdapter => ({
  channel,
  provider: `test-${channel}`,
  send: async (message) => {
    handed.push(message);
    if (failing.has(channel)) return { status: 'failed', retryable: true, error: 'provider down' };
    return { status: 'sent', providerMessageId: `pm-${message.notificationId}` };
  },
});

/** Every DynamoDB command sent while `recording` is set: its name and the sort key it names (for counters). */
let recording: { command: string; sk: string }[] | undefined;

const api = <T = any>(method: string, path: string, body?: unknown) => request<T>(method, `/api/v4${path}`, { key: adminKey, body, base: baseUrl });

beforeAll(async () => {
  const tableName = `page-writes-${process.pid}-${Date.now()}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  // Wake-ups go to a queue nobody polls: the test fires each timer itself.
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `page-writes-${process.pid}-${Date.now()}` }));
  Object.assign(process.env, {
    HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    HARK_TABLE_NAME: tableName,
    HARK_SQS_ENDPOINT: inject('sqsEndpoint'),
    HARK_TIMERS_QUEUE_URL: queue.QueueUrl!,
    AWS_REGION: 'us-east-1',
  });
  // Push is not throttled, email is (one a minute per address): the two paths of the sender.
  useTestAdapters({ push: recordingAdapter('push'), email: recordingAdapter('email') });
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      // A key reaches this step marshalled (`{ S: … }`) or not, depending on the command.
      const sk = (args.input as { Key?: { sk?: string | { S?: string } } }).Key?.sk;
      recording?.push({ command: context.commandName ?? '?', sk: (typeof sk === 'string' ? sk : sk?.S) ?? '' });
      return next(args);
    },
    { step: 'initialize', name: 'pageWritesRecorder' },
  );
  server = await startGateway(0);
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const { stdout } = await run(process.execPath, ['lib/admin/cli.ts', 'create-account', 'Page writes', '--admin-email', `admin-${process.pid}@example.test`, '--json'], { env: { ...process.env } });
  const created = JSON.parse(stdout.trim().split('\n').pop()!) as { account_id: string; api_key: string };
  adminKey = created.api_key;
  accountId = created.account_id;
});

afterAll(async () => {
  useTestAdapters(undefined);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

let people = 0;
async function person(notify: Record<string, boolean>): Promise<{ id: string; email: string }> {
  people += 1;
  const email = `pw${people}-${process.pid}@example.test`;
  const reply = await api('POST', '/account_users', { roles: { admin: false }, user_attributes: { name: `Paged ${people}`, emails_attributes: [{ email, primary: true }], ...notify } });
  expect(reply.status, reply.text).toBe(201);
  return { id: reply.body.id, email };
}

async function page(ids: string[], title: string): Promise<{ id: string; prefix_id: string }> {
  const reply = await api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: ids });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const pendingDeliveries = async (alertId: string) =>
  (await queryPrefix<TimerItem>(alertPk(accountId, alertId), 'TIMER#')).filter((t) => t.ownerType === 'delivery' && t.state === 'pending');
const records = async (alertId: string): Promise<any[]> => (await api('GET', `/alerts/${alertId}/notifications?limit=100`)).body.data;

/** Rewrites a message timer of one record as a one-record timer (an older timer, a retry, a held record's). */
async function asSingleRecordTimer(timer: TimerItem, payloadOf: (send: MessageSend, about: MessagePayload['about']) => SendPayload): Promise<void> {
  const { sends, about } = timer.payload as unknown as MessagePayload;
  expect(sends).toHaveLength(1);
  await transact([{ Update: { Key: { pk: timer.pk, sk: timer.sk }, UpdateExpression: 'SET payload = :p', ExpressionAttributeValues: { ':p': payloadOf(sends[0]!, about) } } }]);
}

/** Fires one stored delivery timer through the production firing and answers the DynamoDB commands it sent. */
async function fire(timer: TimerItem, owners: DeliveryOwners = DELIVERY_OWNERS, at?: number): Promise<string[]> {
  recording = [];
  try {
    await fireStoredTimer({ pk: timer.pk, sk: timer.sk }, { delivery: (t, now) => onDeliveryTimer(owners, t, now) }, at);
    // The provider's breaker is read through a one-second cache per process (docs/decisions/0032-provider-breaker.md):
    // at most one read a firing, counted apart so the calls below are the firing's own whether the cache was warm or not.
    const breakerReads = recording.filter((c) => c.sk === 'BREAKER');
    expect(breakerReads.map((c) => c.command).every((c) => c === 'GetItemCommand')).toBe(true);
    expect(breakerReads.length).toBeLessThanOrEqual(2);
    return recording.filter((c) => c.sk !== 'BREAKER').map((c) => c.command);
  } finally {
    recording = undefined;
  }
}

describe('what a page writes', () => {
  it('takes the tiny ids of every outbox message of a step with one counter update (5 people on two channels)', async () => {
    const five = await Promise.all(Array.from({ length: 5 }, () => person({ notify_push: true, notify_email: true })));
    recording = [];
    const alert = await page(five.map((p) => p.id), 'Five at once');
    const outboxCounterCalls = recording.filter((c) => c.sk === 'COUNTER#OUTBOX').map((c) => c.command);
    recording = undefined;
    expect(outboxCounterCalls).toEqual(['UpdateItemCommand']);
    const queued = (await records(alert.id)).filter((r) => r.status === 'queued');
    expect(queued).toHaveLength(10);
    const tinyIds = await Promise.all(queued.map(async (r) => (await api('GET', `/outbox/${r.outbox_id}`)).body.tiny_id as number));
    // Ten distinct tiny ids from one block: consecutive.
    const sorted = [...tinyIds].sort((a, b) => a - b);
    expect(new Set(sorted).size).toBe(10);
    expect(sorted.at(-1)! - sorted[0]!).toBe(9);
  });

  it('stores the message in the delivery timer, so the outbox message and the record are not read to send it', async () => {
    const ann = await person({ notify_push: true, notify_email: false });
    const alert = await page([ann.id], 'Carried');
    const [timer] = await pendingDeliveries(alert.id);
    const payload = timer!.payload as unknown as MessagePayload;
    const [record] = await records(alert.id);
    expect(payload).toMatchObject({ about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefix_id }, sends: [{ record_sk: `NOTIF#${record.id}`, attempts: 0 }] });
    const message = payload.sends[0]!.message;
    expect(message).toMatchObject({ notification_id: record.id, channel: 'push', to: ann.id, outbox_id: record.outbox_id, title: 'Carried', notification_type: 'alert.open' });
    const outbox = (await api('GET', `/outbox/${record.outbox_id}`)).body;
    expect(message).toMatchObject({ subject: outbox.subject, text: outbox.body });
  });

  it('writes ONE delivery timer for every channel of a message (two people on two channels: two timers)', async () => {
    const two = await Promise.all([person({ notify_push: true, notify_email: true }), person({ notify_push: true, notify_email: true })]);
    const alert = await page(two.map((p) => p.id), 'One timer each');
    const timers = await pendingDeliveries(alert.id);
    expect(timers).toHaveLength(2);
    const queued = (await records(alert.id)).filter((r) => r.status === 'queued');
    expect(queued).toHaveLength(4);
    for (const timer of timers) {
      const { sends } = timer.payload as unknown as MessagePayload;
      expect(sends.map((send) => send.message.channel).sort()).toEqual(['email', 'push']);
      // Both channels of one person.
      expect(new Set(sends.map((send) => send.message.account_user_id)).size).toBe(1);
    }
  });
});

describe('what a delivery reads', () => {
  it('sends an unthrottled page with two calls: the timer read and one transaction', async () => {
    const bea = await person({ notify_push: true, notify_email: false });
    const alert = await page([bea.id], 'Two calls');
    const [timer] = await pendingDeliveries(alert.id);
    expect(await fire(timer!)).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    const [record] = await records(alert.id);
    expect(record).toMatchObject({ status: 'sent', provider: 'test-push', attempts: 1 });
    expect((await api('GET', `/outbox/${record.outbox_id}`)).body).toMatchObject({ status: 'sent', sent_at: record.sent_at });
    expect(handed.filter((m) => m.notificationId === record.id)).toMatchObject([{ to: bea.id, subject: expect.stringContaining('Two calls') }]);
  });

  it('sends once when the same wake-up comes twice: the second finds the timer fired and writes nothing', async () => {
    const cid = await person({ notify_push: true, notify_email: false });
    const alert = await page([cid.id], 'Twice');
    const [timer] = await pendingDeliveries(alert.id);
    await fire(timer!);
    expect(await fire(timer!)).toEqual(['GetItemCommand']);
    const [record] = await records(alert.id);
    expect(handed.filter((m) => m.notificationId === record.id)).toHaveLength(1);
    expect(record).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('marks the timer fired, changing nothing else, when its record moved on before the commit', async () => {
    const dan = await person({ notify_push: true, notify_email: false });
    const alert = await page([dan.id], 'Moved on');
    const [timer] = await pendingDeliveries(alert.id);
    const [before] = await records(alert.id);
    // Something else recorded it meanwhile (as a throttle bundle does): the firing's conditional commit must not win.
    const key = { pk: alertPk(accountId, alert.id), sk: `NOTIF#${before.id}` };
    await transact([{ Update: { Key: key, UpdateExpression: 'SET #s = :sent, provider = :p', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':sent': 'sent', ':p': 'elsewhere' } } }]);
    await fire(timer!);
    expect(await getItem(key, { consistent: true })).toMatchObject({ status: 'sent', provider: 'elsewhere' });
    expect(await pendingDeliveries(alert.id)).toEqual([]);
    expect((await api('GET', `/outbox/${before.outbox_id}`)).body.status).toBe('queued');
  });

  it('still sends a timer stored before the message rode in it (record key only): record and outbox message read', async () => {
    const eve = await person({ notify_push: true, notify_email: false });
    const alert = await page([eve.id], 'Older timer');
    const [timer] = await pendingDeliveries(alert.id);
    await asSingleRecordTimer(timer!, (send, about) => ({ record_sk: send.record_sk, about }));
    // The timer, the record and the outbox message, then the transaction (the event line then reads the alert's title).
    expect((await fire(timer!)).slice(0, 4)).toEqual(['GetItemCommand', 'GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
    const [record] = await records(alert.id);
    expect(record).toMatchObject({ status: 'sent', provider: 'test-push', attempts: 1 });
    expect(handed.filter((m) => m.notificationId === record.id)).toMatchObject([{ to: eve.id, subject: expect.stringContaining('Older timer') }]);
  });

  it('forgets the waiting item of a throttled message in the transaction that records it (no call after)', async () => {
    const fay = await person({ notify_push: false, notify_email: true });
    const alert = await page([fay.id], 'Throttled');
    const [timer] = await pendingDeliveries(alert.id);
    // Email: the contact's slot (read, reserve with one conditional update, decision 0032), what waits for it (a
    // query), then the one transaction.
    expect(await fire(timer!)).toEqual(['GetItemCommand', 'GetItemCommand', 'UpdateItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
    const [record] = await records(alert.id);
    expect(record).toMatchObject({ status: 'sent', provider: 'test-email' });
  });

  it('reads a held record before taking a slot: one a bundle already sent is not sent again', async () => {
    const hal = await person({ notify_push: false, notify_email: true });
    const alert = await page([hal.id], 'Bundled meanwhile');
    const [timer] = await pendingDeliveries(alert.id);
    const [before] = await records(alert.id);
    // As after a hold: the timer says `held`, and a bundle covering the message recorded it sent.
    await asSingleRecordTimer(timer!, (send, about) => ({ ...send, about, held: true }));
    const key = { pk: alertPk(accountId, alert.id), sk: `NOTIF#${before.id}` };
    await transact([{ Update: { Key: key, UpdateExpression: 'SET #s = :sent, bundled_in = :b', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':sent': 'sent', ':b': 'other' } } }]);
    // The timer, the record, then only the fired marker: no slot taken, nothing handed to the provider.
    expect(await fire(timer!)).toEqual(['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand']);
    expect(handed.filter((m) => m.notificationId === before.id)).toEqual([]);
    expect(await pendingDeliveries(alert.id)).toEqual([]);
  });

  it('removes an alert’s delivery timers before anything else of it, so a deleted alert’s page is not sent', async () => {
    const gus = await person({ notify_push: true, notify_email: false });
    const alert = await page([gus.id], 'Deleted');
    const [timer] = await pendingDeliveries(alert.id);
    expect((await api('DELETE', `/alerts/${alert.id}`)).status).toBe(204);
    expect(await fire(timer!)).toEqual(['GetItemCommand']);
    expect(handed.filter((m) => m.about.ownerId === alert.id)).toEqual([]);
  });
});

describe('a message timer: every channel of one message in one firing', () => {
  const byChannel = async (alertId: string) => Object.fromEntries((await records(alertId)).map((r) => [r.channel, r]));
  const sentTo = (recordId: string) => handed.filter((m) => m.notificationId === recordId).length;

  it('sends both channels and records both with one read of the timer and one commit', async () => {
    const ida = await person({ notify_push: true, notify_email: true });
    const alert = await page([ida.id], 'Both channels');
    const [timer] = await pendingDeliveries(alert.id);
    const calls = await fire(timer!);
    // The timer; email's slot (read, reserve) and what waits for it (a query); then ONE transaction for both records.
    expect([...calls].sort()).toEqual(['GetItemCommand', 'GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand'].sort());
    expect(calls.at(-1)).toBe('TransactWriteItemsCommand');
    const { push, email } = await byChannel(alert.id);
    expect(push).toMatchObject({ status: 'sent', provider: 'test-push', attempts: 1 });
    expect(email).toMatchObject({ status: 'sent', provider: 'test-email', attempts: 1 });
    for (const r of [push, email]) expect((await api('GET', `/outbox/${r.outbox_id}`)).body.status).toBe('sent');
    expect(await pendingDeliveries(alert.id)).toEqual([]);
    expect(sentTo(push.id) + sentTo(email.id)).toBe(2);
    // A second wake-up finds the timer fired: nothing is sent again.
    expect(await fire(timer!)).toEqual(['GetItemCommand']);
    expect(sentTo(push.id) + sentTo(email.id)).toBe(2);
  });

  it('leaves a record that moved on out of the commit and records the others', async () => {
    const jo = await person({ notify_push: true, notify_email: true });
    const alert = await page([jo.id], 'One moved on');
    const [timer] = await pendingDeliveries(alert.id);
    const before = await byChannel(alert.id);
    const pushKey = { pk: alertPk(accountId, alert.id), sk: `NOTIF#${before.push.id}` };
    await transact([{ Update: { Key: pushKey, UpdateExpression: 'SET #s = :sent, provider = :p', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':sent': 'sent', ':p': 'elsewhere' } } }]);
    await fire(timer!);
    const after = await byChannel(alert.id);
    expect(after.push).toMatchObject({ status: 'sent', provider: 'elsewhere' });
    expect(after.email).toMatchObject({ status: 'sent', provider: 'test-email', attempts: 1 });
    expect((await api('GET', `/outbox/${before.push.outbox_id}`)).body.status).toBe('queued');
    expect(await pendingDeliveries(alert.id)).toEqual([]);
  });

  it('gives a channel that failed retryably its own retry timer and records the other sent', async () => {
    const kai = await person({ notify_push: true, notify_email: true });
    const alert = await page([kai.id], 'Push down');
    const [timer] = await pendingDeliveries(alert.id);
    failing.add('push');
    try {
      await fire(timer!);
    } finally {
      failing.delete('push');
    }
    const { push, email } = await byChannel(alert.id);
    expect(email).toMatchObject({ status: 'sent', attempts: 1 });
    expect(push).toMatchObject({ status: 'queued', attempts: 1, error: 'provider down' });
    const [retry] = await pendingDeliveries(alert.id);
    expect(retry!.payload).toMatchObject({ record_sk: `NOTIF#${push.id}`, attempts: 1 });
    expect(retry!.dueAt).toBe(push.next_attempt_at);
    await fire(retry!, DELIVERY_OWNERS, Date.parse(retry!.dueAt));
    expect((await byChannel(alert.id)).push).toMatchObject({ status: 'sent', attempts: 2 });
    expect(sentTo(email.id)).toBe(1);
  });

  it('gives a channel whose send could not be made its own timer, due at once, and records the others', async () => {
    const lu = await person({ notify_push: true, notify_email: true });
    const alert = await page([lu.id], 'Links unavailable');
    const [timer] = await pendingDeliveries(alert.id);
    // The owner's action links cannot be read for email this once (a storage error, say).
    const broken: DeliveryOwners = {
      ...DELIVERY_OWNERS,
      alert: { ...DELIVERY_OWNERS.alert, messageActions: async (request) => { if (request.channel === 'email') throw new Error('links unavailable'); return DELIVERY_OWNERS.alert.messageActions(request); } },
    };
    await fire(timer!, broken);
    const { push, email } = await byChannel(alert.id);
    expect(push).toMatchObject({ status: 'sent', attempts: 1 });
    expect(email).toMatchObject({ status: 'queued' });
    expect(email.attempts ?? 0).toBe(0);
    const [own] = await pendingDeliveries(alert.id);
    expect(own!.payload).toMatchObject({ record_sk: `NOTIF#${email.id}`, attempts: 0 });
    await fire(own!);
    expect((await byChannel(alert.id)).email).toMatchObject({ status: 'sent', attempts: 1 });
    expect(sentTo(push.id)).toBe(1);
    expect(sentTo(email.id)).toBe(1);
  });
});
