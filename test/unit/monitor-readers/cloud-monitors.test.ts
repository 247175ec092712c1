// The Azure Monitor and Google Cloud Monitoring readers on recorded payloads (test/fixtures/monitors/azure_monitor, stackdriver).
import { describe, expect, it } from 'vitest';
import { AZURE_SEVERITY, azureMonitorReader } from '#lib/monitor-readers/azure_monitor.ts';
import { stackdriverReader } from '#lib/monitor-readers/stackdriver.ts';
import { fixtureRequest, jsonRequest, readerOptions } from './monitor-support.ts';

const AZURE_ID = '/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.AlertsManagement/alerts/0a0a0a0a-1b1b-2c2c-3d3d-4e4e4e4e4e4e';

describe('azure_monitor reader (common alert schema)', () => {
  const read = (file: string, options = readerOptions()) => azureMonitorReader.read(fixtureRequest('azure_monitor', file), options);

  it('Fired creates keyed by alertId, Sev1 → high; Resolved resolves', () => {
    const create = read('fired.json').events[0]!;
    expect([create.event, create.thirdpartyId, create.fields.title, create.fields.urgency]).toEqual(['create', AZURE_ID, 'High CPU on web VM on web-vm-1', 'high']);
    expect(create.fields.description).toContain('CPU above 90% for 5 minutes\nSeverity: Sev1\nSignal: Metric');
    expect(read('resolved.json').events.map((e) => [e.event, e.thirdpartyId])).toEqual([['resolve', AZURE_ID]]);
  });

  it('maps every severity and ignores other shapes', () => {
    expect(AZURE_SEVERITY).toEqual({ sev0: 'critical', sev1: 'high', sev2: 'medium', sev3: 'low', sev4: 'low' });
    expect(azureMonitorReader.read(jsonRequest({ schemaId: 'x', data: { context: {} } }), readerOptions()).ignoredReason).toMatch(/^No data.essentials: not the common alert schema/);
    expect(azureMonitorReader.read(jsonRequest({ data: { essentials: { alertId: 'a', monitorCondition: 'Other' } } }), readerOptions()).ignoredReason).toBe('essentials.monitorCondition "Other" is neither Fired nor Resolved');
    const captured = read('fired.json', readerOptions({ captureAdditionalData: true })).events[0]!.fields.additional_data!;
    expect(captured.map((d) => d.label)).toEqual(['schemaId']);
    for (const body of [null, { data: null }, { data: { essentials: [] } }, { data: { essentials: { alertId: 5, monitorCondition: 'Fired', configurationItems: 'x', alertTargetIDs: [null] } } }]) {
      expect(() => azureMonitorReader.read(jsonRequest(body), readerOptions())).not.toThrow();
    }
  });
});

describe('stackdriver reader (Google Cloud Monitoring)', () => {
  const read = (file: string) => stackdriverReader.read(fixtureRequest('stackdriver', file), readerOptions());

  it('open creates keyed by incident_id with the incident link; closed resolves', () => {
    const create = read('open.json').events[0]!;
    expect([create.event, create.thirdpartyId, create.fields.title, create.fields.urgency]).toEqual(['create', '0.lj2va6zdkemq', 'Web CPU: VM Instance - CPU utilization', 'critical']);
    expect(create.fields.additional_data).toEqual([{ format: 'link', label: 'Google Cloud incident', value: 'https://console.cloud.google.com/monitoring/alerting/incidents/0.lj2va6zdkemq?project=shop-prod' }]);
    expect(create.fields.description).toMatch(/^CPU utilization for shop-prod web-1[\s\S]*Resource: shop-prod web-1\n\nScale the web pool/);
    expect(read('closed.json').events.map((e) => [e.event, e.thirdpartyId])).toEqual([['resolve', '0.lj2va6zdkemq']]);
  });

  it('reads state in any case, takes the integration urgency without a severity, ignores other shapes', () => {
    const open = stackdriverReader.read(jsonRequest({ incident: { incident_id: 'i', state: 'OPEN', severity: 'No severity', policy_name: 'P' } }), readerOptions({ defaultUrgency: 'low' })).events[0]!;
    expect([open.event, open.fields.urgency, open.notes.length]).toEqual(['create', 'low', 1]);
    expect(stackdriverReader.read(jsonRequest({ version: '1.2' }), readerOptions()).ignoredReason).toBe('No incident object: not a Google Cloud Monitoring notification');
    for (const body of [null, { incident: [] }, { incident: { incident_id: {}, state: 'open' } }, { incident: { incident_id: 'i', state: 'open', documentation: 'x', url: 5 } }]) {
      expect(() => stackdriverReader.read(jsonRequest(body), readerOptions())).not.toThrow();
    }
  });
});
