import { describe, expect, it } from 'vitest';
import { renderListedLog, renderLog } from '#lib/ingest/logs.ts';
import { sourceLogWrites } from '#lib/ingest/source-log.ts';
import type { IngestMessage } from '#lib/queue/ingest.ts';

const message = (body: unknown): IngestMessage => ({
  kind: 'webhook',
  requestId: 'req-9',
  accountId: 'acct',
  integrationId: 'INT1',
  receivedAt: '2026-11-20T08:00:00.000Z',
  method: 'POST',
  path: '/integration/int_abcdefghijkl',
  headers: { 'user-agent': 'Uptime-Kuma/2.0.0' },
  query: { env: 'prod' },
  sourceIp: '203.0.113.7',
  body,
});

describe('renderLog', () => {
  it('shows the request under details, owned by the integration, with the notes as sublogs', () => {
    const { item } = sourceLogWrites(message({ event_type: 'create' }), [{ message: 'Created alert alt_x', alert_id: 'A1' }]);
    item.notes.push({ message: 'later', created_at: '2026-11-20T08:00:05.000Z' });
    expect(renderListedLog(item)).toEqual({
      id: item.id,
      prefix_id: item.prefixId,
      account_id: 'acct',
      format: 'json',
      level: 'info',
      owner_id: 'INT1',
      owner_type: 'Integration',
      details: {
        message: 'POST /integration/int_abcdefghijkl',
        request_id: 'req-9',
        method: 'POST',
        url: '/integration/int_abcdefghijkl',
        headers: { 'user-agent': 'Uptime-Kuma/2.0.0' },
        params: { env: 'prod' },
        remote_ip: '203.0.113.7',
        body: { event_type: 'create' },
        body_bytes: 23,
        body_omitted: false,
        sublogs: [
          { message: 'Created alert alt_x', alert_id: 'A1', maintenance_window_id: null, created_at: '2026-11-20T08:00:00.000Z' },
          { message: 'later', alert_id: null, maintenance_window_id: null, created_at: '2026-11-20T08:00:05.000Z' },
        ],
      },
      meta: {},
      created_at: '2026-11-20T08:00:00.000Z',
      updated_at: '2026-11-20T08:00:05.000Z',
    });
  });

  it('a list leaves out a body stored in chunks; the single view shows the body it is given', () => {
    const { item } = sourceLogWrites(message({ blob: 'b'.repeat(20_000) }));
    expect(renderListedLog(item).details).toMatchObject({ body: null, body_omitted: true, body_bytes: 20_011 });
    expect(renderLog(item, { value: { blob: 'b' } }).details).toMatchObject({ body: { blob: 'b' }, body_omitted: false });
  });
});
