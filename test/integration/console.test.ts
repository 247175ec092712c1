// The console through the gateway (docs/console.md): sign-in by a mailed link, sessions and their cookie, CSRF,
// redirects, headers, and every page and form, on a stack whose email adapter keeps the mails.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newAccount, pollUntil, teamWithOnCall, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';
import { capturingEmail, ConsoleClient } from './console-client.ts';
import { getItem, updateIf } from '#lib/db/items.ts';
import { sessionKey } from '#lib/db/keys.ts';
import { storedHash } from '#lib/console/tokens.ts';

// Several tests sign in more than once, each time through the timers worker that sends the link after the answer.
vi.setConfig({ testTimeout: 90_000 });

let stack: OwnStack;
let account: TestAccount;
let adminEmail: string;
const mail = capturingEmail();

beforeAll(async () => {
  stack = await startOwnStack('console', { email: mail });
  account = await newAccount('Console', stack);
  const me = await account.api('GET', `/users/${(await account.api('GET', `/account_users/${account.adminAccountUserId}`)).body.user_id}`);
  adminEmail = me.body.email ?? me.body.emails?.[0]?.email;
});

let people = 0;
/** A new person of the account with their own address (the per-address sign-in limit counts each apart). */
async function newPerson(admin = true): Promise<string> {
  people += 1;
  const email = `console-${process.pid}-${Date.now()}-${people}@example.test`;
  const reply = await account.api('POST', '/account_users', { roles: { admin }, user_attributes: { name: `Person ${people}`, emails_attributes: [{ email, primary: true }] } });
  if (reply.status !== 201) throw new Error(`account user: ${reply.status} ${reply.text}`);
  return email;
}

afterAll(async () => {
  await stack?.stop();
});

describe('signing in', () => {
  it('shows a form with one email field, and answers every address with the same page', async () => {
    const client = new ConsoleClient(stack.baseUrl);
    const form = await client.get('/sign-in');
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="email"');
    const before = mail.messages.length;
    const unknown = await client.post('/sign-in', { email: 'nobody-here@example.test' });
    const known = await client.post('/sign-in', { email: adminEmail });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    await mail.nextLinkFor(adminEmail, before);
    // The unknown address's request was queued first: by the time the known one's mail is out, it was handled too.
    expect(mail.messages.slice(before).map((m) => m.to)).toEqual([adminEmail]);
  });

  it('a link GET does not use it; its button POST does, once, and starts a __Host- session cookie', async () => {
    const client = new ConsoleClient(stack.baseUrl);
    const before = mail.messages.length;
    await client.post('/sign-in', { email: adminEmail });
    const link = new URL(await mail.nextLinkFor(adminEmail, before));
    const path = link.pathname;
    expect(link.origin).toBe('https://hark.example.test');
    for (let i = 0; i < 2; i++) {
      const page = await client.get(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('>Sign in</button>');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const signedIn = await client.post(path);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/alerts');
    const cookie = signedIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^__Host-hark_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Secure');
    const again = await new ConsoleClient(stack.baseUrl).post(path);
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect((await client.get('/alerts')).status).toBe(200);
  });

  it('refuses a bad address with 422 naming the field, and mails nothing', async () => {
    const before = mail.messages.length;
    const page = await new ConsoleClient(stack.baseUrl).post('/sign-in', { email: 'not an address' });
    expect(page.status).toBe(422);
    expect(page.text).toContain('email must be an email address');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mail.messages.length).toBe(before);
  });

  it('sends at most 5 links per address per 15 minutes; over it the same page and no mail', async () => {
    const email = `limited-${Date.now()}@example.test`;
    await account.api('POST', '/account_users', { roles: { admin: false }, user_attributes: { name: 'Rate Limited', emails_attributes: [{ email, primary: true }] } });
    const client = new ConsoleClient(stack.baseUrl);
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) answers.push((await client.post('/sign-in', { email })).text);
    expect(new Set(answers).size).toBe(1);
    await pollUntil(async () => (mail.messages.filter((m) => m.to === email).length >= 5 ? true : undefined), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mail.messages.filter((m) => m.to === email)).toHaveLength(5);
  });
});

describe('sessions', () => {
  it('sends a visitor without a session to sign in, and back to the page asked for afterwards', async () => {
    const email = await newPerson();
    const client = new ConsoleClient(stack.baseUrl);
    const page = await client.get('/alerts?status=open');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/sign-in?next=%2Falerts%3Fstatus%3Dopen');
    const form = await client.get('/sign-in?next=%2Falerts%3Fstatus%3Dopen');
    expect(form.text).toContain('name="next" value="/alerts?status&#x3D;open"');
    const before = mail.messages.length;
    await client.post('/sign-in', { email, next: '/alerts?status=open' });
    const done = await client.post(new URL(await mail.nextLinkFor(email, before)).pathname);
    expect(done.headers.get('location')).toBe('/alerts?status=open');
  });

  it('never redirects off the site after signing in', async () => {
    const email = await newPerson();
    for (const next of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const client = new ConsoleClient(stack.baseUrl);
      const before = mail.messages.length;
      await client.post('/sign-in', { email, next });
      const done = await client.post(new URL(await mail.nextLinkFor(email, before)).pathname);
      expect(done.headers.get('location'), next).toBe('/alerts');
    }
  });

  it('slides: a page view of a session used a while ago extends its stored expiry and the cookie; a fresh one writes nothing', async () => {
    const client = new ConsoleClient(stack.baseUrl);
    await client.signIn(await newPerson(), mail);
    const key = sessionKey(storedHash(client.cookie!.split('=')[1]!));
    const fresh = await client.get('/alerts');
    expect(fresh.headers.get('set-cookie')).toBeNull();
    // As if last used 11 hours ago: one hour left.
    await updateIf({ Update: { Key: key, UpdateExpression: 'SET expiresAt = :e', ExpressionAttributeValues: { ':e': Date.now() + 3_600_000 } } });
    const later = await client.get('/alerts');
    expect(later.status).toBe(200);
    expect(later.headers.get('set-cookie')).toMatch(/Max-Age=43200/);
    const item = await getItem<{ expiresAt: number; ttl: number }>(key);
    expect(item!.expiresAt).toBeGreaterThan(Date.now() + 11.9 * 3_600_000);
    expect(item!.ttl).toBe(Math.ceil(item!.expiresAt / 1000));
    // Expired (TTL deletion is lazy): refused.
    await updateIf({ Update: { Key: key, UpdateExpression: 'SET expiresAt = :e', ExpressionAttributeValues: { ':e': Date.now() - 1 } } });
    expect((await client.get('/alerts')).status).toBe(303);
  });

  it('signing out ends the session: the cookie no longer works', async () => {
    const client = new ConsoleClient(stack.baseUrl);
    await client.signIn(await newPerson(), mail);
    const cookie = client.cookie;
    const page = await client.get('/alerts');
    const out = await client.post('/sign-out', { csrf: ConsoleClient.csrfOf(page) });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    const stale = new ConsoleClient(stack.baseUrl);
    stale.cookie = cookie;
    expect((await stale.get('/alerts')).status).toBe(303);
  });
});

describe('pages and forms', () => {
  let client: ConsoleClient;
  beforeAll(async () => {
    client = new ConsoleClient(stack.baseUrl);
    await client.signIn(adminEmail, mail);
  });

  it('every page carries a strict CSP, no framing and no referrer, and is HTML', async () => {
    for (const path of ['/alerts', '/on-call', '/me', '/integrations', '/sign-in']) {
      const page = await client.get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(page.text).not.toMatch(/<script>|style="/);
    }
  });

  it('serves the stylesheet and script at hashed URLs with long caching', async () => {
    const page = await client.get('/alerts');
    const css = page.text.match(/href="(\/assets\/console\.[0-9a-f]{16}\.css)"/)![1]!;
    const js = page.text.match(/src="(\/assets\/console\.[0-9a-f]{16}\.js)"/)![1]!;
    for (const path of [css, js]) {
      const asset = await client.get(path);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await client.get('/assets/console.0000000000000000.css')).status).toBe(404);
  });

  it('lists an alert titled <script> as text, acknowledges it only with the CSRF token, and offers only allowed actions', async () => {
    const team = await teamWithOnCall(account, [[account.adminAccountUserId]], 'Payments');
    const created = await account.api('POST', '/alerts', { title: '<script>alert(1)</script>', urgency: 'high', destination_team_ids: [team.id] });
    expect(created.status).toBe(201);
    const list = await client.get('/alerts');
    expect(list.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(list.text).not.toContain('<script>alert(1)');
    expect(list.text).toContain('Payments');
    const page = await client.get(`/alerts/${created.body.id}`);
    expect(page.status).toBe(200);
    for (const action of ['acknowledge', 'resolve', 'reject']) expect(page.text).toContain(`action="/alerts/${created.body.id}/${action}"`);
    // The timeline names the team and the people, not their ids.
    expect(page.text).toContain('Routed to team Payments');
    expect(page.text).not.toContain(`team ${team.id}`);
    const refused = await client.post(`/alerts/${created.body.id}/acknowledge`, { csrf: 'forged' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await account.api('GET', `/alerts/${created.body.id}`)).body.status).toBe('open');
    const noToken = await client.post(`/alerts/${created.body.id}/acknowledge`);
    expect(noToken.status).toBe(403);
    const done = await client.post(`/alerts/${created.body.id}/acknowledge`, { csrf: ConsoleClient.csrfOf(page) });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/alerts/${created.body.id}?done=acknowledge`);
    expect((await account.api('GET', `/alerts/${created.body.id}`)).body.status).toBe('acknowledged');
    const after = await client.get(`/alerts/${created.body.id}`);
    expect(after.text).not.toContain(`/alerts/${created.body.id}/acknowledge"`);
    expect(after.text).not.toContain(`/alerts/${created.body.id}/reject"`);
    expect(after.text).toContain(`/alerts/${created.body.id}/resolve"`);
    expect(after.text).toMatch(/acknowledged by/i);
    const again = await client.post(`/alerts/${created.body.id}/acknowledge`, { csrf: ConsoleClient.csrfOf(page) });
    expect(again.status).toBe(422);
    expect(again.text).toContain('status is acknowledged');
  });

  it('adds a comment from the form; a blank one is 422 naming body', async () => {
    const reply = await account.api('POST', '/alerts', { title: 'Comment me', urgency: 'low', destination_account_user_ids: [account.adminAccountUserId] });
    expect(reply.status, reply.text).toBe(201);
    const created = reply.body;
    const page = await client.get(`/alerts/${created.id}`);
    const csrf = ConsoleClient.csrfOf(page);
    expect((await client.post(`/alerts/${created.id}/comments`, { csrf, body: '   ' })).status).toBe(422);
    expect((await client.post(`/alerts/${created.id}/comments`, { csrf, body: 'Looking <b>now</b>' })).status).toBe(303);
    const after = await client.get(`/alerts/${created.id}`);
    expect(after.text).toContain('Looking &lt;b&gt;now&lt;/b&gt;');
  });

  it('filters by status, urgency and text, and refuses an unknown status with 422 naming it', async () => {
    await account.api('POST', '/alerts', { title: 'Only low one', urgency: 'low', destination_account_user_ids: [account.adminAccountUserId] });
    const low = await client.get('/alerts?urgency=low&q=only+low');
    expect(low.text).toContain('Only low one');
    expect(low.text).not.toContain('Comment me');
    const bad = await client.get('/alerts?status=burning');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('status must be one of');
  });

  it('an unknown alert is a 404 page, an impossible id too', async () => {
    expect((await client.get('/alerts/01JZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
    expect((await client.get('/alerts/..%2F..')).status).toBe(404);
  });

  it('shows who is on call and the schedule picture with its table', async () => {
    const oncall = await client.get('/on-call');
    expect(oncall.text).toContain('Payments');
    const scheduleId = oncall.text.match(/href="\/schedules\/([A-Za-z0-9]+)"/)![1]!;
    const schedule = await client.get(`/schedules/${scheduleId}`);
    expect(schedule.status).toBe(200);
    expect(schedule.text).toContain('<svg');
    expect(schedule.text).toContain('<table>');
  });

  it('members do not see /integrations (403), admins do, with a pagerduty integration\'s Events API URL and routing key', async () => {
    const pagerduty = await account.api('POST', '/integrations', { name: 'From PagerDuty', type: 'pagerduty', account_user_ids: [account.adminAccountUserId] });
    expect(pagerduty.status).toBe(201);
    const page = await client.get('/integrations');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<label for="url-\d+">Events API URL<\/label><br><input [^>]*value="https?:\/\/[^"]+\/v2\/enqueue"/);
    expect(page.text).toContain(`value="${pagerduty.body.options.routing_key}"`);
    const email = `member-${Date.now()}@example.test`;
    await account.api('POST', '/account_users', { roles: { admin: false }, user_attributes: { name: 'Member', emails_attributes: [{ email, primary: true }] } });
    const memberClient = new ConsoleClient(stack.baseUrl);
    await memberClient.signIn(email, mail);
    expect((await memberClient.get('/alerts')).status).toBe(200);
    const refused = await memberClient.get('/integrations');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only account admins');
    expect((await memberClient.get('/me')).status).toBe(200);
    expect((await memberClient.get('/inbox')).status).toBe(403);
  });

  it('the local inbox is 404 when the stack has none', async () => {
    expect((await client.get('/inbox')).status).toBe(404);
  });
});

describe('a person in several accounts', () => {
  it('picks an account after signing in, and accepts an invitation from /me', async () => {
    const email = await newPerson();
    const second = await newAccount('Second', stack);
    const invited = await second.api('POST', '/account_users', { roles: { admin: false }, user_attributes: { name: 'Invited', emails_attributes: [{ email, primary: true }] } });
    expect(invited.status).toBe(201);
    const client = new ConsoleClient(stack.baseUrl);
    await client.signIn(email, mail);
    const me = await client.get('/me');
    expect(me.text).toContain('Invitations to other accounts');
    expect(me.text).toContain(`/me/invitations/${second.accountId}/accept`);
    const accepted = await client.post(`/me/invitations/${second.accountId}/accept`, { csrf: ConsoleClient.csrfOf(me) });
    expect(accepted.status).toBe(303);
    expect((await second.api('GET', `/account_users/${invited.body.id}`)).body.status).toBe('active');
    const fresh = new ConsoleClient(stack.baseUrl);
    const signedIn = await fresh.signIn(email, mail);
    expect(signedIn.headers.get('location')).toBe('/accounts?next=%2Falerts');
    expect((await fresh.get('/alerts')).status).toBe(303);
    const picker = await fresh.get('/accounts');
    const chosen = await fresh.post('/accounts', { csrf: ConsoleClient.csrfOf(picker), account_id: second.accountId, next: '/me' });
    expect(chosen.headers.get('location')).toBe('/me');
    expect((await fresh.get('/me')).text).toContain('Second');
    await pollUntil(async () => ((await fresh.get('/alerts')).status === 200 ? true : undefined));
  });
  it('denies an invitation: the invited account user and the membership go, and a repeat is 404', async () => {
    const email = await newPerson();
    const third = await newAccount('Third', stack);
    const invited = await third.api('POST', '/account_users', { roles: { admin: false }, user_attributes: { name: 'Invited', emails_attributes: [{ email, primary: true }] } });
    expect(invited.status).toBe(201);
    const client = new ConsoleClient(stack.baseUrl);
    await client.signIn(email, mail);
    const me = await client.get('/me');
    const csrf = ConsoleClient.csrfOf(me);
    const denied = await client.post(`/me/invitations/${third.accountId}/deny`, { csrf });
    expect(denied.status).toBe(303);
    expect((await third.api('GET', `/account_users/${invited.body.id}`)).status).toBe(404);
    expect((await client.get('/me')).text).not.toContain(`/me/invitations/${third.accountId}/accept`);
    expect((await client.post(`/me/invitations/${third.accountId}/deny`, { csrf })).status).toBe(404);
  });
});
