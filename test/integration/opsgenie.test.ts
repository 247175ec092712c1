// Opsgenie's Alert API v2 and heartbeat pings through the gateway (docs/migrating.md, "From Opsgenie"): the requests
// of Alertmanager's opsgenie_configs (with update_alerts), Grafana's Opsgenie contact point and a curl heartbeat ping
// (test/fixtures/monitors/opsgenie/) replayed with an integration's GenieKey; what Opsgenie answers, and what each
// request became, read back through Opsgenie's request lookup and alert reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, addTeam, newAccount, pollUntil, request, type AccountUserRef, type Reply, type TestAccount } from './helpers.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'monitors', 'opsgenie');
interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}
const recorded = (file: string) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Recorded;

let acme: TestAccount;
let bob: AccountUserRef;

beforeAll(async () => {
  acme = await newAccount('Opsgenie');
  bob = await addAccountUser(acme);
});

interface Hook {
  id: string;
  prefix_id: string;
  options: Record<string, unknown>;
}

async function opsgenieIntegration(options: Record<string, unknown> = {}): Promise<Hook & { key: string }> {
  const reply = await acme.api('POST', '/integrations', { name: `Opsgenie ${Math.random()}`, integration_type_id: 'opsgenie', account_user_ids: [bob.id], options });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const key = reply.body.options.api_key as string;
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  return { ...(reply.body as Hook), key };
}

/** A recorded request sent as its sender sends it, with `key` as its GenieKey. */
function replay(file: string, key: string, base = ''): Promise<Reply> {
  const r = recorded(file);
  const query = new URLSearchParams(r.query).toString();
  const headers = { ...r.headers, authorization: `GenieKey ${key}` };
  const rawBody = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  return request(r.method, `${base}${r.path}${query ? `?${query}` : ''}`, { headers, ...(rawBody !== '' ? { rawBody } : {}) });
}

const call = (method: string, path: string, key: string, body?: unknown) => request(method, path, { headers: { authorization: `GenieKey ${key}` }, ...(body !== undefined ? { body } : {}) });

function expectAccepted(reply: Reply): string {
  expect(reply.status, reply.text).toBe(202);
  expect(reply.body).toEqual({ result: 'Request will be processed', took: expect.any(Number), requestId: expect.stringMatching(/^log_/) });
  return reply.body.requestId as string;
}

/** The request's record once the worker has applied it. */
const recordOf = (requestId: string, key: string) =>
  pollUntil(async () => {
    const reply = await call('GET', `/v2/alerts/requests/${requestId}`, key);
    return reply.status === 200 ? (reply.body.data as Record<string, unknown>) : undefined;
  }, 15_000);

const pagesOf = async (alertId: string) => ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string }[]).filter((l) => l.event === 'paged').length;

describe('opsgenie: Alertmanager opsgenie_configs with update_alerts', () => {
  it('creates once, updates message and description, a repeat pages no one, close by alias resolves; each request tells what it became', async () => {
    const hook = await opsgenieIntegration();
    const created = await recordOf(expectAccepted(await replay('alertmanager-create.json', hook.key)), hook.key);
    expect(created).toMatchObject({ success: true, action: 'Create', status: 'Created alert', alias: (recorded('alertmanager-create.json').body as { alias: string }).alias, integrationId: hook.prefix_id });
    const alertId = created.alertId as string;
    const updated = await recordOf(expectAccepted(await replay('alertmanager-update-message.json', hook.key)), hook.key);
    expect(updated).toMatchObject({ success: true, action: 'UpdateMessage', alertId });
    expect(await recordOf(expectAccepted(await replay('alertmanager-update-description.json', hook.key)), hook.key)).toMatchObject({ action: 'UpdateDescription', alertId });
    const repeat = await recordOf(expectAccepted(await replay('alertmanager-create.json', hook.key)), hook.key);
    expect(repeat).toMatchObject({ success: true, action: 'Create', status: 'Alert deduplicated', alertId });

    const alert = (await acme.api('GET', `/alerts/${alertId}`)).body;
    expect(alert).toMatchObject({ title: '[FIRING:2] DiskFull (critical)', urgency: 'critical', status: 'open', dedup_count: 1, source_id: hook.id, tag_list: ['DiskFull', 'critical'] });
    expect(await pagesOf(alertId)).toBe(1);

    const read = await call('GET', `/v2/alerts/${created.alias as string}?identifierType=alias`, hook.key);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: alertId, status: 'open', acknowledged: false, count: 2, priority: 'P1', details: { alertname: 'DiskFull' } });

    expect(await recordOf(expectAccepted(await replay('alertmanager-close.json', hook.key)), hook.key)).toMatchObject({ success: true, action: 'Close', status: 'Closed alert', alertId });
    expect((await acme.api('GET', `/alerts/${alertId}`)).body.status).toBe('resolved');
    const closed = await call('GET', `/v2/alerts?query=${encodeURIComponent(`status:closed AND alias:${created.alias as string}`)}`, hook.key);
    expect((closed.body.data as { id: string }[]).map((a) => a.id)).toEqual([alertId]);
  });
});

describe('opsgenie: the door', () => {
  it('an unknown or missing key is Opsgenie\'s 401, at the root and under an integration; ?apiKey= works', async () => {
    const hook = await opsgenieIntegration();
    for (const reply of [
      await call('POST', '/v2/alerts', 'f'.repeat(32), { message: 'x' }),
      await request('POST', '/v2/alerts', { body: { message: 'x' } }),
      await call('POST', `/integration/${hook.prefix_id}/v2/alerts`, 'f'.repeat(32), { message: 'x' }),
      await call('GET', '/v2/heartbeats/anything/ping', 'nope'),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ message: 'Could not authenticate', took: expect.any(Number), requestId: expect.any(String) });
    }
    expectAccepted(await request('POST', `/integration/${hook.prefix_id}/v2/alerts?apiKey=${hook.key}`, { body: { message: 'By query key', alias: 'q' } }));

    // Rotating the key: the old one is refused at once, the new one is taken.
    const rotated = await acme.api('POST', `/integrations/${hook.id}/rotate_key`);
    expect(rotated.status).toBe(200);
    const newKey = rotated.body.options.api_key as string;
    expect(newKey).not.toBe(hook.key);
    expect((await call('POST', '/v2/alerts', hook.key, { message: 'old key' })).status).toBe(401);
    expectAccepted(await call('POST', '/v2/alerts', newKey, { message: 'new key' }));

    // Refused at a known integration's path: kept as its refused log, the minute's others counted on it.
    expect((await request('POST', `/integration/${hook.prefix_id}/v2/alerts/x/close`, { body: {} })).status).toBe(401);
    const logs = (await acme.api('GET', `/logs?owner_id=${hook.id}&limit=100`)).body.data as { level: string; details: { refused?: { reason: string; count: number }; sublogs: { message: string }[] } }[];
    const refused = logs.filter((log) => log.level === 'warn');
    // One log a minute: the two refusals share one unless a minute began between them.
    expect(refused.every((log) => log.details.refused?.reason === 'wrong_key')).toBe(true);
    expect(refused.reduce((sum, log) => sum + log.details.refused!.count, 0)).toBe(2);
    expect(refused.length).toBeLessThanOrEqual(2);
    expect(refused[0]!.details.sublogs[0]!.message).toMatch(/^Refused: Missing or wrong GenieKey/);
  });

  it('a call Opsgenie refuses is 422 naming the field, and is not queued', async () => {
    const hook = await opsgenieIntegration();
    const reply = await call('POST', '/v2/alerts', hook.key, { alias: 'x', priority: 'P7' });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ message: 'Request body is not processable. Please check the errors.', errors: { message: 'Message can not be empty.', priority: expect.any(String) } });
    const logs = await acme.api('GET', `/logs?owner_id=${hook.id}`);
    expect(logs.body.total_count).toBe(0);
    expect((await call('POST', '/v2/alerts/x/close?identifierType=name', hook.key)).body.errors).toEqual({ identifierType: 'identifierType must be one of id, alias, tiny.' });
    const large = await request('POST', '/v2/alerts', { headers: { authorization: `GenieKey ${hook.key}` }, rawBody: JSON.stringify({ message: 'big', description: 'x'.repeat(300_000) }) });
    expect([large.status, large.body]).toEqual([413, { message: expect.stringMatching(/^Request body is larger than/), took: expect.any(Number), requestId: expect.any(String) }]);
    const malformed = await request('POST', '/v2/alerts', { headers: { authorization: `GenieKey ${hook.key}` }, rawBody: '{"message":' });
    expect([malformed.status, malformed.body.message]).toEqual([400, 'Malformed JSON in request body']);
    expect((await acme.api('GET', `/logs?owner_id=${hook.id}`)).body.total_count).toBe(0);
  });
});

describe('opsgenie: Grafana contact point and the other calls', () => {
  it('responders pick the team; details of any type; acknowledge by id, notes and tags by tiny id; unacknowledge is recorded as not supported', async () => {
    const checkout = await addTeam(acme, 'Checkout');
    const hook = await opsgenieIntegration();
    const created = await recordOf(expectAccepted(await replay('grafana-create.json', hook.key)), hook.key);
    const alertId = created.alertId as string;
    const alert = (await acme.api('GET', `/alerts/${alertId}`)).body;
    expect(alert.destination_team_ids).toEqual([checkout.id]);
    expect(alert.urgency).toBe('high');
    expect(alert.additional_data).toEqual(expect.arrayContaining([{ format: 'text', label: 'value', value: '1.42' }, { format: 'text', label: 'firing', value: 'true' }]));

    expect(await recordOf(expectAccepted(await call('POST', `/v2/alerts/${alertId}/acknowledge`, hook.key, { note: 'looking', user: 'ann' })), hook.key)).toMatchObject({ action: 'Acknowledge', status: 'Acknowledged alert' });
    const tiny = String(alert.tiny_id);
    expectAccepted(await call('POST', `/v2/alerts/${tiny}/tags?identifierType=tiny`, hook.key, { tags: ['p1', 'checkout'] }));
    const removed = await recordOf(expectAccepted(await call('DELETE', `/v2/alerts/${tiny}/tags?identifierType=tiny&tags=service:checkout`, hook.key)), hook.key);
    expect(removed).toMatchObject({ success: true, action: 'RemoveTags', status: 'Removed tags' });
    expect((await acme.api('GET', `/alerts/${alertId}`)).body.tag_list).toEqual(['alertname:High latency', 'p1', 'checkout']);
    const logs = (await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string; message: string }[];
    expect(logs.filter((l) => l.event === 'commented').map((l) => l.message)).toEqual([expect.stringMatching(/noted: ann: looking$/)]);

    const unack = await recordOf(expectAccepted(await call('POST', `/v2/alerts/${alertId}/unacknowledge`, hook.key, {})), hook.key);
    expect(unack).toMatchObject({ success: false, action: 'UnAcknowledge', status: expect.stringMatching(/^UnAcknowledge is not supported/) });
    expect((await acme.api('GET', `/alerts/${alertId}`)).body.status).toBe('acknowledged');

    const other = await opsgenieIntegration();
    const foreign = await recordOf(expectAccepted(await call('POST', `/v2/alerts/${alertId}/close`, other.key, {})), other.key);
    expect(foreign).toMatchObject({ success: false, status: expect.stringMatching(/^no alert made by this integration has id/) });
    expect(await recordOf(expectAccepted(await replay('grafana-close.json', hook.key)), hook.key)).toMatchObject({ status: 'Closed alert', alertId });
  });
});

describe('opsgenie: heartbeat pings', () => {
  it('pings the account\'s heartbeat integration of that name; an unknown name is PONG and recorded; a name used twice is 409', async () => {
    const hook = await opsgenieIntegration();
    const heartbeat = (await acme.api('POST', '/integrations', { name: 'nightly-backup', integration_type_id: 'heartbeat', account_user_ids: [bob.id], options: { interval_seconds: 3600 } })).body as Hook;
    const pong = await replay('curl-heartbeat-ping.json', hook.key);
    expect(pong.status).toBe(202);
    expect(pong.body).toEqual({ result: 'PONG - Heartbeat received', took: expect.any(Number), requestId: expect.stringMatching(/^log_/) });
    expect((await acme.api('GET', `/integrations/${heartbeat.id}`)).body.last_ping_at).toEqual(expect.any(String));
    expect((await call('PATCH', '/v2/heartbeats/nightly-backup/ping', hook.key)).status).toBe(202);

    const unknown = await call('POST', '/v2/heartbeats/weekly-report/ping', hook.key);
    expect(unknown.body.result).toBe('PONG - Heartbeat received');
    const log = await pollUntil(async () => {
      const read = await acme.api('GET', `/logs/${unknown.body.requestId as string}`);
      return read.status === 200 && read.body.details.sublogs.some((n: { message: string }) => n.message.startsWith('Ignored')) ? read.body : undefined;
    }, 15_000);
    expect(log.owner_id).toBe(hook.id);
    expect(log.details.sublogs.map((n: { message: string }) => n.message)).toEqual([
      'No heartbeat integration of this account is named "weekly-report"',
      'Ignored: The heartbeat ping for "weekly-report" pinged no heartbeat integration',
    ]);

    await acme.api('POST', '/integrations', { name: 'nightly-backup', integration_type_id: 'heartbeat', account_user_ids: [bob.id] });
    const twice = await call('GET', '/v2/heartbeats/nightly-backup/ping', hook.key);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/^Heartbeat name \[nightly-backup\] is used by 2 heartbeat integrations/);
  });
});

describe('opsgenie: heartbeat admin calls', () => {
  it('only with allow_heartbeat_admin; create, read, change, disable, enable and delete heartbeat integrations by name', async () => {
    const plain = await opsgenieIntegration();
    const refused = await call('POST', '/v2/heartbeats', plain.key, { name: 'hb-admin', interval: 10, intervalUnit: 'minutes', enabled: true });
    expect(refused.status).toBe(403);

    const admin = await opsgenieIntegration({ allow_heartbeat_admin: true });
    const invalid = await call('POST', '/v2/heartbeats', admin.key, { name: 'hb-admin', interval: 30, intervalUnit: 'seconds', enabled: true });
    expect([invalid.status, invalid.body.errors]).toEqual([422, { intervalUnit: 'intervalUnit must be one of minutes, hours, days.' }]);
    const created = await call('POST', '/v2/heartbeats', admin.key, { name: 'hb-admin', description: 'nightly', interval: 2, intervalUnit: 'hours', enabled: true });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ result: 'Created', data: { name: 'hb-admin', enabled: true, expired: false } });
    expect((await call('POST', '/v2/heartbeats', admin.key, { name: 'hb-admin', interval: 2, intervalUnit: 'hours', enabled: true })).status).toBe(409);

    const read = await call('GET', '/v2/heartbeats/hb-admin', admin.key);
    expect(read.body.data).toMatchObject({ name: 'hb-admin', description: 'nightly', interval: 2, intervalUnit: 'hours', enabled: true, expired: false });
    const integration = (await acme.api('GET', `/integrations/${read.body.data.hark.id as string}`)).body;
    expect(integration).toMatchObject({ integration_type: { id: 'heartbeat' }, options: { interval_seconds: 7200 }, account_user_ids: [bob.id] });

    expect((await call('PATCH', '/v2/heartbeats/hb-admin', admin.key, { interval: 30, intervalUnit: 'minutes' })).body.result).toBe('Updated');
    expect((await call('POST', '/v2/heartbeats/hb-admin/disable', admin.key)).body.data).toEqual({ name: 'hb-admin', enabled: false });
    expect((await acme.api('GET', `/integrations/${integration.id as string}`)).body).toMatchObject({ enabled: false, options: { interval_seconds: 1800 } });
    expect((await call('POST', '/v2/heartbeats/hb-admin/enable', admin.key)).body.data.enabled).toBe(true);
    expect(((await call('GET', '/v2/heartbeats', admin.key)).body.data.heartbeats as { name: string }[]).map((h) => h.name)).toContain('hb-admin');
    expect((await call('DELETE', '/v2/heartbeats/hb-admin', admin.key)).body.result).toBe('Deleted');
    expect((await call('GET', '/v2/heartbeats/hb-admin', admin.key)).status).toBe(404);
  });
});
