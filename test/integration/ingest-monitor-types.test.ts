// Integration types through the gateway: GET /integration_types, integrations of each type with their options, and
// the recorded payloads of Alertmanager, Grafana, Datadog, Sentry, Azure Monitor and Google Cloud Monitoring
// (test/fixtures/monitors/<type>/) replayed with their senders' headers: each creates, updates and resolves the right
// alert, paged once, a repeat only counted. Rules: docs/monitors.md, docs/integrations.md ("Integration types").
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, alertsWithThirdpartyId, errorMessages, newAccount, pollUntil, request, type AccountUserRef, type TestAccount } from './helpers.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'monitors');
const fixture = (type: string, file: string) => readFileSync(join(FIXTURES, type, file), 'utf8');

/** The headers each sender puts on its requests (its own code; Sentry's resource and signature are added per request). */
const SENDER_HEADERS: Record<string, Record<string, string>> = {
  prometheus: { 'user-agent': 'Alertmanager/0.27.0' },
  grafana: { 'user-agent': 'Grafana' },
  datadog: { 'user-agent': 'Datadog/Webhooks' },
  sentry: { 'user-agent': 'sentry-app', 'request-id': 'a0c2f7b4-1f9e-4f35-8a5a-2f7c1e9d0b11', 'sentry-hook-timestamp': '1763630000' },
  azure_monitor: { 'user-agent': 'IcMBroadcaster/1.0' },
  stackdriver: { 'user-agent': 'Google-Alerts' },
};
const SENTRY_SECRET = 'sentry-client-secret-for-tests-0123';

let acme: TestAccount;
let bob: AccountUserRef;

beforeAll(async () => {
  acme = await newAccount('Monitor types');
  bob = await addAccountUser(acme);
});

async function integrationOf(type: string, options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const reply = await acme.api('POST', '/integrations', { name: `${type} ${Math.random()}`, integration_type_id: type, account_user_ids: [bob.id], options, ...extra });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { id: string; prefix_id: string; integration_type: { id: string; name: string }; options: Record<string, unknown> };
}

/** Posts a recorded payload as its sender does; the answer must be a 2xx (Alertmanager and Grafana retry a 5xx). */
async function send(hook: { prefix_id: string }, type: string, file: string, headers: Record<string, string> = {}) {
  const rawBody = fixture(type, file);
  const reply = await request('POST', `/integration/${hook.prefix_id}`, { rawBody, headers: { ...SENDER_HEADERS[type], ...headers } });
  expect(reply.status, `${type}/${file}: ${reply.text}`).toBe(200);
  return reply.body as { log_id: string };
}

const sentryHeaders = (resource: string, file: string) => ({
  'sentry-hook-resource': resource,
  'sentry-hook-signature': createHmac('sha256', SENTRY_SECRET).update(fixture('sentry', file), 'utf8').digest('hex'),
});

/** The request's log once the worker has applied it (its last note says what became of the request). */
async function appliedLog(logId: string) {
  return pollUntil(async () => {
    const read = await acme.api('GET', `/logs/${logId}`);
    const notes = read.status === 200 ? (read.body.details.sublogs as { message: string }[]) : [];
    return notes.some((n) => /^(Created|Deduplicated|Updated|Acknowledged|Resolved|Ignored)/.test(n.message)) ? read.body : undefined;
  }, 15_000);
}

const pagesOf = async (alertId: string) =>
  ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string }[]).filter((l) => l.event === 'paged').length;

describe('integration types', () => {
  it('GET /integration_types lists every type with its options and docs; one type by id', async () => {
    const list = await acme.api('GET', '/integration_types');
    expect(list.status).toBe(200);
    const ids = (list.body as { id: string }[]).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['webhook', 'prometheus', 'grafana', 'datadog', 'sentry', 'azure_monitor', 'stackdriver']));
    expect(ids[0]).toBe('webhook');
    const prometheus = await acme.api('GET', '/integration_types/prometheus');
    expect(prometheus.body).toMatchObject({ id: 'prometheus', name: 'Prometheus Alertmanager', docs: 'docs/monitors.md#prometheus-alertmanager' });
    expect(prometheus.body.options).toEqual([expect.objectContaining({ name: 'alert_per', enum: ['group', 'alert'] })]);
    expect((await acme.api('GET', '/integration_types/sentry')).body.options).toEqual([expect.objectContaining({ name: 'client_secret', write_only: true })]);
    const unknown = await acme.api('GET', '/integration_types/nagios');
    expect([unknown.status, errorMessages(unknown)]).toEqual([404, ['Integration type not found']]);
    expect((await request('GET', '/api/v4/integration_types')).status).toBe(401);
  });

  it('creates an integration of a type (also as `type`), refuses unknown types and options, and never changes the type', async () => {
    const hook = await integrationOf('prometheus', { alert_per: 'alert' });
    expect(hook.integration_type).toMatchObject({ id: 'prometheus', name: 'Prometheus Alertmanager' });
    expect(hook.options).toMatchObject({ alert_per: 'alert', has_token: false });
    const byType = await acme.api('POST', '/integrations', { name: 'g', type: 'Grafana', account_user_ids: [bob.id] });
    expect(byType.body.integration_type.id).toBe('grafana');
    const unknown = await acme.api('POST', '/integrations', { name: 'n', integration_type_id: 'nagios', account_user_ids: [bob.id] });
    expect(unknown.status).toBe(422);
    expect(errorMessages(unknown)).toEqual([expect.stringMatching(/^integration_type_id must be one of webhook, .*prometheus, grafana, datadog, sentry, azure_monitor, stackdriver.*; got "nagios"$/)]);
    const badOption = await acme.api('POST', '/integrations', { name: 'b', integration_type_id: 'grafana', account_user_ids: [bob.id], options: { alert_per: 'rule', colour: 'red' } });
    expect(badOption.status).toBe(422);
    expect(errorMessages(badOption)).toEqual(expect.arrayContaining(['options.alert_per must be one of group, alert', expect.stringMatching(/^options.colour is not an option of grafana/)]));
    const changed = await acme.api('PUT', `/integrations/${hook.id}`, { integration_type_id: 'grafana' });
    expect(changed.status).toBe(422);
    expect(errorMessages(changed)).toEqual(['integration_type_id cannot be changed (this integration is prometheus); create another integration of type grafana']);
    const same = await acme.api('PUT', `/integrations/${hook.id}`, { integration_type_id: 'prometheus', options: { alert_per: null } });
    expect([same.status, same.body.options.alert_per]).toEqual([200, undefined]);
    const secret = await integrationOf('sentry', { client_secret: SENTRY_SECRET });
    expect(secret.options).toMatchObject({ has_client_secret: true });
    expect(JSON.stringify(secret)).not.toContain(SENTRY_SECRET);
  });
});

describe('monitor payloads of each type through the gateway', () => {
  it('prometheus: a group firing → repeat → partly resolved → resolved is one alert, paged once', async () => {
    const hook = await integrationOf('prometheus');
    const key = '{}/{severity="critical"}:{alertname="ProbeFailure"}';
    await send(hook, 'prometheus', 'firing.json');
    const [created] = await alertsWithThirdpartyId(acme, key, (a) => a.length === 1);
    expect(created).toMatchObject({ title: 'ProbeFailure', urgency: 'critical', status: 'open', source_id: hook.id });
    expect(created.additional_data[0]).toEqual({ format: 'link', label: 'Alertmanager', value: 'http://alertmanager.example.org:9093' });
    const repeat = await send(hook, 'prometheus', 'firing.json');
    await alertsWithThirdpartyId(acme, key, (a) => a[0].dedup_count === 1);
    const repeatLog = await appliedLog(repeat.log_id);
    expect(repeatLog.details.sublogs.map((n: { message: string }) => n.message)).toEqual(
      expect.arrayContaining([`Deduplicated into alert ${created.prefix_id} (still open): dedup_count 1, nobody paged`, 'Group firing: 1a30ba71cca2921f firing, 7be2c45d0e9f3a11 firing']),
    );
    await send(hook, 'prometheus', 'firing-partly-resolved.json');
    const [partly] = await alertsWithThirdpartyId(acme, key, (a) => a[0].dedup_count === 2 && /Resolved \(1\)/.test(a[0].description));
    expect(partly.id).toBe(created.id);
    await send(hook, 'prometheus', 'resolved.json');
    const [resolved] = await alertsWithThirdpartyId(acme, key, (a) => a[0].status === 'resolved');
    expect(resolved.id).toBe(created.id);
    expect(await pagesOf(created.id)).toBe(1);
  });

  it('prometheus with alert_per: alert: one alert per fingerprint; a maintenance window silences the integration', async () => {
    const hook = await integrationOf('prometheus', { alert_per: 'alert' });
    await send(hook, 'prometheus', 'firing.json');
    await alertsWithThirdpartyId(acme, '1a30ba71cca2921f', (a) => a.length === 1 && a[0].status === 'open');
    await alertsWithThirdpartyId(acme, '7be2c45d0e9f3a11', (a) => a.length === 1 && a[0].status === 'open');
    await send(hook, 'prometheus', 'firing-partly-resolved.json');
    await alertsWithThirdpartyId(acme, '7be2c45d0e9f3a11', (a) => a[0].status === 'resolved');
    const [still] = await alertsWithThirdpartyId(acme, '1a30ba71cca2921f', (a) => a[0].dedup_count === 1);
    expect(still.status).toBe('open');

    const quiet = await integrationOf('grafana');
    const now = Date.now();
    const window = await acme.api('POST', '/maintenance_windows', {
      name: 'Upgrade',
      time_zone: 'UTC',
      start_datetime: new Date(now - 60_000).toISOString().slice(0, 16).replace('T', ' '),
      end_datetime: new Date(now + 3_600_000).toISOString().slice(0, 16).replace('T', ' '),
      integration_ids: [quiet.id],
    });
    expect(window.status).toBe(201);
    const silenced = await send(quiet, 'grafana', 'firing.json');
    const log = await appliedLog(silenced.log_id);
    expect(log.details.sublogs.at(-1).message).toMatch(/^Ignored: maintenance window "Upgrade"/);
  });

  it('grafana: firing → resolved, and the Test notification is an alert like any other', async () => {
    const hook = await integrationOf('grafana', {}, { options: { capture_additional_data: true } });
    const key = '{}/{__grafana_autogenerated__="true"}/{__grafana_receiver__="Hark"}:{alertname="High memory usage", grafana_folder="Infrastructure"}';
    await send(hook, 'grafana', 'firing.json');
    const [created] = await alertsWithThirdpartyId(acme, key, (a) => a.length === 1);
    expect(created).toMatchObject({ title: 'High memory usage Infrastructure (blue warning)', urgency: 'medium' });
    expect(created.additional_data.map((d: { label: string }) => d.label)).toEqual(['Grafana', 'Source', 'Dashboard', 'Panel', 'Silence', 'receiver', 'orgId', 'version', 'state', 'message']);
    await send(hook, 'grafana', 'resolved.json');
    await alertsWithThirdpartyId(acme, key, (a) => a[0].status === 'resolved');
    await send(hook, 'grafana', 'test.json');
    const [test] = await alertsWithThirdpartyId(acme, 'test-57c6d9296de2ad39-1763634000');
    expect([test.title, test.status]).toEqual(['Notification test', 'open']);
    expect(await pagesOf(created.id)).toBe(1);
  });

  it('datadog: Triggered → Re-Triggered → Recovered by the alert cycle; the default payload by its title', async () => {
    const hook = await integrationOf('datadog');
    await send(hook, 'datadog', 'triggered.json');
    const [created] = await alertsWithThirdpartyId(acme, '7014543520514314402');
    expect(created).toMatchObject({ urgency: 'high', tag_list: ['env:prod', 'host:web01', 'monitor', 'service:shop'] });
    await send(hook, 'datadog', 're-triggered.json');
    await alertsWithThirdpartyId(acme, '7014543520514314402', (a) => a[0].dedup_count === 1);
    await send(hook, 'datadog', 'recovered.json');
    await alertsWithThirdpartyId(acme, '7014543520514314402', (a) => a[0].status === 'resolved');
    expect(await pagesOf(created.id)).toBe(1);
    await send(hook, 'datadog', 'default-triggered.json');
    await alertsWithThirdpartyId(acme, 'Disk almost full {host:db01}', (a) => a[0]?.status === 'open');
    await send(hook, 'datadog', 'default-recovered.json');
    await alertsWithThirdpartyId(acme, 'Disk almost full {host:db01}', (a) => a[0].status === 'resolved');
  });

  it('sentry: a signed issue created → assigned → resolved; a bad signature is 403, queues nothing, and is a refused log', async () => {
    const hook = await integrationOf('sentry', { client_secret: SENTRY_SECRET });
    const forged = await request('POST', `/integration/${hook.prefix_id}`, {
      rawBody: fixture('sentry', 'issue-created.json'),
      headers: { ...SENDER_HEADERS.sentry, 'sentry-hook-resource': 'issue', 'sentry-hook-signature': '0'.repeat(64) },
    });
    expect([forged.status, errorMessages(forged)]).toEqual([403, ["Sentry-Hook-Signature does not match the body signed with the integration's client_secret"]]);
    const unsigned = await request('POST', `/integration/${hook.prefix_id}`, { rawBody: fixture('sentry', 'issue-created.json'), headers: { 'sentry-hook-resource': 'issue' } });
    expect([unsigned.status, errorMessages(unsigned)]).toEqual([403, ['Missing Sentry-Hook-Signature header']]);
    // Nothing queued: the two refusals are only the integration's refused log (docs/ingest.md, "Refused requests").
    const refused = (await acme.api('GET', `/logs?owner_id=${hook.id}`)).body.data as { details: { refused?: { reason: string; count: number }; body: unknown } }[];
    expect(refused.every((log) => log.details.refused?.reason === 'invalid_signature' && log.details.body === null)).toBe(true);
    expect(refused.reduce((sum, log) => sum + (log.details.refused?.count ?? 0), 0)).toBe(2);

    await send(hook, 'sentry', 'issue-created.json', sentryHeaders('issue', 'issue-created.json'));
    const [created] = await alertsWithThirdpartyId(acme, '1170820242');
    expect(created).toMatchObject({ urgency: 'high', status: 'open', title: "TypeError: Cannot read properties of undefined (reading 'price')" });
    await send(hook, 'sentry', 'issue-assigned.json', sentryHeaders('issue', 'issue-assigned.json'));
    await alertsWithThirdpartyId(acme, '1170820242', (a) => a[0].status === 'acknowledged');
    await send(hook, 'sentry', 'issue-resolved.json', sentryHeaders('issue', 'issue-resolved.json'));
    await alertsWithThirdpartyId(acme, '1170820242', (a) => a[0].status === 'resolved');
    expect(await pagesOf(created.id)).toBe(1);

    await send(hook, 'sentry', 'metric-alert-critical.json', sentryHeaders('metric_alert', 'metric-alert-critical.json'));
    await alertsWithThirdpartyId(acme, '4121', (a) => a[0]?.urgency === 'critical');
    await send(hook, 'sentry', 'metric-alert-resolved.json', sentryHeaders('metric_alert', 'metric-alert-resolved.json'));
    await alertsWithThirdpartyId(acme, '4121', (a) => a[0].status === 'resolved');
  });

  it('sentry without a client_secret: the legacy plugin and an event alert create', async () => {
    const hook = await integrationOf('sentry');
    await send(hook, 'sentry', 'legacy-plugin.json');
    await alertsWithThirdpartyId(acme, '1170821500', (a) => a[0]?.urgency === 'medium');
    await send(hook, 'sentry', 'event-alert-triggered.json', { 'sentry-hook-resource': 'event_alert' });
    await alertsWithThirdpartyId(acme, '1170820977', (a) => a[0]?.title === 'Error: Payment gateway timeout');
  });

  it('azure_monitor and stackdriver: create then resolve by their keys', async () => {
    const azure = await integrationOf('azure_monitor');
    const azureId = '/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.AlertsManagement/alerts/0a0a0a0a-1b1b-2c2c-3d3d-4e4e4e4e4e4e';
    await send(azure, 'azure_monitor', 'fired.json');
    const [fired] = await alertsWithThirdpartyId(acme, azureId);
    expect([fired.urgency, fired.title]).toEqual(['high', 'High CPU on web VM on web-vm-1']);
    await send(azure, 'azure_monitor', 'resolved.json');
    await alertsWithThirdpartyId(acme, azureId, (a) => a[0].status === 'resolved');

    const google = await integrationOf('stackdriver');
    await send(google, 'stackdriver', 'open.json');
    const [open] = await alertsWithThirdpartyId(acme, '0.lj2va6zdkemq');
    expect([open.urgency, open.additional_data[0].value]).toEqual(['critical', 'https://console.cloud.google.com/monitoring/alerting/incidents/0.lj2va6zdkemq?project=shop-prod']);
    await send(google, 'stackdriver', 'closed.json');
    await alertsWithThirdpartyId(acme, '0.lj2va6zdkemq', (a) => a[0].status === 'resolved');
  });

  it('what a reader ignores is logged with the reason; bad bodies never reach a 500', async () => {
    const hook = await integrationOf('stackdriver');
    const ignored = await request('POST', `/integration/${hook.prefix_id}`, { body: { version: '1.2' } });
    expect(ignored.status).toBe(200);
    const log = await appliedLog(ignored.body.log_id);
    expect(log.details.sublogs.at(-1).message).toBe('Ignored: No incident object: not a Google Cloud Monitoring notification');
    for (const rawBody of ['[]', 'not json', '{"incident":', '"text"']) {
      const reply = await request('POST', `/integration/${hook.prefix_id}`, { rawBody });
      expect(reply.status, rawBody).toBe(400);
    }
  });
});
