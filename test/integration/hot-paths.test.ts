// What the warm process remembers, and what it must forget at once: API key → caller and the webhook's
// integration lookups (docs/decisions/0005-auth-caching.md), through a gateway running in this test's own process,
// so the changes below are made in the same process that serves the requests. And the lists' key-order
// path answering exactly what reading the whole collection answers (docs/lists.md, Cost).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeys, revokeApiKey } from '#lib/auth/api-keys.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { addAccountUser, errorMessages, newAccount, useTestStack, type TestAccount } from './helpers.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  useTestStack();
  server = await startGateway(0);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function call(method: string, path: string, key: string | undefined, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

/** A key for a new account user of the account, issued as the operator CLI issues keys. */
async function keyFor(account: TestAccount, roles: { admin?: boolean } = {}) {
  const { issueApiKey } = await import('#lib/auth/api-keys.ts');
  const person = await addAccountUser(account, roles);
  const { key, keyId } = await issueApiKey({ accountId: account.accountId, accountUserId: person.id, userId: person.user_id, name: 'cache test' });
  return { key, keyId, person };
}

describe('API key cache', () => {
  let acme: TestAccount;
  beforeAll(async () => {
    acme = await newAccount('Key cache');
  });

  it('a revoked key gets 401 on the very next request', async () => {
    const { key, keyId } = await keyFor(acme);
    expect((await call('GET', '/api/v4/schedules', key)).status).toBe(200);
    expect((await call('GET', '/api/v4/schedules', key)).status).toBe(200); // served from the cache
    expect(await revokeApiKey(acme.accountId, keyId)).toBe(true);
    const after = await call('GET', '/api/v4/schedules', key);
    expect(after.status).toBe(401);
    expect(errorMessages({ ...after, headers: new Headers() })).toEqual(['Invalid API key']);
  });

  it('the key of a deleted account user gets 401 on the very next request', async () => {
    const { key, person } = await keyFor(acme);
    expect((await call('GET', '/api/v4/schedules', key)).status).toBe(200);
    expect((await call('DELETE', `/api/v4/account_users/${person.id}`, acme.adminKey)).status).toBe(204);
    expect((await call('GET', '/api/v4/schedules', key)).status).toBe(401);
    expect((await listApiKeys(acme.accountId)).some((k) => k.accountUserId === person.id)).toBe(false);
  });

  it('a role taken away applies on the very next request; one given too', async () => {
    const { key, person } = await keyFor(acme, { admin: true });
    expect((await call('POST', '/api/v4/schedules', key, { name: 'By an admin' })).status).toBe(201);
    expect((await call('PUT', `/api/v4/account_users/${person.id}`, acme.adminKey, { roles: { admin: false } })).status).toBe(200);
    expect((await call('POST', '/api/v4/schedules', key, { name: 'By a member' })).status).toBe(403);
    expect((await call('PUT', `/api/v4/account_users/${person.id}`, acme.adminKey, { roles: { admin: true } })).status).toBe(200);
    expect((await call('POST', '/api/v4/schedules', key, { name: 'Admin again' })).status).toBe(201);
  });

  it('a comment carries the author name as it is now, not as it was when the key was first seen', async () => {
    const { key, person } = await keyFor(acme);
    expect((await call('GET', '/api/v4/schedules', key)).status).toBe(200);
    expect((await call('PUT', `/api/v4/users/${person.user_id}`, acme.adminKey, { name: 'Renamed Now' })).status).toBe(200);
    const comment = await call('POST', '/api/v4/comments', key, { body: 'hello' });
    expect(comment.status).toBe(201);
    expect(comment.body.created_by_name).toBe('Renamed Now');
  });
});

describe('integration lookup cache', () => {
  let acme: TestAccount;
  beforeAll(async () => {
    acme = await newAccount('Lookup cache');
  });

  const hook = (id: string, headers: Record<string, string> = {}) => call('POST', `/integration/${id}`, undefined, { title: 'x' }, headers);

  it('disabling, a new token and deleting apply to the very next webhook request', async () => {
    const made = await call('POST', '/api/v4/integrations', acme.adminKey, { name: 'Cached', account_user_ids: [acme.adminAccountUserId], options: { token: 'whk_first_token_0123456789' } });
    expect(made.status).toBe(201);
    const { id, prefix_id } = made.body as { id: string; prefix_id: string };
    const first = { 'service-token': 'whk_first_token_0123456789' };
    expect((await hook(prefix_id, first)).status).toBe(200);
    expect((await hook(id, first)).status).toBe(200);

    expect((await call('PUT', `/api/v4/integrations/${id}`, acme.adminKey, { enabled: false })).status).toBe(200);
    expect((await hook(prefix_id, first)).status).toBe(405);
    expect((await hook(id, first)).status).toBe(405);

    expect((await call('PUT', `/api/v4/integrations/${id}`, acme.adminKey, { enabled: true, options: { token: 'whk_second_token_0123456789' } })).status).toBe(200);
    expect((await hook(prefix_id, first)).status).toBe(403);
    expect((await hook(prefix_id, { 'service-token': 'whk_second_token_0123456789' })).status).toBe(200);

    expect((await call('DELETE', `/api/v4/integrations/${id}`, acme.adminKey)).status).toBe(204);
    expect((await hook(prefix_id, { 'service-token': 'whk_second_token_0123456789' })).status).toBe(404);
    expect((await hook(id, { 'service-token': 'whk_second_token_0123456789' })).status).toBe(404);
  });
});

describe('lists: the key-order path and the whole-collection path answer the same', () => {
  let acme: TestAccount;
  const SIZE = 27;
  /** A filter every schedule passes: it makes the engine read the whole collection. */
  const WHOLE = 'name=%00none&ops=name:ne';

  beforeAll(async () => {
    acme = await newAccount('List paths');
    for (let i = 0; i < SIZE; i++) expect((await call('POST', '/api/v4/schedules', acme.adminKey, { name: `S${i}` })).status).toBe(201);
  });

  it('for random offsets, pages, limits and directions, with an exact total_count', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          limit: fc.integer({ min: 1, max: 40 }),
          start: fc.oneof(fc.record({ offset: fc.integer({ min: 0, max: 35 }) }), fc.record({ page: fc.integer({ min: 1, max: 8 }) })),
          direction: fc.constantFrom(undefined, 'asc', 'desc', 'ASC'),
        }),
        async ({ limit, start, direction }) => {
          const params = new URLSearchParams({ limit: String(limit), ...Object.fromEntries(Object.entries(start).map(([k, v]) => [k, String(v)])) });
          if (direction) params.set('direction', direction);
          const fast = await call('GET', `/api/v4/schedules?${params}`, acme.adminKey);
          const whole = await call('GET', `/api/v4/schedules?${params}&${WHOLE}`, acme.adminKey);
          expect(fast.status).toBe(200);
          expect(fast.body).toEqual(whole.body);
          expect(fast.body.total_count).toBe(SIZE);
        },
      ),
      { seed: 7, numRuns: 30 },
    );
  });

  it('total_count follows deletes, and the pages follow the order of creation', async () => {
    const all = (await call('GET', `/api/v4/schedules?limit=100&${WHOLE}`, acme.adminKey)).body.data as { id: string; created_at: string }[];
    for (const gone of all.slice(3, 6)) expect((await call('DELETE', `/api/v4/schedules/${gone.id}`, acme.adminKey)).status).toBe(204);
    const fast = await call('GET', '/api/v4/schedules?limit=100', acme.adminKey);
    const whole = await call('GET', `/api/v4/schedules?limit=100&${WHOLE}`, acme.adminKey);
    expect(fast.body).toEqual(whole.body);
    expect(fast.body.total_count).toBe(all.length - 3);
    const createdAt = (fast.body.data as { created_at: string }[]).map((s) => s.created_at);
    expect(createdAt).toEqual([...createdAt].sort().reverse());
  });
});
