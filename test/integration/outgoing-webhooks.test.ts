// Outgoing webhooks end to end: a local receiver (node:http) gets signed deliveries from the local stack, verified
// with the Standard Webhooks library as a receiver would. This file runs its own stack with HARK_TIME_SCALE=60, so
// the first retry (5 s) comes after about 0.1 s; a receiver's timeout is real time.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningStack } from '#lib/local/stack.ts';
import { errorMessages, newAccount, type TestAccount } from './helpers.ts';
import { startScaledStack, startWebhookReceiver, type Answer, type WebhookReceiver } from './webhook-receiver.ts';

type Delivered = { type: string; timestamp: string; data: { alert: Record<string, any> } };

let stack: RunningStack;
let receiver: WebhookReceiver<Delivered>;
/** Per path: answers to give in turn; when empty, 200. */
const scripts = new Map<string, Answer[]>();

function answerFor(path: string): Answer {
  const next = scripts.get(path)?.shift() ?? { status: 200, body: 'ok' };
  return { ...next, headers: { 'content-type': 'text/plain', ...next.headers } };
}

beforeAll(async () => {
  stack = await startScaledStack('hark-webhooks-test');
  receiver = await startWebhookReceiver(answerFor);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const account = () => newAccount('Webhooks', stack);
let paths = 0;
const newPath = () => `/hook-${++paths}`;
const at = (path: string) => receiver.at(path);

async function subscribe(acct: TestAccount, path: string, fields: Record<string, unknown> = {}) {
  const reply = await acct.api('POST', '/outgoing_webhooks', { name: `Receiver ${path}`, url: `${receiver.base}${path}`, events: ['alert.created', 'alert.open', 'alert.acknowledged', 'alert.resolved'], ...fields });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: string; prefix_id: string; secret: string };
}

async function newAlert(acct: TestAccount, title = 'Disk full') {
  const reply = await acct.api('POST', '/alerts', { title, urgency: 'high', tags: ['disk'], destination_account_user_ids: [acct.adminAccountUserId] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: string };
}

async function deliveries(acct: TestAccount, subId: string): Promise<any[]> {
  const reply = await acct.api('GET', `/outgoing_webhooks/${subId}/deliveries?limit=100`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
}

const eventually = <T>(check: () => Promise<T> | T, timeout = 45_000) => vi.waitFor(check, { timeout, interval: 100 });

// Generous limits: the machine running the whole suite may be busy; nothing here asserts speed.
describe('outgoing webhook subscriptions', { timeout: 60_000 }, () => {
  it('shows the whsec_ secret once and validates fields by name', async () => {
    const acct = await account();
    const path = newPath();
    const created = await subscribe(acct, path);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.prefix_id).toMatch(/^owh_/);
    const read = await acct.api('GET', `/outgoing_webhooks/${created.prefix_id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify(read.body)).not.toContain(created.secret);
    expect(read.body).toMatchObject({ id: created.id, enabled: true, timeout_seconds: 15, filters: { team_ids: [], urgencies: [] } });

    const bad = await acct.api('POST', '/outgoing_webhooks', { name: 'x', url: 'http://example.com/hook', events: ['alert.paged'], timeout_seconds: 31 });
    expect(bad.status).toBe(422);
    const messages = errorMessages(bad);
    expect(messages.some((m) => m.startsWith('events'))).toBe(true);
    expect(messages.some((m) => m.startsWith('timeout_seconds'))).toBe(true);
    const privateUrl = await acct.api('POST', '/outgoing_webhooks', { name: 'x', url: 'https://169.254.169.254/latest', events: ['alert.created'] });
    expect(privateUrl.status).toBe(422);
    expect(errorMessages(privateUrl)[0]).toMatch(/^url must not point at a private, loopback or link-local address/);
    const plainHttp = await acct.api('POST', '/outgoing_webhooks', { name: 'x', url: 'http://example.com/hook', events: ['alert.created'] });
    expect(errorMessages(plainHttp)).toEqual(['url must use https (http only to loopback in the local runtime)']);
    const list = await acct.api('GET', '/outgoing_webhooks');
    expect(list.body.total_count).toBe(1);
  });
});

describe('deliveries', { timeout: 60_000 }, () => {
  it('signs every delivery as Standard Webhooks specifies, in the order of the alert’s changes', async () => {
    const acct = await account();
    const path = newPath();
    const sub = await subscribe(acct, path, { events: ['alert.created', 'alert.open', 'alert.acknowledged', 'alert.commented'] });
    const alert = await newAlert(acct);
    expect((await acct.api('POST', `/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    expect((await acct.api('POST', `/alerts/${alert.id}/comments`, { body: 'Looking into it' })).status).toBe(201);
    await eventually(() => expect(at(path).map((r) => r.json.type)).toEqual(['alert.created', 'alert.open', 'alert.acknowledged', 'alert.commented']));
    const verifier = new Webhook(sub.secret);
    for (const r of at(path)) {
      expect(verifier.verify(r.body, r.headers)).toEqual(r.json);
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9A-Z]{26}$/);
      expect(r.json.data.alert.id).toBe(alert.id);
      // The alert object as the API renders it: tags beside tag_list.
      expect([r.json.data.alert.tag_list, r.json.data.alert.tags]).toEqual([['disk'], ['disk']]);
    }
    expect(at(path)[2]!.json.data.alert.status).toBe('acknowledged');
    expect(at(path)[3]!.json.data).toMatchObject({ comment: { body: 'Looking into it', commentable_id: alert.id } });
    expect(new Set(at(path).map((r) => r.headers['webhook-id'])).size).toBe(4);
  });

  it('retries a 500 with the same webhook-id, then logs both attempts', async () => {
    const acct = await account();
    const path = newPath();
    scripts.set(path, [{ status: 500, body: 'x'.repeat(5000) }]);
    const sub = await subscribe(acct, path, { events: ['alert.created'] });
    const alert = await newAlert(acct);
    await eventually(() => expect(at(path)).toHaveLength(2));
    expect(at(path)[0]!.headers['webhook-id']).toBe(at(path)[1]!.headers['webhook-id']);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(acct, sub.id);
      expect(list[0]?.state).toBe('delivered');
      return list;
    });
    expect(delivery).toMatchObject({
      event_id: at(path)[0]!.headers['webhook-id'],
      event_type: 'alert.created',
      alert_id: alert.id,
      attempt: 2,
      response_status: 200,
      // A loopback receiver: a status and a size, never its words (docs/outgoing-webhooks.md, "The delivery log").
      response_body: null,
      response_bytes: 2,
      error_kind: null,
      next_attempt_at: null,
      trigger: 'scheduled',
    });
    expect(delivery.request_headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': delivery.event_id, 'webhook-signature': 'v1,…' });
    expect(delivery.duration_ms).toBeGreaterThanOrEqual(0);
    const first = delivery.attempts[0];
    expect(first).toMatchObject({ attempt: 1, response_status: 500, error_kind: 'http' });
    expect(first).toMatchObject({ response_body: null, response_bytes: 4096 });
  });

  it('does not retry a 400, and the next event of the alert still goes out', async () => {
    const acct = await account();
    const path = newPath();
    scripts.set(path, [{ status: 400, body: 'bad' }]);
    const sub = await subscribe(acct, path, { events: ['alert.created', 'alert.acknowledged'] });
    const alert = await newAlert(acct);
    await eventually(() => expect(at(path)).toHaveLength(1));
    expect((await acct.api('POST', `/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    await eventually(() => expect(at(path).map((r) => r.json.type)).toEqual(['alert.created', 'alert.acknowledged']));
    const list = await eventually(async () => {
      const found = await deliveries(acct, sub.id);
      expect(found.map((d) => d.state).sort()).toEqual(['delivered', 'failed']);
      return found;
    });
    const failed = list.find((d) => d.state === 'failed');
    expect(failed).toMatchObject({ event_type: 'alert.created', attempt: 1, response_status: 400, final_reason: 'the receiver answered 400, which is not retried' });
  });

  it('keeps the order per alert while an earlier event retries', async () => {
    const acct = await account();
    const path = newPath();
    scripts.set(path, [{ status: 503 }, { status: 503 }]);
    await subscribe(acct, path);
    const alert = await newAlert(acct);
    expect((await acct.api('POST', `/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    expect((await acct.api('POST', `/alerts/${alert.id}/resolve`)).status).toBe(200);
    await eventually(() => expect(at(path).length).toBe(6));
    const types = at(path).map((r) => r.json.type);
    expect(types).toEqual(['alert.created', 'alert.created', 'alert.created', 'alert.open', 'alert.acknowledged', 'alert.resolved']);
  });

  it('honours the timeout: a slow answer is a timeout, retried', async () => {
    const acct = await account();
    const path = newPath();
    scripts.set(path, [{ status: 200, delayMs: 2500 }]);
    const sub = await subscribe(acct, path, { events: ['alert.created'], timeout_seconds: 1 });
    await newAlert(acct);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(acct, sub.id);
      expect(list[0]?.state).toBe('delivered');
      return list;
    });
    const first = delivery.attempts[0];
    expect(first).toMatchObject({ attempt: 1, error_kind: 'timeout', response_status: null });
    // Cut by the timeout, not by the answer 2.5 s later: a timeout with no status (an answer would have given 200). The
    // attempt records at least the second it waited; how long beyond that is the machine's, not asserted.
    expect(first.duration_ms).toBeGreaterThanOrEqual(1000);
    expect(delivery.attempt).toBe(2);
  });

  it('replays a delivery with the same webhook-id, and sends a test event', async () => {
    const acct = await account();
    const path = newPath();
    const sub = await subscribe(acct, path, { events: ['alert.created'] });
    await newAlert(acct);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(acct, sub.id);
      expect(list[0]?.state).toBe('delivered');
      return list;
    });
    const replay = await acct.api('POST', `/outgoing_webhooks/${sub.id}/deliveries/${delivery.id}/replay`);
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toMatchObject({ id: delivery.id, state: 'pending', trigger: 'manual' });
    await eventually(() => expect(at(path)).toHaveLength(2));
    expect(at(path)[1]!.headers['webhook-id']).toBe(delivery.event_id);
    expect(at(path)[1]!.body).toBe(at(path)[0]!.body);
    const after = await eventually(async () => {
      const list = await deliveries(acct, sub.id);
      expect(list[0]?.attempts).toHaveLength(2);
      return list[0];
    });
    expect(after).toMatchObject({ state: 'delivered', trigger: 'manual', attempt: 2 });
    expect((await acct.api('POST', `/outgoing_webhooks/${sub.id}/deliveries/01ARZ3NDEKTSV4RRFFQ69G5FAV/replay`)).status).toBe(404);

    const test = await acct.api('POST', `/outgoing_webhooks/${sub.id}/test`);
    expect(test.status).toBe(202);
    await eventually(() => expect(at(path).map((r) => r.json.type)).toContain('webhook.test'));
    const sample = at(path).find((r) => r.json.type === 'webhook.test')!;
    expect(new Webhook(sub.secret).verify(sample.body, sample.headers)).toEqual(sample.json);
  });

  it('410 disables the subscription and tells the admins; enabling it resumes the undelivered event', async () => {
    const acct = await account();
    const path = newPath();
    scripts.set(path, [{ status: 410 }]);
    const sub = await subscribe(acct, path, { events: ['alert.created'] });
    await newAlert(acct);
    await eventually(async () => {
      const read = await acct.api('GET', `/outgoing_webhooks/${sub.id}`);
      expect(read.body).toMatchObject({ enabled: false, disabled_reason: 'the receiver answered 410 Gone' });
    });
    const outbox = await acct.api('GET', '/outbox?limit=100');
    expect(outbox.body.data.some((m: any) => m.template === 'webhook_disabled' && m.account_user_id === acct.adminAccountUserId)).toBe(true);
    const [paused] = await deliveries(acct, sub.id);
    expect(paused).toMatchObject({ state: 'paused', attempt: 1, response_status: 410 });
    // Events while Hark has it disabled are kept, paused, for when it is enabled again.
    await newAlert(acct, 'While disabled');
    await eventually(async () => expect((await deliveries(acct, sub.id)).map((d) => d.state)).toEqual(['paused', 'paused']));
    expect(at(path)).toHaveLength(1);
    const enabled = await acct.api('PUT', `/outgoing_webhooks/${sub.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    await eventually(() => expect(at(path)).toHaveLength(3));
    expect(at(path).slice(1).map((r) => r.headers['webhook-id'])).toContain(at(path)[0]!.headers['webhook-id']);
    expect(at(path).slice(1).map((r) => r.json.data.alert.title).sort()).toEqual(['Disk full', 'While disabled']);
    await eventually(async () => expect((await deliveries(acct, sub.id)).map((d) => d.state)).toEqual(['delivered', 'delivered']));

    // A subscription a person disables records nothing meanwhile.
    expect((await acct.api('PUT', `/outgoing_webhooks/${sub.id}`, { enabled: false })).body).toMatchObject({ enabled: false, disabled_reason: null });
    await newAlert(acct, 'While switched off');
    await new Promise((r) => setTimeout(r, 3000));
    expect(await deliveries(acct, sub.id)).toHaveLength(2);
  });

  it('rotates the secret: during the grace both secrets sign; without a grace only the new one', async () => {
    const acct = await account();
    const path = newPath();
    const sub = await subscribe(acct, path, { events: ['alert.created'] });
    const rotated = await acct.api('POST', `/outgoing_webhooks/${sub.id}/rotate_secret`, { grace_seconds: 3600 });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(sub.secret);
    expect(rotated.body.secrets).toHaveLength(2);
    await newAlert(acct);
    await eventually(() => expect(at(path)).toHaveLength(1));
    const during = at(path)[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(sub.secret).verify(during.body, during.headers)).toEqual(during.json);
    expect(new Webhook(rotated.body.secret).verify(during.body, during.headers)).toEqual(during.json);

    const again = await acct.api('POST', `/outgoing_webhooks/${sub.id}/rotate_secret`, { grace_seconds: 0 });
    expect(again.body.secrets).toHaveLength(1);
    await newAlert(acct);
    await eventually(() => expect(at(path)).toHaveLength(2));
    const after = at(path)[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(again.body.secret).verify(after.body, after.headers)).toEqual(after.json);
    expect(() => new Webhook(rotated.body.secret).verify(after.body, after.headers)).toThrow();
    const bad = await acct.api('POST', `/outgoing_webhooks/${sub.id}/rotate_secret`, { grace_seconds: -1 });
    expect(errorMessages(bad)[0]).toMatch(/^grace_seconds/);
  });
});
