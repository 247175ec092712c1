// Requests refused at the door of a known integration (a wrong token, a bad Sentry signature) through the gateway: the
// sender's answer is what it was, nothing is queued, and the integration's request log shows one `refused` entry per
// reason and minute with its reason and count (docs/ingest.md, "Refused requests"). An unknown integration keeps nothing.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorMessages, newAccount, pollUntil, request, type TestAccount } from './helpers.ts';

const TOKEN = 'whk_refusals_token_0123456789';
const SENTRY_SECRET = 'sentry-client-secret-for-refusals-01';
const sentryIssue = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'monitors', 'sentry', 'issue-created.json'), 'utf8');

let acme: TestAccount;

beforeAll(async () => {
  acme = await newAccount('Refusals');
});

async function integration(body: Record<string, unknown>): Promise<{ id: string; prefix_id: string }> {
  const reply = await acme.api('POST', '/integrations', { name: `Refusals ${Math.random()}`, account_user_ids: [acme.adminAccountUserId], ...body });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const logsOf = async (integrationId: string) => (await acme.api('GET', `/logs?owner_id=${integrationId}&limit=100`)).body as { data: any[]; total_count: number };

/** Waits out the end of a minute, so a test's refusals fall in one window (one log per reason and minute). */
async function sameMinute(needMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe('a request refused at the door of a known integration', () => {
  it('a wrong or missing token: the same 403 as before, nothing queued, one refused entry with its reason in GET /logs', async () => {
    const hook = await integration({ options: { token: TOKEN } });
    await sameMinute();
    const wrong = await request('POST', `/integration/${hook.prefix_id}`, { body: { event_type: 'create', Id: 'forged-1', Title: 'forged' }, headers: { 'service-token': 'not-the-token-0123456789', 'x-origin': 'somewhere' } });
    expect([wrong.status, wrong.body]).toEqual([403, { errors: [{ message: 'Missing or invalid service-token header' }], code: 403 }]);
    const missing = await request('POST', `/integration/${hook.id}`, { body: { event_type: 'create', Id: 'forged-1', Title: 'forged' } });
    expect([missing.status, errorMessages(missing)]).toEqual([403, ['Missing or invalid service-token header']]);

    const logs = await logsOf(hook.id);
    expect(logs.total_count).toBe(1);
    const [refused] = logs.data;
    expect(refused).toMatchObject({
      level: 'warn',
      owner_id: hook.id,
      owner_type: 'Integration',
      details: { method: 'POST', url: `/integration/${hook.prefix_id}`, body: null, refused: { reason: 'invalid_token', count: 2 } },
    });
    expect(refused.details.sublogs.map((s: { message: string }) => s.message)).toEqual(['Refused: Missing or invalid service-token header']);
    // Its headers as any log keeps them: the token sent is never stored.
    expect(refused.details.headers['x-origin']).toBe('somewhere');
    expect(refused.details.headers['service-token']).toBe('[redacted]');
    expect(JSON.stringify(refused)).not.toContain('not-the-token');
    expect((await acme.api('GET', `/logs/${refused.id}`)).body.details.refused).toEqual({ reason: 'invalid_token', count: 2 });

    // Nothing was queued: the right token's request is the only one applied, and no alert says "forged".
    const accepted = await request('POST', `/integration/${hook.prefix_id}`, { body: { event_type: 'create', Id: 'real-1', Title: 'real' }, headers: { 'service-token': TOKEN } });
    expect(accepted.status).toBe(200);
    const titles = await pollUntil(async () => {
      const found = ((await acme.api('GET', '/alerts?limit=100')).body.data as { title: string }[]).map((a) => a.title);
      return found.includes('real') ? found : undefined;
    });
    expect(titles).not.toContain('forged');
    expect((await logsOf(hook.id)).total_count).toBe(2);
  });

  it('a bad Sentry signature: the same 403 as before, one refused entry naming why', async () => {
    const hook = await integration({ integration_type_id: 'sentry', options: { client_secret: SENTRY_SECRET } });
    await sameMinute();
    const forged = await request('POST', `/integration/${hook.prefix_id}`, {
      rawBody: sentryIssue,
      headers: { 'sentry-hook-resource': 'issue', 'sentry-hook-signature': createHmac('sha256', 'another-secret').update(sentryIssue, 'utf8').digest('hex') },
    });
    expect([forged.status, errorMessages(forged)]).toEqual([403, ["Sentry-Hook-Signature does not match the body signed with the integration's client_secret"]]);
    const [refused] = (await logsOf(hook.id)).data;
    expect(refused).toMatchObject({ level: 'warn', details: { body: null, refused: { reason: 'invalid_signature', count: 1 } } });
    expect(refused.details.sublogs[0].message).toBe("Refused: Sentry-Hook-Signature does not match the body signed with the integration's client_secret");
    expect(refused.details.headers['sentry-hook-signature']).toBe('[redacted]');
    // A refusal of another reason the same minute is an entry of its own.
    expect((await request('POST', `/integration/${hook.prefix_id}`, { rawBody: sentryIssue, headers: { 'sentry-hook-resource': 'issue' } })).status).toBe(403);
    const logs = await logsOf(hook.id);
    expect(logs.total_count).toBe(1);
    expect(logs.data[0].details.refused).toEqual({ reason: 'invalid_signature', count: 2 });
  });

  it('50 bad requests within a minute store one entry counting them all', async () => {
    const hook = await integration({ options: { token: TOKEN } });
    await sameMinute(30_000);
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => request('POST', `/integration/${hook.prefix_id}`, { body: { title: `flood ${i}` }, headers: { 'service-token': `wrong-token-${i}-0123456789` } })));
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(403));
    const logs = await logsOf(hook.id);
    expect(logs.total_count).toBe(1);
    expect(logs.data[0].details.refused).toEqual({ reason: 'invalid_token', count: 50 });
  });

  it('an unknown integration stores nothing: 404 as before, and no log anywhere in the account', async () => {
    const before = (await acme.api('GET', '/logs?limit=1')).body.total_count;
    for (const id of ['int_abcdefghijkl', '01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const reply = await request('POST', `/integration/${id}`, { body: { title: 'x' }, headers: { 'service-token': 'whatever-0123456789' } });
      expect([reply.status, errorMessages(reply)]).toEqual([404, ['Integration not found']]);
    }
    expect((await acme.api('GET', '/logs?limit=1')).body.total_count).toBe(before);
    expect((await acme.api('GET', '/logs?owner_id=int_abcdefghijkl')).body.data ?? []).toEqual([]);
  });
});
