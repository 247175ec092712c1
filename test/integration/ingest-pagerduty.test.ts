// PagerDuty's Events API v2 through the gateway (docs/monitors.md, "PagerDuty Events API v2"): POST /v2/enqueue by
// routing_key and POST /integration/<id> of a pagerduty integration answer as PagerDuty does, and the events create,
// deduplicate, acknowledge and resolve alerts within their integration; change events are recorded; the senders'
// payloads (test/fixtures/monitors/pagerduty/) replayed.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, alertsWithThirdpartyId, newAccount, pollUntil, request, type AccountUserRef, type TestAccount } from './helpers.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'monitors', 'pagerduty');
const PLACEHOLDER = '0'.repeat(32);

let acme: TestAccount;
let bob: AccountUserRef;

beforeAll(async () => {
  acme = await newAccount('PagerDuty dialect');
  bob = await addAccountUser(acme);
});

interface PagerDutyIntegration {
  id: string;
  prefix_id: string;
  options: { routing_key: string };
}

async function pagerDutyIntegration(): Promise<PagerDutyIntegration> {
  const reply = await acme.api('POST', '/integrations', { name: `PagerDuty ${randomUUID()}`, type: 'pagerduty', account_user_ids: [bob.id], urgency: 'low' });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as PagerDutyIntegration;
}

const enqueue = (body: unknown, path = '/v2/enqueue', headers: Record<string, string> = {}) => request('POST', path, { body, headers });
const fixture = (file: string, key: string) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8').replaceAll(PLACEHOLDER, key)) as Record<string, unknown>;
const trigger = (key: string, dedupKey: string | undefined, payload: Record<string, unknown> = {}) => ({
  routing_key: key,
  event_action: 'trigger',
  ...(dedupKey !== undefined ? { dedup_key: dedupKey } : {}),
  payload: { summary: 'Checkout latency over 2 s', source: 'checkout-1', severity: 'critical', ...payload },
});
const act = (key: string, action: 'acknowledge' | 'resolve', dedupKey: string) => ({ routing_key: key, event_action: action, dedup_key: dedupKey });

const accepted = (dedupKey: string) => ({ status: 'success', message: 'Event processed', dedup_key: dedupKey });
const INVALID = { status: 'invalid event', message: 'Event object is invalid' };

const pagesOf = async (alertId: string) =>
  ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string }[]).filter((l) => l.event === 'paged').length;

/** The integration's request logs once `count` of them are applied (their last note says what each became). */
async function appliedLogs(integrationId: string, count: number) {
  return pollUntil(async () => {
    const logs = (await acme.api('GET', `/logs?owner_id=${integrationId}&limit=100`)).body.data as { details: { url: string; body: any; sublogs: { message: string }[] } }[];
    const done = logs.filter((l) => l.details.sublogs.some((n) => /^(Created|Deduplicated|Acknowledged|Resolved|Ignored)/.test(n.message)));
    return done.length >= count ? done : undefined;
  }, 15_000);
}

describe('POST /v2/enqueue', () => {
  it('trigger → repeat → acknowledge → trigger while acknowledged → resolve → trigger: one page per alert, PagerDuty answers throughout', async () => {
    const hook = await pagerDutyIntegration();
    const key = hook.options.routing_key;
    const dedup = `checkout-latency-${randomUUID()}`;
    const first = await enqueue(trigger(key, dedup));
    expect([first.status, first.body]).toEqual([202, accepted(dedup)]);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const [created] = await alertsWithThirdpartyId(acme, dedup);
    expect(created).toMatchObject({ title: 'Checkout latency over 2 s', urgency: 'critical', status: 'open', source_id: hook.id, meta: { source: 'checkout-1', severity: 'critical' } });

    expect((await enqueue(trigger(key, dedup))).status).toBe(202);
    await alertsWithThirdpartyId(acme, dedup, (a) => a[0].dedup_count === 1);
    expect([(await enqueue(act(key, 'acknowledge', dedup))).body]).toEqual([accepted(dedup)]);
    await alertsWithThirdpartyId(acme, dedup, (a) => a[0].status === 'acknowledged');
    // While acknowledged a trigger pages no one: a duplicate.
    await enqueue(trigger(key, dedup));
    const [acked] = await alertsWithThirdpartyId(acme, dedup, (a) => a[0].dedup_count === 2);
    expect(acked.status).toBe('acknowledged');
    await enqueue(act(key, 'resolve', dedup));
    await alertsWithThirdpartyId(acme, dedup, (a) => a[0].status === 'resolved');
    expect(await pagesOf(created.id)).toBe(1);
    // After a resolve, a trigger opens a new alert.
    await enqueue(trigger(key, dedup));
    const alerts = await alertsWithThirdpartyId(acme, dedup, (a) => a.length === 2);
    expect(alerts.map((a) => a.status).sort()).toEqual(['open', 'resolved']);

    // The request's log keeps the body without the key: every member reads logs.
    const logs = await appliedLogs(hook.id, 6);
    for (const log of logs) {
      expect(log.details.url).toBe('/v2/enqueue');
      expect(log.details.body.routing_key).toBe('[redacted]');
    }
    expect(JSON.stringify(logs)).not.toContain(key);
  });

  it('a trigger without a dedup_key gets one, answered, and the alert carries it', async () => {
    const hook = await pagerDutyIntegration();
    const reply = await enqueue(trigger(hook.options.routing_key, undefined, { severity: 'warning' }));
    expect(reply.status).toBe(202);
    const dedup = (reply.body as { dedup_key: string }).dedup_key;
    expect(dedup).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [alert] = await alertsWithThirdpartyId(acme, dedup);
    expect(alert).toMatchObject({ urgency: 'medium', source_id: hook.id });
    expect((await enqueue(act(hook.options.routing_key, 'resolve', dedup))).status).toBe(202);
    await alertsWithThirdpartyId(acme, dedup, (a) => a[0].status === 'resolved');
  });

  it('follow-ups act only within their routing key', async () => {
    const [a, b] = await Promise.all([pagerDutyIntegration(), pagerDutyIntegration()]);
    const dedup = `shared-${randomUUID()}`;
    await enqueue(trigger(a.options.routing_key, dedup));
    await alertsWithThirdpartyId(acme, dedup);
    await enqueue(act(b.options.routing_key, 'resolve', dedup));
    const [ignored] = await appliedLogs(b.id, 1);
    expect(ignored!.details.sublogs.at(-1)!.message).toMatch(/^Ignored: no alert of this integration has Id/);
    const [still] = await alertsWithThirdpartyId(acme, dedup);
    expect(still.status).toBe('open');
  });

  it("refuses what PagerDuty refuses, in PagerDuty's shape naming the field, and queues nothing", async () => {
    const hook = await pagerDutyIntegration();
    const key = hook.options.routing_key;
    const bad = await enqueue({ routing_key: key, event_action: 'trigger', payload: { source: 'x', severity: 'fatal' } });
    expect([bad.status, bad.body]).toEqual([
      400,
      { ...INVALID, errors: [`'payload.summary' is missing or blank`, `'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')`] },
    ]);
    const malformed = await request('POST', '/v2/enqueue', { rawBody: '{"routing_key":', headers: { 'content-type': 'application/json' } });
    expect([malformed.status, malformed.body]).toEqual([400, { ...INVALID, errors: ['Malformed JSON in request body'] }]);
    // An unknown key, a key of another type's integration or the wrong length tell nothing more.
    const unknown = await enqueue(trigger('f'.repeat(32), 'x'));
    expect([unknown.status, unknown.body]).toEqual([400, { ...INVALID, errors: ['Invalid routing key'] }]);
    const ack = await enqueue(act(key, 'acknowledge', ''));
    expect(ack.body.errors).toEqual([`'dedup_key' is missing or blank (an acknowledge names the alert by it)`]);
    // Nothing of these was queued: no log.
    await new Promise((r) => setTimeout(r, 500));
    expect((await acme.api('GET', `/logs?owner_id=${hook.id}`)).body.total_count).toBe(0);
  });

  it('a body over the webhook limit is a 413 in the dialect, at the door', async () => {
    const hook = await pagerDutyIntegration();
    const big = trigger(hook.options.routing_key, 'big', { custom_details: { blob: 'x'.repeat(300 * 1024) } });
    const reply = await enqueue(big);
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ ...INVALID, errors: [expect.stringMatching(/^Request body is larger than \d+ bytes$/)] });
  });

  it('a disabled integration, and a rotated key, are refused; the new key works at once', async () => {
    const hook = await pagerDutyIntegration();
    const old = hook.options.routing_key;
    expect((await acme.api('PUT', `/integrations/${hook.id}`, { enabled: false })).status).toBe(200);
    const off = await enqueue(trigger(old, 'off'));
    expect([off.status, off.body]).toEqual([400, { ...INVALID, errors: ['The integration of this routing_key is disabled'] }]);
    await acme.api('PUT', `/integrations/${hook.id}`, { enabled: true });
    const rotated = (await acme.api('POST', `/integrations/${hook.id}/rotate_key`)).body.options.routing_key as string;
    expect((await enqueue(trigger(old, 'after-rotation'))).body).toEqual({ ...INVALID, errors: ['Invalid routing key'] });
    expect((await enqueue(trigger(rotated, 'after-rotation'))).status).toBe(202);
  });
});

describe('POST /integration/<prefix_id> of a pagerduty integration', () => {
  it("takes the same body with that integration's key; another key is refused", async () => {
    const [hook, other] = await Promise.all([pagerDutyIntegration(), pagerDutyIntegration()]);
    const dedup = `by-path-${randomUUID()}`;
    const reply = await enqueue(trigger(hook.options.routing_key, dedup), `/integration/${hook.prefix_id}`);
    expect([reply.status, reply.body]).toEqual([202, accepted(dedup)]);
    const [alert] = await alertsWithThirdpartyId(acme, dedup);
    expect(alert.source_id).toBe(hook.id);
    const wrong = await enqueue(trigger(other.options.routing_key, dedup), `/integration/${hook.id}`);
    expect([wrong.status, wrong.body]).toEqual([400, { ...INVALID, errors: ['Invalid routing key'] }]);
    const invalid = await enqueue({ routing_key: hook.options.routing_key }, `/integration/${hook.prefix_id}`);
    expect(invalid.body).toEqual({ ...INVALID, errors: [`'event_action' is missing or blank`] });
    const get = await request('GET', `/integration/${hook.prefix_id}`);
    expect([get.status, get.headers.get('allow'), get.body]).toEqual([405, 'POST', { ...INVALID, errors: ['The Events API takes POST requests only'] }]);
    // An unknown path is still the generic 404.
    expect((await enqueue(trigger(hook.options.routing_key, dedup), '/integration/int_unknown00000')).status).toBe(404);
  });
});

describe('POST /v2/change/enqueue', () => {
  it('answers 202 and records the change in the integration log; no alert, no page', async () => {
    const hook = await pagerDutyIntegration();
    const reply = await enqueue(fixture('change-event.json', hook.options.routing_key), '/v2/change/enqueue');
    expect([reply.status, reply.body]).toEqual([202, { status: 'success', message: 'Change event processed' }]);
    const [log] = await appliedLogs(hook.id, 1);
    expect(log!.details.url).toBe('/v2/change/enqueue');
    expect(log!.details.sublogs.at(-1)!.message).toBe('Ignored: Change event recorded (change events page no one): Deployed checkout v2.14.0 to production');
    expect((await enqueue({ routing_key: hook.options.routing_key, payload: {} }, '/v2/change/enqueue')).body).toEqual({ ...INVALID, errors: [`'payload.summary' is missing or blank`] });
  });
});

describe("the senders' payloads", () => {
  it('Alertmanager 0.25 (recorded): trigger, repeat, resolve: one alert paged once', async () => {
    const hook = await pagerDutyIntegration();
    const key = hook.options.routing_key;
    const headers = { 'user-agent': 'Alertmanager/0.25.0' };
    const dedup = '17c4e445d234645c9e547ff6d32a864af0ebdadcd1902771c24c8d366637ff41';
    expect((await enqueue(fixture('alertmanager-trigger.json', key), '/v2/enqueue', headers)).body).toEqual(accepted(dedup));
    const [created] = await alertsWithThirdpartyId(acme, dedup, (a) => a.some((x) => x.source_id === hook.id));
    expect(created).toMatchObject({ title: '[FIRING:2] DiskFull (critical)', urgency: 'high' });
    expect(created.additional_data[0]).toEqual({ format: 'link', label: 'Alertmanager', value: 'http://alertmanager.example.org:9093/#/alerts?receiver=hark' });
    await enqueue(fixture('alertmanager-trigger.json', key), '/v2/enqueue', headers);
    await alertsWithThirdpartyId(acme, dedup, (a) => a[0].dedup_count === 1);
    await enqueue(fixture('alertmanager-resolve.json', key), '/v2/enqueue', headers);
    await alertsWithThirdpartyId(acme, dedup, (a) => a[0].status === 'resolved');
    expect(await pagesOf(created.id)).toBe(1);
  });

  it('Grafana: details of any JSON type kept; resolve', async () => {
    const hook = await pagerDutyIntegration();
    const key = hook.options.routing_key;
    const dedup = '5f3b8a1d0c7e4b2a9d6f1e3c8b0a7d4e2f9c6b1a3e8d5f0c7b4a9e2d6f1c3b8a';
    expect((await enqueue(fixture('grafana-trigger.json', key), '/v2/enqueue', { 'user-agent': 'Grafana' })).status).toBe(202);
    const [created] = await alertsWithThirdpartyId(acme, dedup);
    expect(created).toMatchObject({ title: '[FIRING:1] High memory usage (web-3 prod)', urgency: 'critical', meta: { component: 'Grafana' } });
    expect(created.additional_data).toContainEqual({ format: 'text', label: 'values', value: '{"B":93.4,"C":1}' });
    await enqueue(fixture('grafana-resolve.json', key), '/v2/enqueue', { 'user-agent': 'Grafana' });
    await alertsWithThirdpartyId(acme, dedup, (a) => a[0].status === 'resolved');
  });

  it("Uptime Kuma: down, up, and its Test button", async () => {
    const hook = await pagerDutyIntegration();
    const key = hook.options.routing_key;
    expect((await enqueue(fixture('uptime-kuma-down.json', key))).body).toEqual(accepted('Uptime Kuma/12'));
    const [down] = await alertsWithThirdpartyId(acme, 'Uptime Kuma/12');
    expect(down).toMatchObject({ urgency: 'medium', status: 'open' });
    await enqueue(fixture('uptime-kuma-up.json', key));
    await alertsWithThirdpartyId(acme, 'Uptime Kuma/12', (a) => a[0].status === 'resolved');
    expect((await enqueue(fixture('uptime-kuma-test.json', key))).status).toBe(202);
    await alertsWithThirdpartyId(acme, 'Uptime Kuma/undefined');
  });
});
