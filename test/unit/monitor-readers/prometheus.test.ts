// The Alertmanager and Grafana readers on recorded payloads (test/fixtures/monitors/prometheus, grafana).
import { describe, expect, it } from 'vitest';
import { alertGroupOptions, SEVERITY_URGENCY } from '#lib/monitor-readers/alert-groups.ts';
import { grafanaReader } from '#lib/monitor-readers/grafana.ts';
import { prometheusReader } from '#lib/monitor-readers/prometheus.ts';
import { typeOptionsChange } from '#lib/integrations/schema.ts';
import { fixtureRequest, jsonRequest, readerOptions } from './monitor-support.ts';

const GROUP_KEY = '{}/{severity="critical"}:{alertname="ProbeFailure"}';
const read = (file: string, options = readerOptions()) => prometheusReader.read(fixtureRequest('prometheus', file), options);

describe('prometheus reader (Alertmanager webhook, version 4)', () => {
  it('makes a firing group one create keyed by groupKey, then an update of its description', () => {
    const reading = read('firing.json');
    expect(reading.events.map((e) => [e.event, e.thirdpartyId])).toEqual([
      ['create', GROUP_KEY],
      ['update', GROUP_KEY],
    ]);
    const [create, update] = reading.events;
    expect(create!.fields.title).toBe('ProbeFailure');
    expect(create!.fields.urgency).toBe('critical');
    expect(create!.fields.description).toContain('Firing (2):\n- Probe failed: https://shop.example.org\n  https://shop.example.org has been unreachable for over 5m');
    expect(create!.fields.description).toContain('labels: alertname=ProbeFailure, instance=https://api.example.org, job=blackbox, severity=critical');
    expect(create!.fields.additional_data).toEqual([
      { format: 'link', label: 'Alertmanager', value: 'http://alertmanager.example.org:9093' },
      { format: 'link', label: 'Source', value: 'http://prometheus.example.org:9090/graph?g0.expr=probe_success+%3D%3D+0&g0.tab=1' },
    ]);
    expect(update!.fields).toEqual({ description: create!.fields.description });
    expect(create!.notes).toContain('Group firing: 1a30ba71cca2921f firing, 7be2c45d0e9f3a11 firing');
  });

  it('a repeat reads the same (the applier counts it a duplicate), and a partly resolved group lists both kinds', () => {
    expect(read('firing.json')).toEqual(read('firing.json'));
    const partly = read('firing-partly-resolved.json');
    expect(partly.events.map((e) => e.event)).toEqual(['create', 'update']);
    expect(partly.events[1]!.fields.description).toMatch(/^Firing \(1\):\n- Probe failed: https:\/\/shop.example.org[\s\S]*\n\nResolved \(1\):\n- Probe failed: https:\/\/api.example.org/);
  });

  it('resolves the group when Alertmanager says resolved', () => {
    const reading = read('resolved.json');
    expect(reading.events).toEqual([
      { event: 'resolve', thirdpartyId: GROUP_KEY, idGenerated: false, fields: {}, notes: ['Group resolved: 1a30ba71cca2921f resolved, 7be2c45d0e9f3a11 resolved'] },
    ]);
  });

  it('alert_per: alert makes one alert per fingerprint, each by its own status', () => {
    const options = readerOptions({ options: { alert_per: 'alert' } });
    const partly = read('firing-partly-resolved.json', options);
    expect(partly.events.map((e) => [e.event, e.thirdpartyId])).toEqual([
      ['create', '1a30ba71cca2921f'],
      ['resolve', '7be2c45d0e9f3a11'],
    ]);
    expect(partly.events[0]!.fields.title).toBe('Probe failed: https://shop.example.org');
    expect(partly.events[0]!.fields.urgency).toBe('critical');
  });

  it('maps the severity label to an urgency, else the integration urgency with a note', () => {
    expect(SEVERITY_URGENCY).toMatchObject({ critical: 'critical', error: 'high', high: 'high', page: 'high', warning: 'medium', info: 'low', low: 'low', none: 'low' });
    const payload = (severity: string | undefined) => ({
      status: 'firing',
      groupKey: 'g',
      alerts: [{ status: 'firing', labels: { alertname: 'X', ...(severity ? { severity } : {}) }, fingerprint: 'f' }],
      commonLabels: { alertname: 'X', ...(severity ? { severity } : {}) },
      groupLabels: { alertname: 'X', job: 'api' },
      version: '4',
    });
    const urgency = (severity?: string) => prometheusReader.read(jsonRequest(payload(severity)), readerOptions({ defaultUrgency: 'medium' })).events[0]!;
    expect(urgency('PAGE').fields.urgency).toBe('high');
    expect(urgency('info').fields.urgency).toBe('low');
    expect(urgency('sev-9').fields.urgency).toBe('medium');
    expect(urgency('sev-9').notes).toContain('severity label "sev-9" maps to no urgency; used the integration\'s medium');
    expect(urgency(undefined).fields.urgency).toBe('medium');
    expect(urgency(undefined).fields.title).toBe('X (job=api)');
  });

  it('without a common severity, takes the highest a firing member has', () => {
    const member = (severity: string, status = 'firing') => ({ status, labels: { alertname: 'X', severity }, fingerprint: severity });
    const body = { status: 'firing', groupKey: 'g', alerts: [member('warning'), member('critical', 'resolved'), member('page')], commonLabels: { alertname: 'X' } };
    expect(prometheusReader.read(jsonRequest(body), readerOptions({ defaultUrgency: 'low' })).events[0]!.fields.urgency).toBe('high');
  });

  it('ignores what is not a notification, with the reason, and never throws', () => {
    expect(prometheusReader.read(jsonRequest({ hello: 1 }), readerOptions()).ignoredReason).toBe('No alerts list: not a webhook notification of Alertmanager');
    expect(prometheusReader.read(jsonRequest({ alerts: [], status: 'pending' }), readerOptions()).ignoredReason).toBe('status "pending" is neither firing nor resolved');
    expect(prometheusReader.read({ method: 'POST', headers: {}, query: {}, body: 'text', rawBody: 'text' }, readerOptions()).events).toEqual([]);
    for (const body of [null, [], { alerts: [null, 1, 'x'], status: 'firing' }, { alerts: [{ labels: 5, annotations: [] }], status: 'firing', groupKey: 7 }]) {
      expect(() => prometheusReader.read(jsonRequest(body), readerOptions())).not.toThrow();
      expect(() => prometheusReader.read(jsonRequest(body), readerOptions({ options: { alert_per: 'alert' } }))).not.toThrow();
    }
  });

  it('hashes a group key longer than an alert key may be, and generates one when there is none', () => {
    const long = 'k'.repeat(2000);
    const hashed = prometheusReader.read(jsonRequest({ status: 'resolved', groupKey: long, alerts: [] }), readerOptions()).events[0]!;
    expect(hashed.thirdpartyId).toMatch(/^sha256:[0-9a-f]{64}$/);
    const none = prometheusReader.read(jsonRequest({ status: 'firing', alerts: [] }), readerOptions()).events[0]!;
    expect([none.thirdpartyId, none.idGenerated]).toEqual(['generated-0', true]);
  });

  it('keeps the other top-level fields with Capture Additional Data, and only http(s) links', () => {
    const reading = read('firing.json', readerOptions({ captureAdditionalData: true }));
    const data = reading.events[0]!.fields.additional_data!;
    expect(data.filter((d) => d.format === 'text').map((d) => d.label)).toEqual(['receiver', 'version']);
    const evil = prometheusReader.read(jsonRequest({ status: 'firing', groupKey: 'g', alerts: [{ status: 'firing', generatorURL: 'javascript:alert(1)' }] }), readerOptions()).events[0]!;
    expect(evil.fields.additional_data).toBeUndefined();
    expect(evil.notes).toContain('Source: not an http(s) URL of at most 2048 characters; left out');
  });

  it('validates alert_per', () => {
    expect(alertGroupOptions.safeParse({ alert_per: 'alert' }).success).toBe(true);
    expect(alertGroupOptions.safeParse({ alert_per: 'rule' }).error?.issues[0]?.message).toBe('must be one of group, alert');
    // The schema strips what it does not know (the stored options hold the common ones too); saving refuses it.
    expect(typeOptionsChange('prometheus', { alert_pr: 'alert', token: 't' }, {}).problems).toEqual([
      'options.alert_pr is not an option of prometheus (its options: token, capture_additional_data, wrapper_key, alert_per)',
    ]);
    expect(typeOptionsChange('grafana', { alert_per: null }, { alert_per: 'alert' })).toEqual({ options: {}, problems: [] });
    expect(typeOptionsChange('grafana', { alert_per: 'rule' }, {}).problems).toEqual(['options.alert_per must be one of group, alert']);
  });
});

describe('grafana reader (Grafana Alerting webhook)', () => {
  const readGrafana = (file: string, options = readerOptions()) => grafanaReader.read(fixtureRequest('grafana', file), options);
  const GRAFANA_KEY = '{}/{__grafana_autogenerated__="true"}/{__grafana_receiver__="Hark"}:{alertname="High memory usage", grafana_folder="Infrastructure"}';

  it('makes the group one alert with Grafana\'s title, severity and links', () => {
    const [create, update] = readGrafana('firing.json').events;
    expect([create!.event, create!.thirdpartyId, update!.event]).toEqual(['create', GRAFANA_KEY, 'update']);
    expect(create!.fields.title).toBe('High memory usage Infrastructure (blue warning)');
    expect(create!.fields.urgency).toBe('medium');
    expect(create!.fields.additional_data!.map((d) => d.label)).toEqual(['Grafana', 'Source', 'Dashboard', 'Panel', 'Silence']);
  });

  it('resolves it, and reads the Test notification as a create like any other', () => {
    expect(readGrafana('resolved.json').events.map((e) => [e.event, e.thirdpartyId])).toEqual([['resolve', GRAFANA_KEY]]);
    const test = readGrafana('test.json').events[0]!;
    expect([test.event, test.thirdpartyId, test.fields.title, test.fields.urgency]).toEqual(['create', 'test-57c6d9296de2ad39-1763634000', 'Notification test', 'high']);
  });

  it('keys a group without groupKey by its rule, and alert_per: alert by fingerprint', () => {
    const body = { status: 'firing', alerts: [{ status: 'firing', ruleUID: 'abc', fingerprint: 'f1' }], version: '1' };
    expect(grafanaReader.read(jsonRequest(body), readerOptions()).events[0]!.thirdpartyId).toBe('rule:abc');
    expect(readGrafana('firing.json', readerOptions({ options: { alert_per: 'alert' } })).events.map((e) => e.thirdpartyId)).toEqual(['c6eadffa33fcdf37', 'bc97ff14869b13e3']);
  });
});
