// Routers through the gateway: default receivers, rules checked by lib/rules, receivers that must exist.
import { beforeAll, describe, expect, it } from 'vitest';
import { addTeam, adminAccountUser, errorMessages, newAccount, request, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;
let admin: { id: string; prefix_id: string };
let team: { id: string; prefix_id: string };

beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Routers'), newAccount('Other')]);
  admin = await adminAccountUser(acme);
  team = await addTeam(acme, 'Ops');
});

const rulesAssigning = (...receivers: string[]) => `rules:
- match: {alert.urgency: critical}
  actions:
  - type: assign
    receiver: [${receivers.join(', ')}]
- match: {always: true}
  actions: [{type: ignore}]
`;

describe('create', () => {
  it('creates with a default receiver; enabled defaults to true and rules to none', async () => {
    const reply = await acme.api('POST', '/routers', { name: 'Front door', default_receiver_team_id: team.prefix_id, meta: { owner: 'sre' } });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^rtr_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      name: 'Front door',
      enabled: true,
      rules: '',
      default_receiver_account_user_id: null,
      default_receiver_router_id: null,
      default_receiver_team_id: team.id,
      meta: { owner: 'sre' },
      created_at: expect.any(String),
      updated_at: reply.body.created_at,
    });
  });

  it('stores valid rules as written, with receivers of every kind', async () => {
    const other = (await acme.api('POST', '/routers', { name: 'Nested', default_receiver_account_user_id: admin.id })).body;
    const rules = rulesAssigning(team.prefix_id, admin.prefix_id, other.prefix_id);
    const reply = await acme.api('POST', '/routers', {
      name: 'Critical first',
      enabled: false,
      rules,
      default_receiver_account_user_id: admin.prefix_id,
      default_receiver_router_id: other.id,
      default_receiver_team_id: team.id,
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      enabled: false,
      rules,
      default_receiver_account_user_id: admin.id,
      default_receiver_router_id: other.id,
      default_receiver_team_id: team.id,
    });
  });

  it('422 for a rules document with problems, each with its line', async () => {
    const typo = await acme.api('POST', '/routers', {
      name: 'Typo',
      default_receiver_team_id: team.id,
      rules: `rules:\n- match: {always: true}\n  actions:\n  - type: asign\n    receiver: ${team.prefix_id}\n`,
    });
    expect(typo.status).toBe(422);
    expect(errorMessages(typo)).toEqual(['rules line 4: unknown action type "asign"']);
    const several = await acme.api('POST', '/routers', {
      name: 'Several',
      default_receiver_team_id: team.id,
      rules: 'rules:\n- match: {}\n  actions: [{type: ignore}]\n- match: {always: true}\n  actions: [{type: assign, receiver: team_ops}]\n',
    });
    expect(errorMessages(several)).toEqual([
      'rules line 2: match must not be empty; use {always: true} to match everything',
      'rules line 5: receiver must be a prefix id of an account user (usr_), team (tem_) or router (rtr_); got "team_ops"',
    ]);
    const yaml = await acme.api('POST', '/routers', { name: 'Broken', default_receiver_team_id: team.id, rules: 'rules: [' });
    expect(errorMessages(yaml)[0]).toMatch(/^rules line \d+: invalid YAML/);
    expect((await acme.api('GET', '/routers?q=Typo')).body.total_count).toBe(0);
  });

  it("422 naming receivers of the rules that do not exist in the account, another account's included", async () => {
    const theirTeam = await addTeam(globex, 'Their ops');
    const reply = await acme.api('POST', '/routers', {
      name: 'Ghosts',
      default_receiver_team_id: team.id,
      rules: rulesAssigning('tem_ops', theirTeam.prefix_id, 'usr_abcdefghijkl', 'rtr_abcdefghijkl', team.prefix_id),
    });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      'rules names unknown team tem_ops',
      `rules names unknown team ${theirTeam.prefix_id}`,
      'rules names unknown account user usr_abcdefghijkl',
      'rules names unknown router rtr_abcdefghijkl',
    ]);
  });

  it('422 without a default receiver, or with one that does not exist', async () => {
    const none = await acme.api('POST', '/routers', { name: 'Lost' });
    expect(none.status).toBe(422);
    expect(errorMessages(none)).toEqual([
      'default_receiver_account_user_id, default_receiver_router_id or default_receiver_team_id is required: a router needs a default receiver',
    ]);
    const blank = await acme.api('POST', '/routers', { name: 'Lost', default_receiver_team_id: '', default_receiver_router_id: null });
    expect(errorMessages(blank)).toEqual(errorMessages(none));
    const theirs = await adminAccountUser(globex);
    const unknown = await acme.api('POST', '/routers', {
      name: 'Lost',
      default_receiver_account_user_id: theirs.id,
      default_receiver_router_id: 'rtr_abcdefghijkl',
      default_receiver_team_id: admin.prefix_id,
    });
    expect(errorMessages(unknown)).toEqual([
      `default_receiver_account_user_id refers to unknown account user ${theirs.id}`,
      'default_receiver_router_id refers to unknown router rtr_abcdefghijkl',
      `default_receiver_team_id refers to unknown team ${admin.prefix_id}`,
    ]);
    const missingName = await acme.api('POST', '/routers', { default_receiver_team_id: team.id });
    expect(errorMessages(missingName)).toEqual(['name is required']);
  });
});

describe('update and delete', () => {
  it('PUT changes only what it is given and checks the router as a whole', async () => {
    const r = (await acme.api('POST', '/routers', { name: 'Editable', default_receiver_team_id: team.id })).body;
    const renamed = await acme.api('PUT', `/routers/${r.prefix_id}`, { name: 'Edited', enabled: false });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Edited', enabled: false, default_receiver_team_id: team.id, rules: '' });

    const swapped = await acme.api('PUT', `/routers/${r.id}`, { default_receiver_team_id: null, default_receiver_account_user_id: admin.prefix_id });
    expect(swapped.body).toMatchObject({ default_receiver_team_id: null, default_receiver_account_user_id: admin.id });
    const cleared = await acme.api('PUT', `/routers/${r.id}`, { default_receiver_account_user_id: null });
    expect(cleared.status).toBe(422);
    expect(errorMessages(cleared)[0]).toMatch(/^default_receiver_account_user_id, default_receiver_router_id or default_receiver_team_id is required/);

    const rules = rulesAssigning(team.prefix_id);
    expect((await acme.api('PUT', `/routers/${r.id}`, { rules })).body.rules).toBe(rules);
    const bad = await acme.api('PUT', `/routers/${r.id}`, { rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign}]\n' });
    expect(errorMessages(bad)).toEqual(['rules line 3: receiver is required']);
    expect((await acme.api('PUT', `/routers/${r.id}`, { rules: null })).body.rules).toBe('');
    expect((await acme.api('GET', `/routers/${r.id}`)).body).toMatchObject({ name: 'Edited', enabled: false, rules: '', default_receiver_account_user_id: admin.id });
  });

  it('422 when a router would send to itself', async () => {
    const r = (await acme.api('POST', '/routers', { name: 'Narcissus', default_receiver_team_id: team.id })).body;
    for (const self of [r.id, r.prefix_id]) {
      const reply = await acme.api('PUT', `/routers/${r.id}`, { default_receiver_router_id: self });
      expect(reply.status).toBe(422);
      expect(errorMessages(reply)).toEqual(['default_receiver_router_id cannot be the router itself']);
    }
    const loop = await acme.api('PUT', `/routers/${r.id}`, { rules: rulesAssigning(r.prefix_id) });
    expect(errorMessages(loop)).toEqual([`rules cannot assign the router to itself (${r.prefix_id})`]);
  });

  it('409 when deleting a router that another router or an integration sends alerts to', async () => {
    const target = (await acme.api('POST', '/routers', { name: 'Target', default_receiver_team_id: team.id })).body;
    const viaDefault = (await acme.api('POST', '/routers', { name: 'Via default', default_receiver_router_id: target.id })).body;
    const blocked = await acme.api('DELETE', `/routers/${target.id}`);
    expect(blocked.status).toBe(409);
    expect(errorMessages(blocked)).toEqual([`Router is used by router "Via default" (${viaDefault.prefix_id}); remove it from them first`]);

    await acme.api('PUT', `/routers/${viaDefault.id}`, { default_receiver_router_id: null, default_receiver_team_id: team.id, rules: rulesAssigning(target.prefix_id) });
    const integration = (await acme.api('POST', '/integrations', { name: 'Via integration', router_ids: [target.prefix_id] })).body;
    expect(errorMessages(await acme.api('DELETE', `/routers/${target.prefix_id}`))).toEqual([
      `Router is used by router "Via default" (${viaDefault.prefix_id}), integration "Via integration" (${integration.prefix_id}); remove it from them first`,
    ]);

    await acme.api('PUT', `/routers/${viaDefault.id}`, { rules: '' });
    await acme.api('PUT', `/integrations/${integration.id}`, { router_ids: [], team_ids: [team.id] });
    expect((await acme.api('DELETE', `/routers/${target.prefix_id}`)).status).toBe(204);
    expect((await acme.api('GET', `/routers/${target.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/routers/${target.id}`)).status).toBe(404);
  });

  it('404 for unknown ids in every form', async () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'rtr_abcdefghijkl', 'tem_abcdefghijkl', 'nonsense']) {
      for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
        const reply = await acme.api(method, `/routers/${id}`, body);
        expect(reply.status).toBe(404);
        expect(errorMessages(reply)).toEqual(['Router not found']);
      }
    }
  });

  it("404 for another account's router, which is never listed", async () => {
    const mine = (await acme.api('POST', '/routers', { name: 'Acme only', default_receiver_team_id: team.id })).body;
    for (const id of [mine.id, mine.prefix_id]) {
      expect((await globex.api('GET', `/routers/${id}`)).status).toBe(404);
      expect((await globex.api('PUT', `/routers/${id}`, { name: 'hijack' })).status).toBe(404);
      expect((await globex.api('DELETE', `/routers/${id}`)).status).toBe(404);
    }
    expect((await globex.api('GET', '/routers?limit=100')).body.data.map((r: { id: string }) => r.id)).not.toContain(mine.id);
  });
});

describe('lists', () => {
  it('filters on its own attributes', async () => {
    const fresh = await newAccount('Router lists');
    const user = await adminAccountUser(fresh);
    await fresh.api('POST', '/routers', { name: 'Alpha', default_receiver_account_user_id: user.id });
    await fresh.api('POST', '/routers', { name: 'Bravo', enabled: false, default_receiver_account_user_id: user.id });
    await fresh.api('POST', '/routers', { name: 'Charlie', default_receiver_account_user_id: user.id, rules: `rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: ${user.prefix_id}}]\n` });
    const names = async (qs: string) => (await fresh.api('GET', `/routers${qs}`)).body.data.map((r: { name: string }) => r.name).sort();
    expect((await fresh.api('GET', '/routers')).body).toMatchObject({ total_count: 3, has_more: false });
    expect(await names('?enabled=false')).toEqual(['Bravo']);
    expect(await names('?enabled=true')).toEqual(['Alpha', 'Charlie']);
    expect(await names(`?default_receiver_account_user_id=${user.id}`)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(await names(`?rules=${user.prefix_id}&ops=rules:contains`)).toEqual(['Charlie']);
    expect(await names('?name=B&ops=name:beginsWith')).toEqual(['Bravo']);
    expect(await names('?q=charl')).toEqual(['Charlie']);
    expect((await fresh.api('GET', '/routers?limit=1&page=2&sort=name&direction=asc')).body).toMatchObject({ data: [{ name: 'Bravo' }], has_more: true });
  });
});

describe('roles', () => {
  it('lets a member read but answers 403 on changes', async () => {
    const member = await createMemberKey(acme);
    const r = (await acme.api('POST', '/routers', { name: 'Guarded', default_receiver_team_id: team.id })).body;
    expect((await request('GET', `/api/v4/routers/${r.id}`, { key: member })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v4/routers', { name: 'Nope', default_receiver_team_id: team.id }],
      ['PUT', `/api/v4/routers/${r.id}`, { enabled: false }],
      ['DELETE', `/api/v4/routers/${r.id}`, undefined],
    ] as const) {
      const reply = await request(method, path, { key: member, body });
      expect(reply.status).toBe(403);
      expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
    }
  });
});
