// Opsgenie's answers as Hark gives them (lib/ingest/opsgenie/shapes.ts, reads.ts): alerts, request records, queries.
import { describe, expect, it } from 'vitest';
import type { AlertItem } from '#lib/alerts/items.ts';
import { parseAlertQuery } from '#lib/ingest/opsgenie/reads.ts';
import { genieKeyOf, isOpsgeniePath } from '#lib/ingest/opsgenie/intake.ts';
import { opsgenieAlert, requestRecord, type RecordedRequest } from '#lib/ingest/opsgenie/shapes.ts';

const alert = (status: string, extra: Record<string, unknown> = {}) =>
  ({
    id: '01JALERT',
    prefixId: 'alt_a',
    tinyId: 7,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:05:00.000Z',
    data: {
      title: 'Disk full',
      description: 'db1',
      urgency: 'high',
      status,
      tag_list: ['db'],
      source_type: 'Integration',
      source_id: '01JINT',
      thirdparty_id: 'disk-db1',
      acknowledged_at: status === 'acknowledged' ? '2026-01-01T00:01:00.000Z' : null,
      dedup_count: 3,
      additional_data: [
        { format: 'text', label: 'Source', value: 'Alertmanager' },
        { format: 'text', label: 'Actions', value: 'Restart' },
        { format: 'text', label: 'value', value: '1.42' },
      ],
      destination_team_ids: ['01JTEAM'],
      destination_account_user_ids: [],
      ...extra,
    },
  }) as unknown as AlertItem;

describe('opsgenieAlert', () => {
  it('shows a Hark alert as Opsgenie does: open/closed with acknowledged, the alias, the priority, the count', () => {
    expect(opsgenieAlert(alert('acknowledged'), true)).toMatchObject({
      id: '01JALERT',
      tinyId: '7',
      alias: 'disk-db1',
      message: 'Disk full',
      status: 'open',
      acknowledged: true,
      count: 4,
      priority: 'P2',
      source: 'Alertmanager',
      tags: ['db'],
      responders: [{ id: '01JTEAM', type: 'team' }],
      description: 'db1',
      details: { value: '1.42' },
    });
    const closed = opsgenieAlert(alert('resolved'), false);
    expect([closed.status, closed.acknowledged, 'description' in closed, 'details' in closed]).toEqual(['closed', false, false, false]);
  });
});

describe('requestRecord', () => {
  const request = (path: string, notes: RecordedRequest['notes'], method = 'POST', query: Record<string, string> = {}): RecordedRequest => ({ integrationId: '01JINT', method, path, query, notes });
  const alerts = new Map([['01JALERT', alert('open')]]);
  const at = '2026-01-01T00:00:01.000Z';

  it('a create that made an alert: success, Create, the alert and its alias', () => {
    expect(requestRecord(request('/v2/alerts', [{ message: 'Priority P2 → urgency high', created_at: at }, { message: 'Created alert alt_a (open)', alert_id: '01JALERT', created_at: at }]), 'int_x', alerts)).toEqual({
      success: true,
      action: 'Create',
      processedAt: at,
      integrationId: 'int_x',
      isSuccess: true,
      status: 'Created alert',
      alertId: '01JALERT',
      alias: 'disk-db1',
    });
  });

  it('a close by alias of no alert, and an unacknowledge, fail with the reason', () => {
    const missing = requestRecord(request('/v2/alerts/x/close', [{ message: 'Ignored: no alert of this integration has Id "x", so there is nothing to resolve', created_at: at }], 'POST', { identifierType: 'alias' }), 'int_x', alerts);
    expect(missing).toMatchObject({ success: false, action: 'Close', status: 'no alert of this integration has Id "x", so there is nothing to resolve', alertId: '', alias: '' });
    const unack = requestRecord(request('/v2/alerts/x/unacknowledge', [{ message: 'Ignored: UnAcknowledge is not supported: …', created_at: at }]), 'int_x', alerts);
    expect(unack).toMatchObject({ success: false, action: 'UnAcknowledge', status: 'UnAcknowledge is not supported: …' });
  });

  it('an update to the values the alert has succeeds (Alertmanager repeats its message)', () => {
    expect(requestRecord(request('/v2/alerts/disk-db1/message', [{ message: 'Ignored: alert alt_a already has the values sent (title)', alert_id: '01JALERT', created_at: at }], 'PUT', { identifierType: 'alias' }), 'int_x', alerts)).toMatchObject({
      success: true,
      action: 'UpdateMessage',
      status: 'Alert already has the values sent',
      alertId: '01JALERT',
    });
  });

  it('a duplicate create and an acknowledge succeed with their own status', () => {
    expect(requestRecord(request('/v2/alerts', [{ message: 'Deduplicated into alert alt_a (still open): dedup_count 3, nobody paged', alert_id: '01JALERT', created_at: at }]), 'int_x', alerts)).toMatchObject({
      success: true,
      status: 'Alert deduplicated',
    });
    expect(requestRecord(request('/v2/alerts/disk-db1/acknowledge', [{ message: 'Acknowledged alert alt_a', alert_id: '01JALERT', created_at: at }]), 'int_x', alerts)).toMatchObject({
      action: 'Acknowledge',
      status: 'Acknowledged alert',
      alias: 'disk-db1',
    });
  });
});

describe('the door', () => {
  it('reads the GenieKey header, else ?apiKey=', () => {
    expect(genieKeyOf({ headers: { Authorization: 'GenieKey abc' } })).toBe('abc');
    expect(genieKeyOf({ headers: { authorization: 'geniekey  abc ' } })).toBe('abc');
    expect(genieKeyOf({ headers: { authorization: 'Bearer abc' }, queryStringParameters: { apiKey: 'q' } })).toBe('q');
    expect(genieKeyOf({ headers: {} })).toBeUndefined();
  });

  it('knows its paths at the root and under an integration', () => {
    expect(['/v2/alerts', '/v2/alerts/a/close', '/integration/int_x/v2/heartbeats/n/ping'].map(isOpsgeniePath)).toEqual([true, true, true]);
    expect(['/integration/int_x', '/v2/enqueue', '/api/v4/alerts'].map(isOpsgeniePath)).toEqual([false, false, false]);
  });

  it('a list query names status and alias only', () => {
    expect(parseAlertQuery('status:open AND alias:"disk-db1"')).toEqual({ status: 'open', alias: 'disk-db1' });
    expect(parseAlertQuery('')).toEqual({});
    expect(() => parseAlertQuery('priority:P1')).toThrow(/Request body is not processable/);
  });
});
