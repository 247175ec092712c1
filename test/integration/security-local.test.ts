// docs/security.md, "Quiet secrets", "IPv6 receivers" and "A private data folder", through the gateway users hit:
// credentials in a webhook request never reach its log (which every member reads); a loopback receiver's answer is not
// kept in the delivery log; a list offset past the limit is a 422, not a 500; IPv6 spellings of private addresses are
// refused as receivers; and `npm start` tightens a data folder an earlier version left open to other users.
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { errorMessages, newAccount, request, type TestAccount } from './helpers.ts';
import { openToOthers } from './listening-sockets.ts';
import { createMemberKey } from './members.ts';
import { killAll, startNpm } from './npm-start.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

let acct: TestAccount;
let memberKey: string;
let receiver: WebhookReceiver<unknown>;
const RECEIVER_SECRET = `internal-service-answer-${randomUUID()}`;
const dataDirs: string[] = [];

beforeAll(async () => {
  acct = await newAccount('Security local');
  memberKey = await createMemberKey(acct);
  receiver = await startWebhookReceiver(() => ({ status: 200, body: RECEIVER_SECRET, headers: { 'content-type': 'text/plain' } }));
}, 60_000);

afterAll(async () => {
  killAll();
  await receiver?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const asMember = (path: string) => request('GET', `/api/v4${path}`, { key: memberKey });
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 30_000, interval: 100 });

describe('webhook request logs', { timeout: 60_000 }, () => {
  it('show every credential-looking header and query parameter as [redacted], to members and admins alike', async () => {
    const token = `tok-${randomUUID()}`;
    const created = await acct.api('POST', '/integrations', { name: 'Redacted', account_user_ids: [acct.adminAccountUserId], options: { token } });
    expect(created.status, created.text).toBe(201);
    const secrets = { auth: `a-${randomUUID()}`, apiKey: `k-${randomUUID()}`, amz: `s-${randomUUID()}`, queryToken: `q-${randomUUID()}`, queryKey: `qk-${randomUUID()}` };
    const marker = randomUUID();
    const sent = await request('POST', `/integration/${created.body.prefix_id}?token=${secrets.queryToken}&api_key=${secrets.queryKey}&env=prod`, {
      body: { event_type: 'create', Id: `redact-${marker}`, Title: 'Redacted', marker },
      headers: { 'service-token': token, 'X-Auth-Token': secrets.auth, 'Api-Key': secrets.apiKey, 'X-Amz-Security-Token': secrets.amz, 'x-origin': 'kuma' },
    });
    expect(sent.status, sent.text).toBe(200);

    const listed = await eventually(async () => {
      const list = await asMember(`/logs?owner_id=${created.body.id}&limit=100`);
      const found = (list.body.data as { id: string; details: { body: unknown } }[]).find((log) => JSON.stringify(log.details.body).includes(marker));
      expect(found).toBeDefined();
      return found!;
    });
    for (const read of [await asMember(`/logs/${listed.id}`), await acct.api('GET', `/logs/${listed.id}`)]) {
      expect(read.status).toBe(200);
      expect(read.body.details.headers).toMatchObject({
        'service-token': '[redacted]',
        'x-auth-token': '[redacted]',
        'api-key': '[redacted]',
        'x-amz-security-token': '[redacted]',
        'x-origin': 'kuma',
      });
      expect(read.body.details.params).toEqual({ token: '[redacted]', api_key: '[redacted]', env: 'prod' });
      for (const secret of [token, ...Object.values(secrets)]) expect(read.text).not.toContain(secret);
    }
  });
});

describe('the outgoing-webhook delivery log', { timeout: 60_000 }, () => {
  it('keeps a loopback receiver’s status and answer size, never its answer', async () => {
    const hook = await acct.api('POST', '/outgoing_webhooks', { name: 'Local service', url: `${receiver.base}/internal`, events: ['alert.created'] });
    expect(hook.status, hook.text).toBe(201);
    expect((await acct.api('POST', `/outgoing_webhooks/${hook.body.id}/test`)).status).toBe(202);
    const delivery = await eventually(async () => {
      const list = await acct.api('GET', `/outgoing_webhooks/${hook.body.id}/deliveries?limit=10`);
      expect(list.body.data[0]?.state).toBe('delivered');
      return { parsed: list.body.data[0], text: list.text };
    });
    expect(delivery.parsed).toMatchObject({ response_status: 200, response_body: null, response_bytes: Buffer.byteLength(RECEIVER_SECRET) });
    expect(delivery.parsed.attempts[0]).toMatchObject({ response_status: 200, response_body: null, response_bytes: Buffer.byteLength(RECEIVER_SECRET) });
    expect(delivery.text).not.toContain(RECEIVER_SECRET);
  });
});

describe('list offsets', () => {
  it.each([
    ['/alerts?offset=2147483648', 'offset must be at most 10000'],
    ['/alerts?offset=10001', 'offset must be at most 10000'],
    ['/logs?offset=2147483648', 'offset must be at most 10000'],
    ['/schedules?offset=99999999999', 'offset must be at most 10000'],
    ['/alerts?page=2147483648', 'page must be at most 1001 with limit 10 (it skips at most 10000 elements)'],
    ['/teams?page=102&limit=100', 'page must be at most 101 with limit 100 (it skips at most 10000 elements)'],
  ])('%s is a 422 naming the parameter', async (path, message) => {
    const reply = await acct.api('GET', path);
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body).toEqual({ errors: [{ message }], code: 422 });
  });

  it('answers the deepest page allowed', async () => {
    const reply = await acct.api('GET', '/alerts?offset=10000');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ data: [], has_more: false });
  });
});

describe('IPv6 receivers', () => {
  it.each([
    ['[::a9fe:a9fe]', 'an IPv4-compatible address of 169.254.169.254, a linkLocal address'],
    ['[::ffff:a9fe:a9fe]', '169.254.169.254, a linkLocal address'],
    ['[::ffff:0:a9fe:a9fe]', 'an IPv4-translated address of 169.254.169.254, a linkLocal address'],
    ['[64:ff9b::a9fe:a9fe]', 'NAT64 address of 169.254.169.254, a linkLocal address'],
    ['[64:ff9b:1::a00:1]', 'local-use NAT64 address of 0.0.0.0, a unspecified address'],
    ['[2002:a9fe:a9fe::1]', '6to4 address of 169.254.169.254, a linkLocal address'],
    ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'a teredo address'],
    ['[4000::1]', 'an address outside global unicast (2000::/3)'],
  ])('refuses https://%s/ as a receiver, creating nothing', async (host, reason) => {
    const before = (await acct.api('GET', '/outgoing_webhooks?limit=100')).body.total_count as number;
    const reply = await acct.api('POST', '/outgoing_webhooks', { name: 'Sneaky', url: `https://${host}/hook`, events: ['alert.created'] });
    expect(reply.status, reply.text).toBe(422);
    const [message] = errorMessages(reply);
    expect(message).toMatch(/^url must not point at a private, loopback or link-local address \(/);
    expect(message).toContain(reason);
    expect((await acct.api('GET', '/outgoing_webhooks?limit=100')).body.total_count).toBe(before);
  });
});

describe('the data folder', { timeout: 180_000 }, () => {
  it('is tightened on start when an earlier version left it open, saying so in one line; files Hark does not own are left alone', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'hark-private-')), 'data');
    dataDirs.push(dataDir);
    mkdirSync(join(dataDir, 'queues'), { recursive: true });
    writeFileSync(join(dataDir, 'admin-api-key'), 'hark_loose-key-from-an-earlier-version-0123456789\n');
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');
    for (const [path, mode] of [
      [dataDir, 0o755],
      [join(dataDir, 'queues'), 0o775],
      [join(dataDir, 'admin-api-key'), 0o644],
      [join(dataDir, 'notes.txt'), 0o644],
    ] as const) {
      chmodSync(path, mode);
    }
    const started = await startNpm(dataDir, await freePort());
    try {
      const notices = started.output().split('\n').filter((line) => line.startsWith('The data folder'));
      expect(notices).toEqual([`The data folder ${dataDir} was open to other users: made it private (folders 0700, files 0600; 3 changed).`]);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, 'admin-api-key')).mode & 0o777).toBe(0o600);
      expect(openToOthers(dataDir)).toEqual([`${join(dataDir, 'notes.txt')} 644`]);
      expect((await started.api('GET', '/schedules')).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => {
        started.child.once('exit', () => resolve());
        started.child.kill('SIGINT');
      });
    }
  });
});
