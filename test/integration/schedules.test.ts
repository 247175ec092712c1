import { beforeAll, describe, expect, it } from 'vitest';
import { errorMessages, newAccount, request, type TestAccount } from './helpers.ts';

let account: TestAccount;

beforeAll(async () => {
  account = await newAccount('Schedules');
});

describe('schedules CRUD', () => {
  it('creates with 201 and the common attributes', async () => {
    const reply = await account.api('POST', '/schedules', { name: 'Primary on-call', meta: { source: 'test' }, ignored: 1 });
    expect(reply.status).toBe(201);
    const s = reply.body;
    expect(s).toMatchObject({ name: 'Primary on-call', account_id: account.accountId, meta: { source: 'test' } });
    expect(s.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(s.prefix_id).toMatch(/^sch_[A-Za-z0-9]{10,14}$/);
    expect(s.tiny_id).toEqual(expect.any(Number));
    expect(new Date(s.created_at).toISOString()).toBe(s.created_at);
    expect(s.updated_at).toBe(s.created_at);
    expect(s).not.toHaveProperty('ignored');
  });

  it('numbers tiny_id sequentially per account', async () => {
    const a = (await account.api('POST', '/schedules', { name: 'Seq A' })).body;
    const b = (await account.api('POST', '/schedules', { name: 'Seq B' })).body;
    expect(b.tiny_id).toBe(a.tiny_id + 1);
  });

  it('422 naming the field when name is missing, blank or not a string', async () => {
    const missing = await account.api('POST', '/schedules', {});
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)).toEqual(['name is required']);
    const blank = await account.api('POST', '/schedules', { name: '   ' });
    expect(errorMessages(blank)).toEqual(["name can't be blank"]);
    const wrong = await account.api('POST', '/schedules', { name: 12 });
    expect(errorMessages(wrong)).toEqual(['name must be a string']);
  });

  it('retrieves by id and by prefix_id, updates, and deletes', async () => {
    const s = (await account.api('POST', '/schedules', { name: 'Before' })).body;
    expect((await account.api('GET', `/schedules/${s.prefix_id}`)).body.id).toBe(s.id);
    const updated = await account.api('PUT', `/schedules/${s.id}`, { name: 'After' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: s.id, name: 'After', tiny_id: s.tiny_id, created_at: s.created_at });
    expect(updated.body.updated_at >= s.updated_at).toBe(true);
    expect((await account.api('PUT', `/schedules/${s.id}`, { name: '' })).status).toBe(422);
    expect((await account.api('GET', `/schedules/${s.id}`)).body.name).toBe('After');
    expect((await account.api('DELETE', `/schedules/${s.prefix_id}`)).status).toBe(204);
    expect((await account.api('GET', `/schedules/${s.id}`)).status).toBe(404);
    expect((await account.api('DELETE', `/schedules/${s.id}`)).status).toBe(404);
  });

  it('404 for unknown ids in every form', async () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'sch_abcdefghijkl', 'tem_abcdefghijkl', 'nonsense']) {
      const reply = await account.api('GET', `/schedules/${id}`);
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Schedule not found']);
    }
  });
});

describe('schedules list engine through the gateway', () => {
  let fresh: TestAccount;
  const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliett', 'Kilo', 'Lima'];

  beforeAll(async () => {
    fresh = await newAccount('Lists');
    for (const name of names) await fresh.api('POST', '/schedules', { name, meta: { weight: name.length, short: name.length <= 4 } });
  });

  const list = (qs: string) => fresh.api('GET', `/schedules${qs}`);

  it('defaults to 10 newest first with has_more and an exact total', async () => {
    const reply = await list('');
    expect(reply.body.total_count).toBe(12);
    expect(reply.body.has_more).toBe(true);
    expect(reply.body.data.map((s: { name: string }) => s.name)).toEqual([...names].reverse().slice(0, 10));
  });

  it('pages with limit/offset and page, and ends exactly', async () => {
    expect((await list('?limit=5&page=3')).body).toMatchObject({ has_more: false, total_count: 12 });
    expect((await list('?limit=5&page=3')).body.data).toHaveLength(2);
    expect((await list('?limit=6&offset=6')).body.has_more).toBe(false);
    expect((await list('?limit=6&offset=5')).body.has_more).toBe(true);
    expect((await list('?offset=50')).body).toMatchObject({ data: [], has_more: false, total_count: 12 });
    expect((await list('?limit=1')).body.data).toHaveLength(1);
    expect((await list('?limit=100')).body.data).toHaveLength(12);
  });

  it('422 for a limit outside 1..100 or not a number', async () => {
    for (const limit of ['0', '101', 'ten', '-1']) {
      const reply = await list(`?limit=${limit}`);
      expect(reply.status).toBe(422);
      expect(errorMessages(reply)[0]).toMatch(/limit/);
    }
  });

  it('filters on strings, numbers and timestamps with every op', async () => {
    const names_ = async (qs: string) => (await list(qs)).body.data.map((s: { name: string }) => s.name).sort();
    expect(await names_('?name=Echo')).toEqual(['Echo']);
    expect(await names_('?name=Echo&ops=name:ne&limit=100')).toHaveLength(11);
    expect(await names_('?name=Ju&ops=name:beginsWith')).toEqual(['Juliett']);
    expect(await names_('?name=li&ops=name:contains')).toEqual(['Charlie', 'Juliett']);
    expect(await names_('?name=Bravo..Delta&ops=name:between')).toEqual(['Bravo', 'Charlie', 'Delta']);
    expect(await names_('?name=Kilo&ops=name:gte')).toEqual(['Kilo', 'Lima']);
    expect(await names_('?name=Bravo&ops=name:lt')).toEqual(['Alpha']);
    expect(await names_('?name=Bravo&ops=name:lte')).toEqual(['Alpha', 'Bravo']);
    expect(await names_('?name=Juliett&ops=name:gt')).toEqual(['Kilo', 'Lima']);
    expect(await names_('?name=Golf&ops=name:equals')).toEqual(['Golf']);
    expect(await names_('?meta.weight=4&limit=100')).toEqual(['Echo', 'Golf', 'Kilo', 'Lima']);
    expect(await names_('?meta.short=true&limit=100')).toEqual(['Echo', 'Golf', 'Kilo', 'Lima']);
    expect(await names_('?meta.short=1&limit=100')).toEqual(['Echo', 'Golf', 'Kilo', 'Lima']);
    expect(await names_('?meta.short=false&limit=100')).toHaveLength(8);
    expect((await list('?meta.short=maybe')).status).toBe(422);
    expect(await names_('?meta.weight=6&ops=meta.weight:gt')).toEqual(['Charlie', 'Foxtrot', 'Juliett']);
    expect(await names_('?meta.weight=6..7&ops=meta.weight:between')).toEqual(['Charlie', 'Foxtrot', 'Juliett']);
    const all = (await list('?limit=100&sort=created_at&direction=asc')).body.data;
    const cut = all[5].created_at;
    expect((await list(`?created_at=${encodeURIComponent(cut)}&ops=created_at:gte&limit=100`)).body.total_count).toBe(
      all.filter((s: { created_at: string }) => s.created_at >= cut).length,
    );
    expect((await list(`?tiny_id=${all[0].tiny_id}`)).body.data.map((s: { name: string }) => s.name)).toEqual(['Alpha']);
    expect((await list('?created_at=yesterday')).status).toBe(422);
    expect((await list('?tiny_id=abc')).status).toBe(422);
  });

  it('sorts both ways, and rejects an unknown sort attribute or direction', async () => {
    const asc = (await list('?sort=name&direction=asc&limit=3')).body.data.map((s: { name: string }) => s.name);
    expect(asc).toEqual(['Alpha', 'Bravo', 'Charlie']);
    const desc = (await list('?sort=name&direction=desc&limit=3')).body.data.map((s: { name: string }) => s.name);
    expect(desc).toEqual(['Lima', 'Kilo', 'Juliett']);
    expect((await list('?sort=shoe_size')).status).toBe(422);
    expect(errorMessages(await list('?sort=name&direction=sideways'))[0]).toMatch(/direction/);
  });

  it('searches with q case-insensitively, and rejects an unknown op', async () => {
    expect((await list('?q=ALPH')).body.data.map((s: { name: string }) => s.name)).toEqual(['Alpha']);
    expect((await list('?name=a&ops=name:like')).status).toBe(422);
  });
});

describe('roles', () => {
  it('lets a member read but answers 403 on changes', async () => {
    const member = await memberOf(account);
    expect((await request('GET', '/api/v4/schedules', { key: member })).status).toBe(200);
    const reply = await request('POST', '/api/v4/schedules', { key: member, body: { name: 'Nope' } });
    expect(reply.status).toBe(403);
    expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
  });
});

/** A member (no roles) of the account with a key of their own, made through the operator CLI. */
async function memberOf(owner: TestAccount): Promise<string> {
  const { createMemberKey } = await import('./members.ts');
  return createMemberKey(owner);
}
