// The pagerduty reader and the Events API v2 checks the intake runs (docs/monitors.md, "PagerDuty Events API v2"), on
// the payloads of test/fixtures/monitors/pagerduty/ (Alertmanager 0.25 recorded; Grafana and Uptime Kuma built to
// their notifiers' code).
import { describe, expect, it } from 'vitest';
import { checkPagerDutyChange, checkPagerDutyEvent } from '#lib/monitor-readers/pagerduty-event.ts';
import { PAGERDUTY_SEVERITY, readPagerDuty } from '#lib/monitor-readers/pagerduty.ts';
import { fixtureRequest, jsonRequest, readerOptions } from './monitor-support.ts';

const read = (file: string, options = readerOptions()) => readPagerDuty(fixtureRequest('pagerduty', file), options);
const only = (file: string, options = readerOptions()) => {
  const reading = read(file, options);
  expect(reading.events).toHaveLength(1);
  return reading.events[0]!;
};
const KEY = '0123456789abcdef0123456789abcdef';
const trigger = (over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  routing_key: KEY,
  event_action: 'trigger',
  payload: { summary: 'Disk full', source: 'db-1', severity: 'critical', ...payload },
  ...over,
});

describe('reading the senders', () => {
  it("Alertmanager's trigger: one create keyed by its dedup_key, severity error → high, the details and the client link", () => {
    const event = only('alertmanager-trigger.json');
    expect(event).toMatchObject({
      event: 'create',
      thirdpartyId: '17c4e445d234645c9e547ff6d32a864af0ebdadcd1902771c24c8d366637ff41',
      idGenerated: false,
      fields: { title: '[FIRING:2] DiskFull (critical)', urgency: 'high', meta: { severity: 'error', source: 'Alertmanager' } },
    });
    expect(event.fields.description).toContain('Severity: error\nSource: Alertmanager\n\nDetails:\nfiring: Labels:');
    expect(event.fields.additional_data).toEqual([
      { format: 'link', label: 'Alertmanager', value: 'http://alertmanager.example.org:9093/#/alerts?receiver=hark' },
      { format: 'text', label: 'severity', value: 'error' },
      { format: 'text', label: 'source', value: 'Alertmanager' },
      { format: 'text', label: 'firing', value: expect.stringContaining('instance = db-2:9100') },
      { format: 'text', label: 'num_firing', value: '2' },
      { format: 'text', label: 'num_resolved', value: '0' },
      { format: 'text', label: 'resolved', value: '' },
    ]);
  });

  it("Alertmanager's resolve names the same alert and carries nothing else", () => {
    expect(only('alertmanager-resolve.json')).toEqual({
      event: 'resolve',
      thirdpartyId: '17c4e445d234645c9e547ff6d32a864af0ebdadcd1902771c24c8d366637ff41',
      idGenerated: false,
      fields: {},
      notes: ['resolve → resolve'],
    });
  });

  it("Grafana's details of any JSON type are kept (non-strings as JSON), with its links and image", () => {
    const event = only('grafana-trigger.json');
    expect(event.fields).toMatchObject({ title: '[FIRING:1] High memory usage (web-3 prod)', urgency: 'critical', meta: { component: 'Grafana', group: 'default', class: 'default' } });
    const data = event.fields.additional_data!;
    expect(data.filter((d) => d.format === 'link')).toEqual([
      { format: 'link', label: 'External URL', value: 'https://grafana.example.org/' },
      { format: 'link', label: 'Image', value: 'https://grafana.example.org/public/img/attachments/c7a1.png' },
    ]);
    const text = Object.fromEntries(data.filter((d) => d.format === 'text').map((d) => [d.label, d.value]));
    expect(text).toMatchObject({ num_firing: '1', silenced: 'false', values: '{"B":93.4,"C":1}', runbook: '', component: 'Grafana' });
    expect(event.fields.description).toContain('num_firing: 1\n');
    expect(event.fields.description).toContain('values: {"B":93.4,"C":1}');
    // The client link repeats the External URL: kept once.
    expect(data.filter((d) => d.value === 'https://grafana.example.org/')).toHaveLength(1);
    expect(only('grafana-resolve.json')).toMatchObject({ event: 'resolve', thirdpartyId: '5f3b8a1d0c7e4b2a9d6f1e3c8b0a7d4e2f9c6b1a3e8d5f0c7b4a9e2d6f1c3b8a' });
  });

  it("Uptime Kuma: its monitor's key, warning → medium; up resolves; the test button is an alert like any other", () => {
    expect(only('uptime-kuma-down.json')).toMatchObject({ event: 'create', thirdpartyId: 'Uptime Kuma/12', fields: { urgency: 'medium', title: '[Uptime Kuma Monitor 🔴 Down] [shop] connect ECONNREFUSED 10.0.4.12:443' } });
    expect(only('uptime-kuma-up.json')).toMatchObject({ event: 'resolve', thirdpartyId: 'Uptime Kuma/12' });
    expect(only('uptime-kuma-test.json')).toMatchObject({ event: 'create', thirdpartyId: 'Uptime Kuma/undefined' });
  });

  it('a change event pages no one: the request is recorded with its summary', () => {
    const request = { ...fixtureRequest('pagerduty', 'change-event.json'), path: '/v2/change/enqueue' };
    expect(readPagerDuty(request, readerOptions())).toEqual({
      events: [],
      ignoredReason: 'Change event recorded (change events page no one): Deployed checkout v2.14.0 to production',
      notes: [],
    });
  });
});

describe('the mapping', () => {
  it('maps each severity as the other readers map the same word', () => {
    expect(PAGERDUTY_SEVERITY).toEqual({ critical: 'critical', error: 'high', warning: 'medium', info: 'low' });
    for (const [severity, urgency] of Object.entries(PAGERDUTY_SEVERITY)) {
      expect(readPagerDuty(jsonRequest(trigger({ dedup_key: 'k' }, { severity })), readerOptions()).events[0]!.fields.urgency).toBe(urgency);
    }
  });

  it('a trigger without a dedup_key is keyed by the generated id of event 0, as the intake answers it', () => {
    const event = readPagerDuty(jsonRequest(trigger()), readerOptions()).events[0]!;
    expect(event).toMatchObject({ thirdpartyId: 'generated-0', idGenerated: true });
    expect(event.notes).toContain('No dedup_key; generated generated-0');
  });

  it('a summary over 255 characters is cut in the title and heads the description whole', () => {
    const summary = 's'.repeat(1_000);
    const event = readPagerDuty(jsonRequest(trigger({ dedup_key: 'k' }, { summary })), readerOptions()).events[0]!;
    expect(event.fields.title).toHaveLength(255);
    expect(event.fields.description!.startsWith(`${summary}\n\n`)).toBe(true);
  });

  it('keeps only http(s) links, names them by text, alt or client; captures unread top-level fields when asked', () => {
    const body = trigger(
      {
        dedup_key: 'k',
        links: [{ href: 'https://runbook.example.org/disk', text: 'Runbook' }, { href: 'javascript:alert(1)', text: 'Bad' }],
        images: [{ src: 'https://img.example.org/a.png', href: 'https://dash.example.org/a', alt: 'Dashboard' }],
        client: 'Kibana',
        client_url: 'https://kibana.example.org/app/rules/1',
        team: 'storage',
      },
      { timestamp: '2026-11-28T09:00:00Z', custom_details: 'free text details' },
    );
    const event = readPagerDuty(jsonRequest(body), readerOptions({ captureAdditionalData: true })).events[0]!;
    expect(event.fields.additional_data!.filter((d) => d.format === 'link')).toEqual([
      { format: 'link', label: 'Runbook', value: 'https://runbook.example.org/disk' },
      { format: 'link', label: 'Dashboard', value: 'https://dash.example.org/a' },
      { format: 'link', label: 'Kibana', value: 'https://kibana.example.org/app/rules/1' },
    ]);
    expect(event.notes).toContain('Bad: not an http(s) URL of at most 2048 characters; left out');
    expect(event.fields.additional_data).toContainEqual({ format: 'text', label: 'custom_details', value: 'free text details' });
    expect(event.fields.additional_data).toContainEqual({ format: 'text', label: 'timestamp', value: '2026-11-28T09:00:00Z' });
    expect(event.fields.additional_data).toContainEqual({ format: 'text', label: 'team', value: 'storage' });
    expect(event.fields.description).toContain('Details: free text details');
  });

  it('acknowledge and resolve act on the dedup_key; without one they name no alert', () => {
    expect(readPagerDuty(jsonRequest({ routing_key: KEY, event_action: 'acknowledge', dedup_key: 'k' }), readerOptions()).events[0]).toMatchObject({ event: 'acknowledge', thirdpartyId: 'k' });
    expect(readPagerDuty(jsonRequest({ routing_key: KEY, event_action: 'resolve' }), readerOptions())).toMatchObject({ events: [], ignoredReason: 'A resolve without a dedup_key names no alert' });
  });
});

describe("PagerDuty's checks at the door", () => {
  it('passes the senders', () => {
    for (const file of ['alertmanager-trigger.json', 'alertmanager-resolve.json', 'grafana-trigger.json', 'grafana-resolve.json', 'uptime-kuma-down.json', 'uptime-kuma-up.json', 'uptime-kuma-test.json']) {
      expect(checkPagerDutyEvent(fixtureRequest('pagerduty', file).body), file).toMatchObject({ ok: true, routingKey: '0'.repeat(32) });
    }
    expect(checkPagerDutyChange(fixtureRequest('pagerduty', 'change-event.json').body)).toEqual({ ok: true, routingKey: '0'.repeat(32) });
    expect(checkPagerDutyEvent(trigger())).toEqual({ ok: true, routingKey: KEY, action: 'trigger' });
    // PagerDuty requires payload.source; Hark takes a trigger without it (docs/migrating.md).
    expect(checkPagerDutyEvent(trigger({}, { source: undefined }))).toMatchObject({ ok: true });
    expect(checkPagerDutyEvent(trigger({ dedup_key: 'abc' }))).toEqual({ ok: true, routingKey: KEY, action: 'trigger', dedupKey: 'abc' });
  });

  it('names every field it refuses, in PagerDuty words', () => {
    const errors = (body: unknown) => {
      const check = checkPagerDutyEvent(body);
      return check.ok ? [] : check.errors;
    };
    expect(errors([])).toEqual(['The event must be a JSON object']);
    expect(errors({})).toEqual([`'routing_key' is missing or blank`, `'event_action' is missing or blank`]);
    expect(errors(trigger({ routing_key: 'short' }))).toEqual([`Length of 'routing_key' is incorrect (should be 32 characters)`]);
    expect(errors(trigger({ event_action: 'create' }))).toEqual([`'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')`]);
    expect(errors(trigger({ dedup_key: 'x'.repeat(256) }))).toEqual([`Length of 'dedup_key' is greater than 255 characters`]);
    expect(errors(trigger({ dedup_key: 7 }))).toEqual([`'dedup_key' must be a string`]);
    expect(errors({ routing_key: KEY, event_action: 'acknowledge' })).toEqual([`'dedup_key' is missing or blank (an acknowledge names the alert by it)`]);
    expect(errors(trigger({ payload: 'Disk full' }))).toEqual([`'payload' is missing or not an object`]);
    expect(errors(trigger({}, { summary: ' ', severity: 'fatal' }))).toEqual([
      `'payload.summary' is missing or blank`,
      `'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')`,
    ]);
    expect(errors(trigger({}, { summary: 'x'.repeat(1_025) }))).toEqual([`Length of 'payload.summary' is greater than 1,024 characters`]);
    expect(errors(trigger({}, { timestamp: 'yesterday', component: 3 }))).toEqual([`'payload.timestamp' is invalid (must be an ISO 8601 timestamp)`, `'payload.component' must be a string`]);
    expect(errors(trigger({ links: [{ text: 'no href' }], images: {} }))).toEqual([`'links[0].href' is missing or blank`, `'images' must be a list`]);
    // An acknowledge or resolve is not checked for a payload (Alertmanager sends one, Uptime Kuma does too).
    expect(errors({ routing_key: KEY, event_action: 'resolve', dedup_key: 'k', payload: 'anything' })).toEqual([]);
    expect(checkPagerDutyChange({ routing_key: KEY, payload: {} })).toEqual({ ok: false, errors: [`'payload.summary' is missing or blank`] });
  });
});
