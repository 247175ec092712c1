// Signed links through the local gateway: the confirmation page never acts, its form acts once and logs the
// channel, and every bad link (changed, expired, for a deleted alert) gets its own page and nothing changes.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ACTION_LINK_LIFETIME_MS } from '#lib/limits.ts';
import { actionLinks, type LinkKeys } from '#lib/delivery/links.ts';
import { ALERT_LINK_ACTIONS } from '#lib/alerts/message-owner.ts';
import { addAccountUser, baseUrl, errorMessages, newAccount, request, type TestAccount } from './helpers.ts';

const run = promisify(execFile);

let account: TestAccount;
let keys: LinkKeys;

beforeAll(async () => {
  account = await newAccount('Links');
  keys = { current: inject('linkSecret') };
});

async function openAlert(title = 'Disk full on db-1', to = account.adminAccountUserId) {
  const reply = await account.api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: [to] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: string; tiny_id: number };
}

function linksFor(alertId: string, options: { accountUserId?: string; now?: number } = {}) {
  const made = actionLinks({
    ownerType: 'alert',
    ownerId: alertId,
    accountId: account.accountId,
    accountUserId: options.accountUserId ?? account.adminAccountUserId,
    actions: ALERT_LINK_ACTIONS,
    now: options.now ?? Date.now(),
    channel: 'email',
    keys,
    baseUrl: baseUrl(),
  });
  const path = (action: string) => new URL(made.find((l) => l.action === action)!.url).pathname;
  return { acknowledge: path('acknowledge'), resolve: path('resolve') };
}

const status = async (id: string) => (await account.api('GET', `/alerts/${id}`)).body.status as string;
const logs = async (id: string) => (await account.api('GET', `/alerts/${id}/logs?limit=100`)).body.data as { event: string; message: string; account_user_id?: string }[];

describe('the confirmation page (GET)', () => {
  it('asks before acting, with one form button and no script, and changes nothing', async () => {
    const alert = await openAlert('Disk <b>full</b> & "hot"');
    const page = await request('GET', linksFor(alert.id).acknowledge);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain(`Acknowledge alert #${alert.tiny_id}: Disk &lt;b&gt;full&lt;/b&gt; &amp; &quot;hot&quot;?`);
    expect(page.text).toContain('<form method="post"><button type="submit">Acknowledge</button></form>');
    expect(page.text).not.toMatch(/<script|onload|http-equiv="refresh"/i);
    // Opened twice (a mail scanner, then the person): still nothing acted.
    await request('GET', linksFor(alert.id).acknowledge);
    expect(await status(alert.id)).toBe('open');
    expect((await logs(alert.id)).map((l) => l.event)).not.toContain('acknowledged');
  });
});

describe('the form (POST)', () => {
  it('acknowledges as the person the link was sent to, logged with the channel; again says it already is', async () => {
    const alert = await openAlert();
    const links = linksFor(alert.id);
    const done = await request('POST', links.acknowledge, { rawBody: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.text).toContain(`Alert #${alert.tiny_id} acknowledged.`);
    expect(await status(alert.id)).toBe('acknowledged');
    const entries = await logs(alert.id);
    expect(entries.find((l) => l.event === 'acknowledged')).toMatchObject({ account_user_id: account.adminAccountUserId });
    expect(entries.find((l) => l.event === 'message_action')).toEqual(
      expect.objectContaining({ message: `Acknowledged from email by account user ${account.adminAccountUserId}.`, account_user_id: account.adminAccountUserId }),
    );

    const again = await request('POST', links.acknowledge);
    expect(again.status).toBe(200);
    expect(again.text).toContain(`Alert #${alert.tiny_id} was already acknowledged.`);
    expect((await logs(alert.id)).filter((l) => l.event === 'message_action')).toHaveLength(1);
    expect((await request('GET', links.acknowledge)).text).not.toContain('<form');
  });

  it('resolves, and an acknowledge link of a resolved alert says it cannot act', async () => {
    const alert = await openAlert();
    const links = linksFor(alert.id);
    expect((await request('POST', links.resolve)).text).toContain(`Alert #${alert.tiny_id} resolved.`);
    expect(await status(alert.id)).toBe('resolved');
    const confirm = await request('GET', links.acknowledge);
    expect(confirm.text).toContain(`Alert #${alert.tiny_id} is resolved and cannot be acknowledged now.`);
    expect(confirm.text).not.toContain('<form');
    const post = await request('POST', links.acknowledge);
    expect(post.status).toBe(200);
    expect(post.text).toContain('cannot be acknowledged now');
    expect(await status(alert.id)).toBe('resolved');
  });
});

describe('bad links', () => {
  it('refuses a changed token with 403 and acts on nothing', async () => {
    const alert = await openAlert();
    const path = linksFor(alert.id).acknowledge;
    const changed = path.slice(0, -3) + (path.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const method of ['GET', 'POST']) {
      const reply = await request(method, changed);
      expect(reply.status).toBe(403);
      expect(reply.text).toContain('This link is not valid');
      expect(reply.headers.get('cache-control')).toBe('no-store');
    }
    expect((await request('POST', '/actions/not-a-token')).status).toBe(403);
    expect(await status(alert.id)).toBe('open');
  });

  it('answers 410 for an expired link, and acts on nothing', async () => {
    const alert = await openAlert();
    const old = linksFor(alert.id, { now: Date.now() - ACTION_LINK_LIFETIME_MS - 1000 });
    const reply = await request('POST', old.acknowledge);
    expect(reply.status).toBe(410);
    expect(reply.text).toContain('This link has expired');
    expect(await status(alert.id)).toBe('open');
  });

  it('answers 404 once the alert is deleted, and 403 once the person left the account', async () => {
    const alert = await openAlert();
    const links = linksFor(alert.id);
    expect((await account.api('DELETE', `/alerts/${alert.id}`)).status).toBe(204);
    const gone = await request('POST', links.acknowledge);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This alert no longer exists.');

    const leaver = await addAccountUser(account);
    const other = await openAlert('CPU hot', leaver.id);
    const leaverLinks = linksFor(other.id, { accountUserId: leaver.id });
    expect((await account.api('DELETE', `/account_users/${leaver.id}`)).status).toBe(204);
    const refused = await request('POST', leaverLinks.acknowledge);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('no longer a member');
    expect(await status(other.id)).not.toBe('acknowledged');
  });
});

describe('a person’s push topic (GET /account_users/{id}/push)', () => {
  it('is shown to the person and to admins, not to other members; push is not configured on the test stack', async () => {
    const own = await account.api('GET', `/account_users/${account.adminAccountUserId}/push`);
    expect(own.status, own.text).toBe(200);
    expect(own.body).toEqual({ account_user_id: account.adminAccountUserId, provider: null, server: null, topic: null, subscribe_url: null });
    expect((await account.api('GET', '/account_users/01JZZZZZZZZZZZZZZZZZZZZZZZ/push')).status).toBe(404);

    const member = await addAccountUser(account);
    const { stdout } = await run(
      process.execPath,
      ['lib/admin/cli.ts', 'create-api-key', '--account', account.accountId, '--account-user', member.id, '--name', 'member', '--json'],
      { env: { ...process.env, HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), HARK_TABLE_NAME: inject('tableName') } },
    );
    const key = (JSON.parse(stdout.trim().split('\n').pop()!) as { api_key: string }).api_key;
    expect((await request('GET', `/api/v4/account_users/${member.id}/push`, { key })).status).toBe(200);
    const other = await request('GET', `/api/v4/account_users/${account.adminAccountUserId}/push`, { key });
    expect(other.status).toBe(403);
    expect(errorMessages(other)).toEqual(['Only the person or an account admin can see their push topic']);
  });
});
