// The logs resource end to end: webhook POST through the gateway → queue → worker → GET /logs, /logs/:id; the
// owner filters, the member role, bodies at the size limit, and notes added once per worker step.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordLogNotes } from '#lib/ingest/source-log.ts';
import { MONITOR_SEQUENCES, monitorPayload, ZABBIX_WRAPPER_KEY } from '../fixtures/monitors/index.ts';
import { errorMessages, newAccount, pollUntil, request, useTestStack, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

const TOKEN = 'whk_logs_0123456789abcdef';

let acme: TestAccount;
let other: TestAccount;
let memberKey: string;
let first: { id: string; prefix_id: string };
let second: { id: string; prefix_id: string };

async function integration(account: TestAccount, body: Record<string, unknown>) {
  const reply = await account.api('POST', '/integrations', { account_user_ids: [account.adminAccountUserId], ...body });
  if (reply.status !== 201) throw new Error(`integration: ${reply.status} ${reply.text}`);
  return reply.body as { id: string; prefix_id: string };
}

beforeAll(async () => {
  useTestStack();
  [acme, other] = await Promise.all([newAccount('Logs'), newAccount('Other logs')]);
  memberKey = await createMemberKey(acme);
  first = await integration(acme, { name: 'First', options: { token: TOKEN } });
  second = await integration(acme, { name: 'Second' });
});

const asMember = (path: string) => request('GET', `/api/v4${path}`, { key: memberKey });

interface LogObject {
  id: string;
  prefix_id: string;
  owner_id: string;
  owner_type: string;
  created_at: string;
  updated_at: string;
  details: {
    method: string;
    url: string;
    headers: Record<string, string>;
    params: Record<string, string>;
    remote_ip: string | null;
    body: unknown;
    body_bytes: number;
    body_omitted: boolean;
    sublogs: { message: string; alert_id: string | null; maintenance_window_id: string | null; created_at: string }[];
  };
}

/** Posts a webhook request and waits until its log is listed; returns the listed log. */
async function logOfRequest(target: { id: string; prefix_id: string }, body: Record<string, unknown>, options: { headers?: Record<string, string>; query?: string } = {}) {
  const marker = randomUUID();
  const reply = await request('POST', `/integration/${target.prefix_id}${options.query ?? ''}`, { body: { ...body, marker }, headers: options.headers ?? {} });
  expect(reply.status).toBe(200);
  return pollUntil(async () => {
    const list = await asMember(`/logs?owner_id=${target.id}&limit=100`);
    return (list.body.data as LogObject[]).find((log) => log.details.body === null ? false : JSON.stringify(log.details.body).includes(marker));
  });
}

describe('GET /logs/:id', () => {
  it('shows one webhook request: method, url, headers without credentials, params, body, remote IP', async () => {
    const payload = { event_type: 'create', Id: 'disk-1', Title: 'Disk full' };
    const listed = await logOfRequest(first, payload, { headers: { 'service-token': TOKEN, 'x-origin': 'kuma', authorization: 'Bearer secret-x' }, query: '?env=prod' });
    expect(listed).toMatchObject({ owner_id: first.id, owner_type: 'Integration', details: { method: 'POST', url: `/integration/${first.prefix_id}` } });
    expect(listed.prefix_id).toMatch(/^log_[A-Za-z0-9]{14}$/);

    for (const id of [listed.id, listed.prefix_id]) {
      const reply = await asMember(`/logs/${id}`);
      expect(reply.status).toBe(200);
      const log = reply.body as LogObject;
      expect(log.id).toBe(listed.id);
      expect(log.details.body).toMatchObject(payload);
      expect(log.details.params).toEqual({ env: 'prod' });
      expect(log.details.headers['x-origin']).toBe('kuma');
      expect(log.details.headers['service-token']).toBe('[redacted]');
      expect(log.details.headers.authorization).toBe('[redacted]');
      expect(JSON.stringify(log)).not.toContain(TOKEN);
      expect(JSON.stringify(log)).not.toContain('secret-x');
      expect(log.details.remote_ip).toMatch(/127\.0\.0\.1/);
      // The only sublogs are the worker's own note of what it did (it may not have written it yet).
      expect(log.details.sublogs.map((sublog: { message: string }) => sublog.message)).toEqual(log.details.sublogs.length ? [expect.stringMatching(/^Created alert alt_/)] : []);
      expect(log.details.body_omitted).toBe(false);
    }
  });

  it('is 404 for an unknown log and for another account’s log; 401 without a key', async () => {
    const listed = await logOfRequest(second, { event_type: 'resolve', Id: 'x' });
    const foreign = await other.api('GET', `/logs/${listed.id}`);
    expect(foreign.status).toBe(404);
    expect(errorMessages(foreign)).toEqual(['Log not found']);
    expect((await other.api('GET', `/logs/${listed.prefix_id}`)).status).toBe(404);
    expect((await asMember('/logs/log_abcdefghijklmn')).status).toBe(404);
    expect((await asMember('/logs/01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    expect((await request('GET', `/api/v4/logs/${listed.id}`)).status).toBe(401);
    const otherList = await other.api('GET', '/logs');
    expect(otherList.body).toEqual({ data: [], has_more: false, total_count: 0 });
  });
});

describe('GET /logs', () => {
  it('lists newest first, filters by owner_id (id or prefix_id) and owner_type, and counts per owner', async () => {
    const account = await newAccount('Log lists');
    const a = await integration(account, { name: 'A' });
    const b = await integration(account, { name: 'B' });
    for (const [target, n] of [[a, 1], [b, 2], [a, 3]] as const) {
      expect((await request('POST', `/integration/${target.prefix_id}`, { body: { n } })).status).toBe(200);
      // Waits for each log, so the order of acceptance is the order of the logs.
      await pollUntil(async () => ((await account.api('GET', '/logs')).body.total_count === n ? true : undefined));
    }
    const all = await account.api('GET', '/logs');
    expect(all.body.total_count).toBe(3);
    expect((all.body.data as LogObject[]).map((log) => (log.details.body as { n: number }).n)).toEqual([3, 2, 1]);
    const oldest = await account.api('GET', '/logs?direction=asc&limit=1');
    expect(oldest.body).toMatchObject({ has_more: true, total_count: 3 });
    expect((oldest.body.data[0] as LogObject).details.body).toEqual({ n: 1 });

    for (const owner of [a.id, a.prefix_id]) {
      const ofA = await account.api('GET', `/logs?owner_id=${owner}&owner_type=Integration`);
      expect(ofA.body.total_count).toBe(2);
      expect((ofA.body.data as LogObject[]).map((log) => (log.details.body as { n: number }).n)).toEqual([3, 1]);
    }
    expect((await account.api('GET', `/logs?owner_id=${b.id}`)).body.total_count).toBe(1);
    expect((await account.api('GET', '/logs?owner_type=AccountUser')).body).toEqual({ data: [], has_more: false, total_count: 0 });
    // Other filters and sorts go through the list engine over the owner's logs.
    const two = await account.api('GET', `/logs?owner_id=${a.id}&details.body.n=3`);
    expect(two.body.total_count).toBe(1);
    const sorted = await account.api('GET', '/logs?sort=details.body.n&direction=desc');
    expect((sorted.body.data as LogObject[]).map((log) => (log.details.body as { n: number }).n)).toEqual([3, 2, 1]);
    const notA = await account.api('GET', `/logs?owner_id=${a.id}&ops=owner_id:ne`);
    expect((notA.body.data as LogObject[]).map((log) => log.owner_id)).toEqual([b.id]);
  });

  it('checks list parameters like every list', async () => {
    const reply = await asMember('/logs?limit=500');
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual(['limit must be an integer between 1 and 100']);
  });
});

describe('large bodies', () => {
  it('keeps a body at the size limit whole, with large headers; lists leave it out', async () => {
    const blob = 'q'.repeat(256 * 1024 - 200);
    const marker = randomUUID();
    const body = JSON.stringify({ marker, blob });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(256 * 1024);
    const reply = await request('POST', `/integration/${second.prefix_id}`, { rawBody: body, headers: { 'x-padding': 'p'.repeat(8_000) } });
    expect(reply.status).toBe(200);
    const listed = await pollUntil(async () => {
      const list = await asMember(`/logs?owner_id=${second.id}&limit=100`);
      return (list.body.data as LogObject[]).find((log) => log.details.body === null && log.details.body_bytes > 200_000);
    });
    expect(listed.details.body_omitted).toBe(true);
    const full = (await asMember(`/logs/${listed.id}`)).body as LogObject;
    expect(full.details.body).toEqual({ marker, blob });
    expect(full.details.body_omitted).toBe(false);
    expect(full.details.headers['x-padding']).toHaveLength(8_000);
  });

  it('keeps a body nested deeper than DynamoDB maps may be', async () => {
    let nested: Record<string, unknown> = { leaf: 'bottom' };
    for (let depth = 0; depth < 60; depth++) nested = { down: nested };
    const listed = await logOfRequest(second, { nested });
    expect(JSON.stringify(listed.details.body)).toContain('bottom');
  });
});

describe('odd requests', () => {
  it('keeps a query parameter with an empty name and a repeated one', async () => {
    const listed = await logOfRequest(second, { event_type: 'create', Id: 'q', Title: 'Query' }, { query: '?=empty&a=1&a=2&b=' });
    expect(listed.details.params).toEqual({ '': 'empty', a: '1,2', b: '' });
  });
});

describe('notes', () => {
  it('the worker adds each step’s notes once; they are the log’s sublogs', async () => {
    const listed = await logOfRequest(second, { event_type: 'create', Id: 'n-1', Title: 'Noted' });
    const ref = { accountId: acme.accountId, logId: listed.id };
    // The worker's own step ("apply") comes first; the steps below are the test's own.
    const applied = await pollUntil(async () => {
      const sublogs = ((await asMember(`/logs/${listed.id}`)).body as LogObject).details.sublogs;
      return sublogs.length > 0 ? sublogs : undefined;
    });
    expect(await recordLogNotes(ref, 'apply', [{ message: 'again' }])).toBe(false);
    const at = (seconds: number) => new Date(Date.parse(listed.created_at) + seconds * 1000).toISOString();
    const notes = [{ message: 'Created alert alt_x', alert_id: 'A1' }, { message: 'Inside maintenance window mw_y', maintenance_window_id: 'W1' }];
    expect(await recordLogNotes(ref, 'check', notes, at(61))).toBe(true);
    expect(await recordLogNotes(ref, 'check', [{ message: 'again' }], at(62))).toBe(false);
    expect(await recordLogNotes(ref, 'read', [{ message: 'Urgency "soon" names none of low, medium, high, critical' }], at(63))).toBe(true);
    const log = (await asMember(`/logs/${listed.id}`)).body as LogObject;
    expect(log.details.sublogs).toEqual([
      ...applied,
      { message: 'Created alert alt_x', alert_id: 'A1', maintenance_window_id: null, created_at: at(61) },
      { message: 'Inside maintenance window mw_y', alert_id: null, maintenance_window_id: 'W1', created_at: at(61) },
      { message: 'Urgency "soon" names none of low, medium, high, critical', alert_id: null, maintenance_window_id: null, created_at: at(63) },
    ]);
    expect(await recordLogNotes({ accountId: acme.accountId, logId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, 'apply', notes)).toBe(false);
    expect(log.updated_at).toBe(at(63));
    // q searches the sublogs' messages, case-insensitively.
    const found = await asMember(`/logs?owner_id=${second.id}&q=${encodeURIComponent('MAINTENANCE WINDOW mw_y')}`);
    expect((found.body.data as LogObject[]).map((l) => l.id)).toEqual([listed.id]);
  });
});

describe('monitor payloads', () => {
  it('every monitor fixture is accepted and logged as sent; the Zabbix wrapper key is a valid integration option', async () => {
    const account = await newAccount('Monitors');
    const generic = await integration(account, { name: 'Generic' });
    const zabbix = await integration(account, { name: 'Zabbix', options: { wrapper_key: ZABBIX_WRAPPER_KEY } });
    expect((await account.api('GET', `/integrations/${zabbix.id}`)).body.options.wrapper_key).toBe(ZABBIX_WRAPPER_KEY);
    const files = Object.values(MONITOR_SEQUENCES).flat();
    for (const fixture of files) {
      const target = fixture.integration.wrapperKey === ZABBIX_WRAPPER_KEY ? zabbix : generic;
      expect((await request('POST', `/integration/${target.prefix_id}`, { body: monitorPayload(fixture.file) })).status, fixture.file).toBe(200);
    }
    const logs = await pollUntil(async () => {
      const list = await account.api('GET', '/logs?limit=100');
      return list.body.total_count === files.length ? (list.body.data as LogObject[]) : undefined;
    });
    const bodies = logs.map((log) => JSON.stringify(log.details.body));
    for (const fixture of files) expect(bodies, fixture.file).toContain(JSON.stringify(monitorPayload(fixture.file)));
  });
});
