// The Opsgenie reader and its call checks on requests in the senders' shapes (test/fixtures/monitors/opsgenie).
import { describe, expect, it } from 'vitest';
import { callErrors, opsgenieCallOf } from '#lib/monitor-readers/opsgenie-calls.ts';
import { OPSGENIE_PRIORITY, opsgenieReader } from '#lib/monitor-readers/opsgenie.ts';
import type { ReaderRequest } from '#lib/monitor-readers/types.ts';
import { fixtureText, readerOptions } from './monitor-support.ts';

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

const recorded = (file: string): ReaderRequest => {
  const r = JSON.parse(fixtureText('opsgenie', file)) as Recorded;
  return { method: r.method, path: r.path, query: r.query, headers: r.headers, body: r.body, rawBody: JSON.stringify(r.body) };
};
const request = (method: string, path: string, body: unknown = {}, query: Record<string, string> = {}): ReaderRequest => ({
  method,
  path,
  query,
  headers: {},
  body,
  rawBody: JSON.stringify(body),
});
const read = (r: ReaderRequest) => opsgenieReader.read(r, readerOptions());
const AM_ALIAS = '4c26a688747092baaccb8a2be623c6ee92dde0bb2d46ef34d57d6c6eb7c95dae';

describe('opsgenie reader: Alertmanager opsgenie_configs with update_alerts', () => {
  it('a create keyed by the alias, priority → urgency, tags, details and source as additional data', () => {
    const reading = read(recorded('alertmanager-create.json'));
    expect(reading.events).toHaveLength(1);
    const [create] = reading.events;
    expect(create).toMatchObject({ event: 'create', thirdpartyId: AM_ALIAS, idGenerated: false });
    expect(create!.fields).toMatchObject({ title: '[FIRING:2] DiskFull (critical)', urgency: 'critical', tag_list: ['DiskFull', 'critical'] });
    expect(create!.fields.description).toMatch(/^Alerts Firing:\nLabels:\n - alertname = DiskFull/);
    expect(create!.fields.additional_data).toEqual([
      { format: 'text', label: 'Source', value: 'http://alertmanager.example.com:9093/#/alerts?receiver=opsgenie' },
      { format: 'text', label: 'alertname', value: 'DiskFull' },
      { format: 'text', label: 'severity', value: 'critical' },
    ]);
    expect(create!.notes).toContain('Priority P1 → urgency critical');
  });

  it('PUT message and description by alias are updates of the title and the description', () => {
    expect(read(recorded('alertmanager-update-message.json')).events).toMatchObject([{ event: 'update', thirdpartyId: AM_ALIAS, fields: { title: '[FIRING:2] DiskFull (critical)' } }]);
    const [update] = read(recorded('alertmanager-update-description.json')).events;
    expect(update).toMatchObject({ event: 'update', thirdpartyId: AM_ALIAS });
    expect(Object.keys(update!.fields)).toEqual(['description']);
  });

  it('close by alias resolves the alert of that alias', () => {
    expect(read(recorded('alertmanager-close.json')).events).toMatchObject([{ event: 'resolve', thirdpartyId: AM_ALIAS, fields: {} }]);
    expect(read(recorded('alertmanager-close.json')).events[0]!.alertRef).toBeUndefined();
  });
});

describe('opsgenie reader: Grafana contact point', () => {
  it('details of any JSON type become text, responders ride for the applier', () => {
    const [create] = read(recorded('grafana-create.json')).events;
    expect(create!.fields.urgency).toBe('high');
    expect(create!.fields.tag_list).toEqual(['alertname:High latency', 'service:checkout']);
    expect(create!.fields.responders).toEqual([{ type: 'team', name: 'Checkout' }]);
    const data = Object.fromEntries((create!.fields.additional_data ?? []).map((d) => [d.label, d.value]));
    expect(data).toMatchObject({ Source: 'Grafana', value: '1.42', firing: 'true', threshold: '{"B":1}', dashboards: '["api","checkout"]', note: '' });
    expect(read(recorded('grafana-close.json')).events).toMatchObject([{ event: 'resolve', thirdpartyId: create!.thirdpartyId }]);
  });
});

describe('opsgenie reader: calls', () => {
  it('P1…P5 map to critical, high, medium, low, low; none takes the integration urgency', () => {
    expect(OPSGENIE_PRIORITY).toEqual({ p1: 'critical', p2: 'high', p3: 'medium', p4: 'low', p5: 'low' });
    expect(read(request('POST', '/v2/alerts', { message: 'x', priority: 'P5' })).events[0]!.fields.urgency).toBe('low');
    expect(read(request('POST', '/v2/alerts', { message: 'x' })).events[0]!.fields.urgency).toBe('high');
  });

  it('a create without alias gets a generated key; with a note, a comment follows the create', () => {
    const reading = read(request('POST', '/integration/int_Ab12Cd34Ef56/v2/alerts', { message: 'Disk', note: 'runbook: x', user: 'ann' }));
    expect(reading.events.map((e) => [e.event, e.thirdpartyId, e.idGenerated])).toEqual([
      ['create', 'generated-0', true],
      ['comment', 'generated-0', true],
    ]);
    expect(reading.events[1]!.fields.comment).toBe('ann: runbook: x');
  });

  it('acknowledge, notes and tags by id name the alert by reference; tiny too', () => {
    const ack = read(request('POST', '/v2/alerts/alt_Ab12Cd34Ef56/acknowledge', { note: 'on it' }));
    expect(ack.events.map((e) => [e.event, e.alertRef])).toEqual([
      ['acknowledge', { by: 'id', value: 'alt_Ab12Cd34Ef56' }],
      ['comment', { by: 'id', value: 'alt_Ab12Cd34Ef56' }],
    ]);
    expect(read(request('POST', '/v2/alerts/42/notes', { note: 'hello' }, { identifierType: 'tiny' })).events).toMatchObject([
      { event: 'comment', alertRef: { by: 'tiny', value: '42' }, fields: { comment: 'hello' } },
    ]);
    expect(read(request('POST', '/v2/alerts/a/tags', { tags: ['x', 'y'] }, { identifierType: 'alias' })).events).toMatchObject([{ event: 'tag', thirdpartyId: 'a', fields: { tag_list: ['x', 'y'] } }]);
    expect(read(request('DELETE', '/v2/alerts/a/tags', {}, { identifierType: 'alias', tags: 'x, y' })).events).toMatchObject([
      { event: 'untag', thirdpartyId: 'a', fields: { tag_list: ['x', 'y'] } },
    ]);
  });

  it('unacknowledge and an unknown heartbeat name are read as no event, with the reason', () => {
    expect(read(request('POST', '/v2/alerts/a/unacknowledge', {}, { identifierType: 'alias' }))).toMatchObject({ events: [], ignoredReason: expect.stringMatching(/^UnAcknowledge is not supported/) });
    expect(read(recorded('curl-heartbeat-ping.json'))).toMatchObject({ events: [], ignoredReason: 'The heartbeat ping for "nightly-backup" pinged no heartbeat integration' });
  });
});

describe('opsgenie calls: what the intake refuses with 422', () => {
  const create = opsgenieCallOf('POST', '/v2/alerts', {})!;
  it('finds the call from the method and the path, root or under an integration', () => {
    expect(opsgenieCallOf('PUT', '/integration/int_x/v2/alerts/a%2Fb/message', { identifierType: 'alias' })).toEqual({ kind: 'message', identifier: 'a/b', identifierType: 'alias' });
    expect(opsgenieCallOf('PATCH', '/v2/heartbeats/nightly/ping', {})).toEqual({ kind: 'ping', name: 'nightly' });
    expect(opsgenieCallOf('GET', '/v2/alerts/a/close', {})).toBeUndefined();
    expect(opsgenieCallOf('POST', '/v2/alerts/a/snooze', {})).toBeUndefined();
  });

  it('message is required and at most 130 characters; alias at most 512; priority P1–P5; responders typed', () => {
    expect(callErrors(create, {}, {})).toEqual({ message: 'Message can not be empty.' });
    expect(callErrors(create, { message: 'x'.repeat(131) }, {})).toEqual({ message: 'Message can not be longer than 130 characters.' });
    expect(callErrors(create, { message: 'x', alias: 'a'.repeat(513), priority: 'P9', responders: [{ type: 'robot', name: 'r' }, { type: 'team' }], details: 'no' }, {})).toEqual({
      alias: 'alias can not be longer than 512 characters.',
      priority: "Priority should be one of these: 'P1', 'P2', 'P3', 'P4', 'P5'",
      'responders[0].type': 'Responder type must be one of team, user, escalation, schedule.',
      'responders[1]': 'Responder must have an id, a name or a username.',
      details: 'details must be an object.',
    });
    expect(callErrors(create, { message: 'ok', details: { n: 1, b: false, o: {} } }, {})).toEqual({});
  });

  it('an action checks its identifierType and its own field', () => {
    const on = (method: string, path: string, query: Record<string, string> = {}) => opsgenieCallOf(method, path, query)!;
    expect(callErrors(on('POST', '/v2/alerts/a/close', { identifierType: 'name' }), {}, {})).toEqual({ identifierType: 'identifierType must be one of id, alias, tiny.' });
    expect(callErrors(on('POST', '/v2/alerts/abc/close', { identifierType: 'tiny' }), {}, {})).toEqual({ identifier: 'A tiny id is a number.' });
    expect(callErrors(on('POST', '/v2/alerts/a/notes'), {}, {})).toEqual({ note: 'Note can not be empty.' });
    expect(callErrors(on('PUT', '/v2/alerts/a/description'), { description: '' }, {})).toEqual({});
    expect(callErrors(on('POST', '/v2/alerts/a/tags'), { tags: [] }, {})).toEqual({ tags: 'tags can not be empty.' });
    expect(callErrors(on('DELETE', '/v2/alerts/a/tags'), {}, { tags: ' , ' })).toEqual({ tags: 'tags can not be empty.' });
  });
});
