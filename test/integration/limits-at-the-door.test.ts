// Nothing accepted is lost to a storage limit, and nothing a client sends is a 500 (docs/security.md, "Limits at the
// door"). Through the gateway: webhooks whose payload passes DynamoDB's limits (Meta nested 40 levels, a 248 KB payload
// with captured data in an account with an outgoing webhook, numbers and keys DynamoDB refuses, a long non-ASCII Id)
// are applied and never dead-lettered; bodies nested 5,000 deep are a 400; the API refuses hostile ids and meta by name.
import { ChangeMessageVisibilityBatchCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { findSourceLogItem, sourceLogsOf } from '#lib/ingest/source-log.ts';
import { MAX_ADDITIONAL_DATA_BYTES, MAX_BODY_DEPTH, MAX_META_BYTES, MAX_META_DEPTH, WEBHOOK_EVENT_DATA_BYTES } from '#lib/limits.ts';
import { sqsClient } from '#lib/queue/client.ts';
import { alertsWithThirdpartyId, errorMessages, newAccount, request, useTestStack, type TestAccount } from './helpers.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

type Delivered = { type: string; data: { alert: Record<string, any>; omitted?: string[] } };

let acme: TestAccount;
let hook: { id: string; prefix_id: string };
let receiver: WebhookReceiver<Delivered>;

/** `{level:{level:…'bottom'}}` with `levels` objects. */
const nested = (levels: number): Record<string, unknown> => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { level: value };
  return value as Record<string, unknown>;
};
const deepText = (levels: number) => `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Limits');
  receiver = await startWebhookReceiver<Delivered>();
  const subscription = await acme.api('POST', '/outgoing_webhooks', { name: 'Ticketing', url: `${receiver.base}/hark`, events: ['alert.created'] });
  expect(subscription.status, subscription.text).toBe(201);
  const created = await acme.api('POST', '/integrations', { name: 'Monitor', account_user_ids: [acme.adminAccountUserId], options: { capture_additional_data: true } });
  expect(created.status, created.text).toBe(201);
  hook = created.body;
});

afterAll(() => receiver?.close());

/** The log ids of the requests this file's webhooks accepted: each must end applied, none dead-lettered. */
const accepted: string[] = [];

async function send(payload: Record<string, unknown>): Promise<void> {
  const reply = await request('POST', `/integration/${hook.prefix_id}`, { body: payload });
  expect(reply.status, reply.text).toBe(200);
  accepted.push(reply.body.log_id as string);
}

/**
 * Every message in the dead-letter queue, which other test files share: read in batches hidden meanwhile (so each is
 * read once), and made visible again at once for the files that read their own there.
 */
async function everyDeadLetter(): Promise<Message[]> {
  const queueUrl = inject('ingestDlqUrl');
  const read = new Map<string, Message>();
  try {
    for (;;) {
      const batch = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 60 }));
      if (!batch.Messages?.length) break;
      for (const message of batch.Messages) read.set(message.MessageId!, message);
    }
  } finally {
    const handles = [...read.values()].map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }));
    for (let i = 0; i < handles.length; i += 10) {
      await sqsClient().send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: handles.slice(i, i + 10) }));
    }
  }
  return [...read.values()];
}

/** The notes of the request whose Id is `id`, once the worker applied it (so it is not in the dead-letter queue). */
async function appliedNotes(id: string): Promise<string[]> {
  let notes: string[] = [];
  await vi.waitFor(
    async () => {
      const log = (await sourceLogsOf(acme.accountId, hook.id, 100)).find((l) => (l.body as { Id?: unknown }).Id === id);
      expect(log).toBeDefined();
      const item = await findSourceLogItem(acme.accountId, log!.id);
      expect(item?.noteSteps?.has('apply')).toBe(true);
      notes = item!.notes.map((n) => n.message);
    },
    { timeout: 20_000, interval: 150 },
  );
  return notes;
}

const alertLogs = async (alertId: string) => (await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string; message: string }[];

describe('webhooks past DynamoDB’s limits are applied, trimmed and noted', { timeout: 60_000 }, () => {
  it('Meta nested 40 levels: the alert exists, levels past 16 kept as JSON text, noted in both logs', async () => {
    const id = `meta40-${randomUUID()}`;
    await send({ event_type: 'create', Id: id, Title: 'Deep meta', Meta: { incident: false, chain: nested(40) } });
    const notes = await appliedNotes(id);
    const [alert] = await alertsWithThirdpartyId(acme, id);
    expect(alert.title).toBe('Deep meta');
    let at: unknown = alert.meta.chain;
    for (let level = 2; level < MAX_META_DEPTH; level++) at = (at as { level: unknown }).level;
    expect(JSON.parse((at as { level: string }).level)).toEqual(nested(40 - (MAX_META_DEPTH - 1)));
    const trim = `Trimmed to fit: Meta: values nested deeper than ${MAX_META_DEPTH} levels are kept as JSON text`;
    expect(notes[0]).toMatch(new RegExp(`^${trim}`));
    expect(notes[1]).toMatch(/^Created alert alt_/);
    expect((await alertLogs(alert.id)).find((l) => l.event === 'trimmed')?.message).toMatch(new RegExp(`^${trim}`));
  });

  it('a 248 KB payload with captured data, in an account with an outgoing webhook: the alert exists and its event is delivered', async () => {
    const id = `big-${randomUUID()}`;
    const payload: Record<string, unknown> = { event_type: 'create', Id: id, Title: 'Big payload', Meta: { host: 'db1' } };
    for (let i = 0; i < 25; i++) payload[`field${i}`] = 'x'.repeat(9_900);
    expect(JSON.stringify(payload).length).toBeGreaterThan(247_000);
    await send(payload);
    const notes = await appliedNotes(id);
    const [alert] = await alertsWithThirdpartyId(acme, id);
    expect(alert.additional_data.length).toBeGreaterThan(10);
    expect(alert.additional_data.length).toBeLessThan(25);
    expect(Buffer.byteLength(JSON.stringify(alert.additional_data))).toBeLessThanOrEqual(MAX_ADDITIONAL_DATA_BYTES);
    expect(notes[0]).toMatch(new RegExp(`^Trimmed to fit: additional data: larger than ${MAX_ADDITIONAL_DATA_BYTES} bytes as JSON; kept the first ${alert.additional_data.length} of 25 fields`));
    expect((await alertLogs(alert.id)).map((l) => l.event)).toContain('trimmed');

    const delivered = await vi.waitFor(
      () => {
        const found = receiver.received.find((r) => r.json.data.alert.id === alert.id);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 30_000, interval: 150 },
    );
    expect(delivered.json.type).toBe('alert.created');
    expect(delivered.json.data.alert.additional_data).toEqual(alert.additional_data);
    expect(Buffer.byteLength(delivered.body)).toBeLessThan(WEBHOOK_EVENT_DATA_BYTES + 1024);
  });

  it('numbers and keys DynamoDB refuses, and a long non-ASCII Id: the alert exists and is found by its Id', async () => {
    const id = `é${randomUUID()}${'é'.repeat(980)}`;
    await send({ event_type: 'create', Id: id, Title: 'Odd values', Meta: { big: 1e200, tiny: 5e-324, '': 'empty key', 'half\ud800': 'pair', keep: 'me' } });
    await appliedNotes(id);
    const [alert] = await alertsWithThirdpartyId(acme, id);
    expect(alert.thirdparty_id).toBe(id);
    expect(alert.meta).toEqual({ big: '1e+200', tiny: '5e-324', 'half\ufffd': 'pair', keep: 'me' });
    // The Id's events find the alert again.
    await send({ event_type: 'resolve', Id: id });
    await vi.waitFor(async () => expect((await acme.api('GET', `/alerts/${alert.id}`)).body.status).toBe('resolved'), { timeout: 20_000, interval: 150 });
  });

  it('a Meta over the size limit keeps its first keys', async () => {
    const id = `wide-${randomUUID()}`;
    await send({ event_type: 'create', Id: id, Title: 'Wide meta', Meta: { a: 'a'.repeat(MAX_META_BYTES / 2), b: 'b'.repeat(MAX_META_BYTES / 2), c: 'c' } });
    const notes = await appliedNotes(id);
    const [alert] = await alertsWithThirdpartyId(acme, id);
    expect(Object.keys(alert.meta)).toEqual(['a']);
    expect(notes[0]).toBe(`Trimmed to fit: Meta: larger than ${MAX_META_BYTES} bytes as JSON; kept the first 1 of 3 keys and dropped b, c`);
  });

  it('none of this account’s requests is in the dead-letter queue', async () => {
    // Settled first: every request accepted above is either applied or dead-lettered (after its five receives), so
    // the look below cannot come before a message lands there.
    expect(accepted.length).toBeGreaterThan(0);
    let deadLetters: Message[] = [];
    await vi.waitFor(
      async () => {
        deadLetters = (await everyDeadLetter()).filter((m) => m.Body?.includes(acme.accountId));
        let applied = 0;
        for (const logId of accepted) if ((await findSourceLogItem(acme.accountId, logId))?.noteSteps?.has('apply')) applied++;
        expect(applied + deadLetters.length).toBeGreaterThanOrEqual(accepted.length);
      },
      { timeout: 45_000, interval: 500 },
    );
    expect(deadLetters.map((m) => m.Body)).toEqual([]);
  });
});

describe('bodies nested past the door’s limit are a 400, never a 500', () => {
  it('the webhook and the API refuse a body nested 5,000 deep with the JSON error body, and keep nothing', async () => {
    const message = `Request body nests deeper than ${MAX_BODY_DEPTH} levels`;
    for (const rawBody of [deepText(5_000), `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, deepText(MAX_BODY_DEPTH)]) {
      const webhook = await request('POST', `/integration/${hook.prefix_id}`, { rawBody });
      expect(webhook.status).toBe(400);
      expect(errorMessages(webhook)).toEqual([message]);
      const api = await request('POST', '/api/v4/teams', { key: acme.adminKey, rawBody });
      expect(api.status).toBe(400);
      expect(errorMessages(api)).toEqual([message]);
    }
    // One level less is read: the webhook takes it (and logs it), the API reads the body and names the wrong field.
    expect((await request('POST', `/integration/${hook.prefix_id}`, { rawBody: deepText(MAX_BODY_DEPTH - 1) })).status).toBe(200);
    expect(errorMessages(await request('POST', '/api/v4/teams', { key: acme.adminKey, rawBody: `{"name":"x","meta":${JSON.stringify(nested(MAX_BODY_DEPTH - 2))}}` }))).toEqual([
      `meta nests deeper than ${MAX_META_DEPTH} levels`,
    ]);
    expect((await acme.api('GET', '/teams?limit=100')).body.total_count).toBe(0);
  });
});

describe('the API refuses what storage could not take, by name, before any storage call', () => {
  const longId = 'x'.repeat(10_000);

  it('hostile ids in body fields: 422 naming the field', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Ids' })).body;
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['PUT', `/teams/${team.id}`, { schedule_id: longId }, 'schedule_id is not an id'],
      ['PUT', `/teams/${team.id}`, { escalation_policy_id: 'sch-1' }, 'escalation_policy_id is not an id'],
      ['POST', '/routers', { name: 'r', default_receiver_team_id: longId }, 'default_receiver_team_id is not an id'],
      ['POST', '/events', { start_time: '2030-01-01T00:00:00Z', end_time: '2030-01-01T01:00:00Z', layer: 1, time_zone: 'UTC', schedule_ids: [team.schedule_id], account_user_ids: [acme.adminAccountUserId], parent_id: longId }, 'parent_id is not an id'],
      ['POST', '/alerts', { title: 't', urgency: 'low', destination_account_user_ids: [acme.adminAccountUserId, longId] }, 'destination_account_user_ids[1] is not an id'],
      ['PUT', `/teams/${team.id}`, { member_account_user_ids: ['../etc'] }, 'member_account_user_ids[0] is not an id'],
    ];
    for (const [method, path, body, start] of cases) {
      const reply = await acme.api(method, path, body);
      expect(reply.status, `${method} ${path} ${reply.text.slice(0, 200)}`).toBe(422);
      expect(errorMessages(reply)[0]).toMatch(new RegExp(`^${start.replace(/[[\]]/g, '\\$&')} \\(ids and prefix ids are 1 to 64 letters, digits and _\\)$`));
    }
    // The people schema uses the same id shape: refused by name, without a storage call and without echoing the value.
    const person = await acme.api('PUT', `/account_users/${acme.adminAccountUserId}`, { notification_rule_id: longId });
    expect(person.status).toBe(422);
    expect(errorMessages(person)[0]).toMatch(/^notification_rule_id is not an id \(/);
  });

  it('meta past the limits: 422 naming the field and the limit; at the limits: stored', async () => {
    expect(errorMessages(await acme.api('POST', '/teams', { name: 'Deep', meta: nested(MAX_META_DEPTH + 1) }))).toEqual([`meta nests deeper than ${MAX_META_DEPTH} levels`]);
    expect(errorMessages(await acme.api('POST', '/alerts', { title: 't', urgency: 'low', destination_account_user_ids: [acme.adminAccountUserId], meta: nested(40) }))).toEqual([
      `meta nests deeper than ${MAX_META_DEPTH} levels`,
    ]);
    expect(errorMessages(await acme.api('POST', '/schedules', { name: 'Keys', meta: { '': 1 } }))).toEqual(['meta has an empty key; keys must have at least one character']);
    expect(errorMessages(await acme.api('POST', '/schedules', { name: 'Keys', meta: { a: { '\udc00': 1 } } }))).toEqual(['meta.a has a key that is not valid Unicode (a lone surrogate such as \\ud800)']);
    expect(errorMessages(await acme.api('POST', '/schedules', { name: 'Big', meta: { a: 'x'.repeat(MAX_META_BYTES) } }))).toEqual([`meta is larger than ${MAX_META_BYTES} bytes as JSON`]);
    expect(errorMessages(await acme.api('POST', '/schedules', { name: 'Number', meta: { a: 1e200 } }))[0]).toMatch(/^meta\.a is 1e\+200, a number Hark cannot store/);
    const deepest = await acme.api('POST', '/alerts', { title: 'Deepest', urgency: 'low', destination_account_user_ids: [acme.adminAccountUserId], meta: nested(MAX_META_DEPTH) });
    expect(deepest.status, deepest.text).toBe(201);
    expect((await acme.api('GET', `/alerts/${deepest.body.id}`)).body.meta).toEqual(nested(MAX_META_DEPTH));
  });

  it('list filters no object can match answer an empty page instead of reading an impossible key', async () => {
    // 1,500 é are 3,000 bytes of UTF-8: past a key's 2,048 bytes, within the gateway's 16 KiB of headers once encoded.
    for (const query of [`thirdparty_id=${encodeURIComponent('é'.repeat(1_500))}`, `status=${'x'.repeat(3_000)}`]) {
      const reply = await acme.api('GET', `/alerts?${query}`);
      expect(reply.status, reply.text.slice(0, 200)).toBe(200);
      expect(reply.body).toEqual({ data: [], has_more: false, total_count: 0 });
    }
    const logs = await acme.api('GET', `/logs?owner_id=${longId}`);
    expect(logs.status).toBe(200);
    expect(logs.body.total_count).toBe(0);
  });
});
