// The Datadog reader on recorded payloads (test/fixtures/monitors/datadog): Hark's template and Datadog's default.
import { describe, expect, it } from 'vitest';
import { DATADOG_PRIORITY, datadogReader, titlePrefix } from '#lib/monitor-readers/datadog.ts';
import { fixtureRequest, jsonRequest, readerOptions } from './monitor-support.ts';

const read = (file: string, options = readerOptions()) => datadogReader.read(fixtureRequest('datadog', file), options);

describe('datadog reader', () => {
  it('creates on Triggered, keyed by the alert cycle, with priority, tags, message and link', () => {
    const [create] = read('triggered.json').events;
    expect(create!.event).toBe('create');
    expect(create!.thirdpartyId).toBe('7014543520514314402');
    expect(create!.fields.title).toBe('[P2] [Triggered on {host:web01}] CPU above 90% on web01');
    expect(create!.fields.urgency).toBe('high');
    expect(create!.fields.tag_list).toEqual(['env:prod', 'host:web01', 'monitor', 'service:shop']);
    expect(create!.fields.description).toMatch(/^CPU has been above 90% for 10 minutes on web01\.[\s\S]*Edit Monitor[^%]*$/);
    expect(create!.fields.additional_data).toEqual([{ format: 'link', label: 'Datadog', value: 'https://app.datadoghq.com/event/event?id=7014543520514314401' }]);
  });

  it('Re-Triggered creates again (a duplicate of the active alert) and Recovered resolves the same key', () => {
    expect(read('re-triggered.json').events.map((e) => [e.event, e.thirdpartyId])).toEqual([['create', '7014543520514314402']]);
    expect(read('recovered.json').events).toEqual([
      { event: 'resolve', thirdpartyId: '7014543520514314402', idGenerated: false, fields: {}, notes: ['Recovered → resolve'] },
    ]);
  });

  it('reads the default payload by its title prefix, keyed by the title without it', () => {
    const [create] = read('default-triggered.json').events;
    expect([create!.event, create!.thirdpartyId, create!.fields.urgency]).toEqual(['create', 'Disk almost full {host:db01}', 'high']);
    expect(read('default-recovered.json').events.map((e) => [e.event, e.thirdpartyId])).toEqual([['resolve', 'Disk almost full {host:db01}']]);
  });

  it('Warn and No Data create; falls back to the monitor id; other transitions are ignored', () => {
    for (const transition of ['Warn', 'No Data', 'Re-Warn', 'Renotify']) {
      expect(datadogReader.read(jsonRequest({ transition, alert_id: '42', title: 'x' }), readerOptions()).events[0]!.event).toBe('create');
    }
    const byMonitor = datadogReader.read(jsonRequest({ transition: 'Triggered', cycle_key: '$ALERT_CYCLE_KEY', alert_id: '42', title: 'x' }), readerOptions()).events[0]!;
    expect(byMonitor.thirdpartyId).toBe('42');
    expect(byMonitor.notes).toContain('No cycle_key; keyed by the monitor id 42');
    expect(datadogReader.read(jsonRequest({ transition: 'Null', alert_id: '42' }), readerOptions()).ignoredReason).toBe('Transition "Null" neither opens nor recovers an alert; nothing to do');
    expect(datadogReader.read(jsonRequest({ title: 'Hello' }), readerOptions()).ignoredReason).toMatch(/^No transition/);
    expect(datadogReader.read(jsonRequest({ transition: 'Triggered' }), readerOptions()).ignoredReason).toBe('No cycle_key, alert_id or titled alert to key the alert by');
  });

  it('maps priorities, splits title prefixes, and survives any value', () => {
    expect(DATADOG_PRIORITY).toEqual({ p1: 'critical', p2: 'high', p3: 'medium', p4: 'low', p5: 'low' });
    expect(titlePrefix('[P1] [Re-Triggered on {a:b,c:d}] Name [x]')).toEqual({ transition: 'Re-Triggered', scope: '{a:b,c:d}', rest: 'Name [x]' });
    expect(titlePrefix('[Recovered] Name')).toEqual({ transition: 'Recovered', rest: 'Name' });
    expect(titlePrefix('[Something] Name')).toBeUndefined();
    for (const body of [null, 'text', { transition: 5, title: {}, tags: [1], priority: null }, { transition: 'Triggered', cycle_key: 'k', tags: 7, link: 'ftp://x' }]) {
      expect(() => datadogReader.read(jsonRequest(body), readerOptions())).not.toThrow();
    }
  });

  it('keeps the default payload\'s other fields with Capture Additional Data', () => {
    const data = read('default-triggered.json', readerOptions({ captureAdditionalData: true })).events[0]!.fields.additional_data!;
    expect(data.map((d) => d.label)).toEqual(['last_updated', 'event_type', 'date', 'org', 'id']);
  });
});
