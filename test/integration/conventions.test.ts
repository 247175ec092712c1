// API conventions every group shares, exercised through the schedules group and the gateway.
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, errorMessages, newAccount, request, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let globex: TestAccount;

beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
});

describe('authentication', () => {
  it('answers 401 with the error body without a key, with a malformed header and with an unknown key', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Token abc' }, { authorization: 'Bearer hark_nope' }];
    for (const headers of attempts) {
      const reply = await request('GET', '/api/v4/schedules', { headers });
      expect(reply.status).toBe(401);
      expect(errorMessages(reply)[0]).toMatch(/API key/);
    }
  });

  it('serves the list envelope with a valid key', async () => {
    const reply = await acme.api('GET', '/schedules');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: expect.any(Array), has_more: false, total_count: expect.any(Number) });
  });
});

describe('account isolation', () => {
  it("answers 404 for another account's object by id and by prefix_id, and never lists it", async () => {
    const mine = (await acme.api('POST', '/schedules', { name: 'Acme primary' })).body;
    for (const id of [mine.id, mine.prefix_id]) {
      const theirs = await globex.api('GET', `/schedules/${id}`);
      expect(theirs.status).toBe(404);
      expect(errorMessages(theirs)).toEqual(['Schedule not found']);
      expect((await globex.api('PUT', `/schedules/${id}`, { name: 'hijack' })).status).toBe(404);
      expect((await globex.api('DELETE', `/schedules/${id}`)).status).toBe(404);
    }
    const listed = (await globex.api('GET', '/schedules?limit=100')).body;
    expect(listed.data.map((s: { id: string }) => s.id)).not.toContain(mine.id);
    expect((await acme.api('GET', `/schedules/${mine.id}`)).body.name).toBe('Acme primary');
  });
});

describe('error bodies', () => {
  it('400 for malformed JSON and for a body that is not an object, changing nothing', async () => {
    const before = (await acme.api('GET', '/schedules')).body.total_count;
    const malformed = await request('POST', '/api/v4/schedules', { key: acme.adminKey, rawBody: '{"name": ' });
    expect(malformed.status).toBe(400);
    expect(errorMessages(malformed)).toEqual(['Malformed JSON in request body']);
    const array = await request('POST', '/api/v4/schedules', { key: acme.adminKey, rawBody: '[1]' });
    expect(array.status).toBe(400);
    expect((await acme.api('GET', '/schedules')).body.total_count).toBe(before);
  });

  it('404 as the JSON error body for unknown routes, with or without a key', async () => {
    for (const path of ['/api/v4/nothing', '/api/v4/schedules/a/b/c', '/nothing', '/api/v3/schedules']) {
      const reply = await request('GET', path, { key: acme.adminKey });
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Route not found']);
    }
    // `/` is the console's (docs/console.md): it leads to the alerts page, never a JSON 404.
    const root = await fetch(`${baseUrl()}/`, { redirect: 'manual' });
    expect([302, 303]).toContain(root.status);
    expect(root.headers.get('location')).toBe('/alerts');
  });

  it('405 with Allow for an unsupported operation such as DELETE /users/:id', async () => {
    const reply = await request('DELETE', '/api/v4/users/usr_abcdefghijkl', { key: acme.adminKey });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, PUT');
    expect(errorMessages(reply)[0]).toMatch(/DELETE is not supported/);
  });

  it('413 for a body over the limit', async () => {
    const reply = await request('POST', '/api/v4/schedules', { key: acme.adminKey, body: { name: 'x', notes: 'y'.repeat(300 * 1024) } });
    expect(reply.status).toBe(413);
    expect(errorMessages(reply)[0]).toMatch(/larger than/);
  });

  it('accepts Content-Type: application/json with an empty body on DELETE', async () => {
    const schedule = (await acme.api('POST', '/schedules', { name: 'To delete' })).body;
    const reply = await request('DELETE', `/api/v4/schedules/${schedule.id}`, { key: acme.adminKey, rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
  });
});
