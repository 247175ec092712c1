// The payloads of real monitors (test/fixtures/monitors/README.md) are read to the right event, Id, title and urgency.
import { describe, expect, it } from 'vitest';
import { readFlat as readGenericWebhook } from '../../support/generic-reading.ts';
import { MONITOR_SEQUENCES, monitorPayload, ZABBIX_WRAPPER_KEY } from '../../fixtures/monitors/index.ts';

describe.each(Object.entries(MONITOR_SEQUENCES))('%s', (_monitor, sequence) => {
  it.each(sequence)('$file', ({ file, integration, expected }) => {
    const reading = readGenericWebhook(monitorPayload(file), {
      wrapperKey: integration.wrapperKey,
      captureAdditionalData: false,
      defaultUrgency: integration.urgency,
    });
    if (reading.event === 'ignored') throw new Error(`${file} was ignored: ${reading.reason}`);
    expect(reading).toMatchObject({ event: expected.event, thirdpartyId: expected.thirdpartyId, idGenerated: false });
    expect(reading.fields.title).toBe(expected.title);
    if (expected.urgency) expect(reading.fields.urgency).toBe(expected.urgency);
    else expect(reading.fields).not.toHaveProperty('urgency', expect.anything());
    // A monitor's own payload is read without a complaint.
    expect(reading.notes).toEqual([]);
  });
});

describe('details of the monitors’ payloads', () => {
  it('Uptime Kuma: the monitor id is the alert Id; heartbeat and monitor are additional data when captured', () => {
    const reading = readGenericWebhook(monitorPayload('uptime-kuma-down.json'), { wrapperKey: null, captureAdditionalData: true, defaultUrgency: 'low' });
    if (reading.event === 'ignored') throw new Error(reading.reason);
    expect(reading.fields.additional_data?.map((d) => d.label)).toEqual(['heartbeat', 'monitor']);
    expect(JSON.parse(reading.fields.additional_data![0]!.value)).toMatchObject({ monitorID: 12, status: 0 });
  });

  it('LibreNMS: the HTML description is kept as sent', () => {
    const reading = readGenericWebhook(monitorPayload('librenms-alert.json'), { wrapperKey: null, captureAdditionalData: false, defaultUrgency: 'medium' });
    if (reading.event === 'ignored') throw new Error(reading.reason);
    expect(reading.fields.description).toMatch(/^<h2>Alert for device web01\.example\.com/);
  });

  it('Zabbix: without the wrapper key its payload names no event and is ignored; with it, tags and severity are read', () => {
    const payload = monitorPayload('zabbix-problem.json');
    expect(readGenericWebhook(payload, { wrapperKey: null, captureAdditionalData: false, defaultUrgency: 'medium' })).toMatchObject({
      event: 'ignored',
      reason: 'No event_type; expected one of create, update, acknowledge, resolve',
    });
    const reading = readGenericWebhook(payload, { wrapperKey: ZABBIX_WRAPPER_KEY, captureAdditionalData: true, defaultUrgency: 'medium' });
    if (reading.event === 'ignored') throw new Error(reading.reason);
    expect(reading.fields.tag_list).toEqual(['class:os', 'component:cpu', 'scope:performance']);
    expect(reading.fields.additional_data).toEqual([{ format: 'text', label: 'zabbix_url', value: 'https://zabbix.example.com' }]);
    for (const [severity, urgency] of [['0', 'low'], ['1', 'low'], ['2', 'medium'], ['3', 'medium'], ['4', 'high'], ['5', 'critical']] as const) {
      const bySeverity = readGenericWebhook({ ...payload, event_nseverity: severity }, { wrapperKey: ZABBIX_WRAPPER_KEY, captureAdditionalData: false, defaultUrgency: 'medium' });
      expect(bySeverity.event !== 'ignored' && bySeverity.fields.urgency, severity).toBe(urgency);
    }
    // Its own test message sends the macro unexpanded: a create, as the reference treats it.
    expect(readGenericWebhook({ ...payload, event_value: '{EVENT.VALUE}' }, { wrapperKey: ZABBIX_WRAPPER_KEY, captureAdditionalData: false, defaultUrgency: 'medium' }).event).toBe('create');
  });

  it('apprise: an acknowledge or resolve carries only the Id and the event', () => {
    expect(Object.keys(monitorPayload('apprise-resolve.json')).sort()).toEqual(['event_type', 'id']);
  });

  it('the interface example: Meta becomes an incident', () => {
    const reading = readGenericWebhook(monitorPayload('spec-create.json'), { wrapperKey: null, captureAdditionalData: false, defaultUrgency: 'medium' });
    if (reading.event === 'ignored') throw new Error(reading.reason);
    expect(reading.fields).toMatchObject({ tag_list: ['checkout', 'latency'], meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'Customers may see slow checkouts' } });
  });
});
