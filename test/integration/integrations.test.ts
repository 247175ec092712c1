// Integrations through the gateway: CRUD, write-only tokens, destinations, lookups the webhook reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { getEntity } from '#lib/db/repository.ts';
import { INTEGRATION_TYPE_IDS } from '#lib/monitor-readers/index.ts';
import { addTeam, adminAccountUser, errorMessages, newAccount, request, type TestAccount, useTestStack } from './helpers.ts';
import { createMemberKey } from './members.ts';

const TOKEN = 'tok_0123456789abcdefghijklmnop';

let acme: TestAccount;
let globex: TestAccount;
let admin: { id: string; prefix_id: string };
let team: { id: string; prefix_id: string };

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Integrations'), newAccount('Other')]);
  admin = await adminAccountUser(acme);
  team = await addTeam(acme, 'Ops');
});

const webhook = (path: string, body: unknown, headers: Record<string, string> = {}) => request('POST', path, { body, headers });

describe('create', () => {
  it('creates with defaults: enabled, urgency high, the webhook type, no token', async () => {
    const reply = await acme.api('POST', '/integrations', { name: 'Grafana', account_user_ids: [admin.prefix_id] });
    expect(reply.status).toBe(201);
    const i = reply.body;
    expect(i).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^int_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      name: 'Grafana',
      enabled: true,
      urgency: 'high',
      integration_type: { id: 'webhook', name: 'webhook', description: 'Generic JSON webhook: POST /integration/<prefix_id>' },
      options: { has_token: false, capture_additional_data: false, wrapper_key: null },
      account_user_ids: [admin.id],
      router_ids: [],
      team_ids: [],
      inbound_url_path: `/integration/${i.prefix_id}`,
      meta: {},
      created_at: expect.any(String),
      updated_at: i.created_at,
    });
  });

  it('stores the token only as a hash and shows has_token; takes the flat option_* form too', async () => {
    const nested = await acme.api('POST', '/integrations', {
      name: 'Nested',
      urgency: 'critical',
      integration_type_id: 'webhook',
      options: { token: TOKEN, capture_additional_data: true, wrapper_key: 'data.attributes' },
      team_ids: [team.prefix_id],
    });
    expect(nested.status).toBe(201);
    expect(nested.body).toMatchObject({ urgency: 'critical', options: { has_token: true, capture_additional_data: true, wrapper_key: 'data.attributes' }, team_ids: [team.id] });
    expect(nested.text).not.toContain(TOKEN);
    const stored = await getEntity<{ options: Record<string, unknown> }>('INTEGRATION', acme.accountId, nested.body.id);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(stored.data.options.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const flat = await acme.api('POST', '/integrations', {
      name: 'Flat',
      type: 'webhook',
      option_token: TOKEN,
      option_capture_additional_data: true,
      option_wrapper_key: 'payload',
      account_user_ids: [admin.id],
      team_ids: [team.id, team.prefix_id],
    });
    expect(flat.status).toBe(201);
    expect(flat.body).toMatchObject({ options: { has_token: true, capture_additional_data: true, wrapper_key: 'payload' }, team_ids: [team.id] });
  });

  it('422 naming each missing or invalid parameter', async () => {
    const missing = await acme.api('POST', '/integrations', {});
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)).toEqual(['name is required']);
    const noDestination = await acme.api('POST', '/integrations', { name: 'Nowhere' });
    expect(errorMessages(noDestination)).toEqual(['account_user_ids, router_ids or team_ids must name at least one destination']);
    const empty = await acme.api('POST', '/integrations', { name: 'Nowhere', account_user_ids: [], team_ids: [] });
    expect(errorMessages(empty)).toEqual(['account_user_ids, router_ids or team_ids must name at least one destination']);
    const invalid = await acme.api('POST', '/integrations', {
      name: 'Bad',
      urgency: 'urgent',
      enabled: 'yes',
      options: { token: 'short', wrapper_key: 'a[' },
      account_user_ids: [admin.id],
    });
    expect(errorMessages(invalid)).toEqual([
      'enabled must be true or false',
      'urgency must be one of low, medium, high, critical',
      'options.token must be 16 to 256 visible ASCII characters without spaces',
      'options.wrapper_key must be a JMESPath expression such as data or data.attributes (Syntax error: expected Star, got: EOF)',
    ]);
    const type = await acme.api('POST', '/integrations', { name: 'Nagios', integration_type_id: 'nagios', account_user_ids: [admin.id] });
    expect(errorMessages(type)).toEqual([`integration_type_id must be one of ${INTEGRATION_TYPE_IDS.join(', ')}; got "nagios"`]);
    const disagree = await acme.api('POST', '/integrations', { name: 'Both', options: { token: TOKEN }, option_token: `${TOKEN}x`, account_user_ids: [admin.id] });
    expect(errorMessages(disagree)).toEqual(['option_token and options.token disagree; give one of them']);
  });

  it("422 naming unknown destinations, including another account's", async () => {
    const theirs = await adminAccountUser(globex);
    const theirTeam = await addTeam(globex, 'Their team');
    const reply = await acme.api('POST', '/integrations', {
      name: 'Unknown',
      account_user_ids: [theirs.prefix_id],
      router_ids: ['rtr_abcdefghijkl'],
      team_ids: [theirTeam.id, 'nonsense'],
    });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      `account_user_ids contains unknown account user ${theirs.prefix_id}`,
      'router_ids contains unknown router rtr_abcdefghijkl',
      `team_ids contains unknown team ${theirTeam.id}`,
      'team_ids contains unknown team nonsense',
    ]);
    expect((await acme.api('GET', '/integrations?name=Unknown')).body.total_count).toBe(0);
  });

  it('accepts a router destination', async () => {
    const router = (await acme.api('POST', '/routers', { name: 'Front door', default_receiver_team_id: team.id })).body;
    const reply = await acme.api('POST', '/integrations', { name: 'Routed', router_ids: [router.prefix_id] });
    expect(reply.status).toBe(201);
    expect(reply.body.router_ids).toEqual([router.id]);
  });
});

describe('read, update, delete', () => {
  it('reads by id and prefix_id; PUT changes only what it is given', async () => {
    const i = (await acme.api('POST', '/integrations', { name: 'Prometheus', options: { token: TOKEN }, account_user_ids: [admin.id] })).body;
    expect((await acme.api('GET', `/integrations/${i.prefix_id}`)).body).toEqual(i);
    expect((await acme.api('GET', `/integrations/${i.id}`)).body).toEqual(i);

    const renamed = await acme.api('PUT', `/integrations/${i.id}`, { name: 'Prometheus prod', urgency: 'low' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Prometheus prod', urgency: 'low', enabled: true, options: { has_token: true }, account_user_ids: [admin.id] });

    const disabled = await acme.api('PUT', `/integrations/${i.prefix_id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, name: 'Prometheus prod' });
    expect((await acme.api('PUT', `/integrations/${i.id}`, { enabled: true })).body.enabled).toBe(true);

    const cleared = await acme.api('PUT', `/integrations/${i.id}`, { options: { token: null } });
    expect(cleared.body.options.has_token).toBe(false);
    const moved = await acme.api('PUT', `/integrations/${i.id}`, { account_user_ids: [], team_ids: [team.prefix_id] });
    expect(moved.body).toMatchObject({ account_user_ids: [], team_ids: [team.id] });

    const none = await acme.api('PUT', `/integrations/${i.id}`, { team_ids: [] });
    expect(none.status).toBe(422);
    expect(errorMessages(none)).toEqual(['account_user_ids, router_ids or team_ids must name at least one destination']);
    expect(errorMessages(await acme.api('PUT', `/integrations/${i.id}`, { name: ' ' }))).toEqual(["name can't be blank"]);
    expect((await acme.api('GET', `/integrations/${i.id}`)).body).toMatchObject({ name: 'Prometheus prod', team_ids: [team.id] });
  });

  it('deletes with 204, then 404; the webhook stops answering for it', async () => {
    const i = (await acme.api('POST', '/integrations', { name: 'Short-lived', account_user_ids: [admin.id] })).body;
    expect((await webhook(i.inbound_url_path, { title: 'before' })).status).toBe(200);
    expect((await acme.api('DELETE', `/integrations/${i.prefix_id}`)).status).toBe(204);
    expect((await acme.api('GET', `/integrations/${i.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/integrations/${i.id}`)).status).toBe(404);
    for (const path of [i.inbound_url_path, `/integration/${i.id}`]) {
      const reply = await webhook(path, { title: 'after' });
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Integration not found']);
    }
  });

  it('takes a deleted integration out of maintenance windows, deleting windows left with none', async () => {
    const a = (await acme.api('POST', '/integrations', { name: 'Window A', account_user_ids: [admin.id] })).body;
    const b = (await acme.api('POST', '/integrations', { name: 'Window B', account_user_ids: [admin.id] })).body;
    const times = { start_datetime: '2031-01-01T00:00:00Z', end_datetime: '2031-01-02T00:00:00Z', time_zone: 'UTC' };
    const shared = (await acme.api('POST', '/maintenance_windows', { name: 'Shared', ...times, integration_ids: [a.id, b.id] })).body;
    const only = (await acme.api('POST', '/maintenance_windows', { name: 'Only A', ...times, integration_ids: [a.id] })).body;
    const onlyToo = (await acme.api('POST', '/maintenance_windows', { name: 'Only A too', ...times, integration_ids: [a.prefix_id] })).body;
    const before = (await acme.api('GET', '/maintenance_windows')).body.total_count;

    expect((await acme.api('DELETE', `/integrations/${a.id}`)).status).toBe(204);
    const after = await acme.api('GET', `/maintenance_windows/${shared.id}`);
    expect(after.body.integration_ids).toEqual([b.id]);
    expect(after.body.updated_at >= shared.updated_at).toBe(true);
    expect((await acme.api('GET', `/maintenance_windows/${only.id}`)).status).toBe(404);
    expect((await acme.api('GET', `/maintenance_windows/${onlyToo.prefix_id}`)).status).toBe(404);
    expect((await acme.api('GET', '/maintenance_windows')).body.total_count).toBe(before - 2);
  });

  it('404 for unknown ids in every form', async () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'int_abcdefghijkl', 'tem_abcdefghijkl', 'nonsense']) {
      for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
        const reply = await acme.api(method, `/integrations/${id}`, body);
        expect(reply.status).toBe(404);
        expect(errorMessages(reply)).toEqual(['Integration not found']);
      }
    }
  });

  it("404 for another account's integration by id and prefix_id, and never lists it", async () => {
    const mine = (await acme.api('POST', '/integrations', { name: 'Acme only', account_user_ids: [admin.id] })).body;
    for (const id of [mine.id, mine.prefix_id]) {
      expect((await globex.api('GET', `/integrations/${id}`)).status).toBe(404);
      expect((await globex.api('PUT', `/integrations/${id}`, { enabled: false })).status).toBe(404);
      expect((await globex.api('DELETE', `/integrations/${id}`)).status).toBe(404);
    }
    expect((await globex.api('GET', '/integrations?limit=100')).body.data.map((i: { id: string }) => i.id)).not.toContain(mine.id);
    expect((await acme.api('GET', `/integrations/${mine.id}`)).body.enabled).toBe(true);
  });
});

describe('lists', () => {
  let fresh: TestAccount;

  beforeAll(async () => {
    fresh = await newAccount('Integration lists');
    const user = await adminAccountUser(fresh);
    await fresh.api('POST', '/integrations', { name: 'Alpha', urgency: 'low', account_user_ids: [user.id] });
    await fresh.api('POST', '/integrations', { name: 'Bravo', enabled: false, options: { token: TOKEN }, account_user_ids: [user.id] });
    await fresh.api('POST', '/integrations', { name: 'Charlie', urgency: 'critical', options: { capture_additional_data: true }, account_user_ids: [user.id] });
  });

  const names = async (qs: string) => (await fresh.api('GET', `/integrations${qs}`)).body.data.map((i: { name: string }) => i.name).sort();

  it('filters on its own attributes, nested ones included', async () => {
    expect((await fresh.api('GET', '/integrations')).body).toMatchObject({ total_count: 3, has_more: false });
    expect(await names('?enabled=false')).toEqual(['Bravo']);
    expect(await names('?urgency=low')).toEqual(['Alpha']);
    expect(await names('?urgency=high&ops=urgency:ne')).toEqual(['Alpha', 'Charlie']);
    expect(await names('?options.has_token=true')).toEqual(['Bravo']);
    expect(await names('?options.capture_additional_data=true')).toEqual(['Charlie']);
    expect(await names('?integration_type.name=webhook')).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(await names('?name=ar&ops=name:contains')).toEqual(['Charlie']);
    expect(await names('?q=BRA')).toEqual(['Bravo']);
    expect((await fresh.api('GET', '/integrations?sort=name&direction=asc&limit=2')).body.data.map((i: { name: string }) => i.name)).toEqual(['Alpha', 'Bravo']);
  });
});

describe('roles', () => {
  it('lets a member read but answers 403 on changes', async () => {
    const member = await createMemberKey(acme);
    const i = (await acme.api('POST', '/integrations', { name: 'Guarded', account_user_ids: [admin.id] })).body;
    expect((await request('GET', '/api/v4/integrations', { key: member })).status).toBe(200);
    expect((await request('GET', `/api/v4/integrations/${i.id}`, { key: member })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v4/integrations', { name: 'Nope', account_user_ids: [admin.id] }],
      ['PUT', `/api/v4/integrations/${i.id}`, { enabled: false }],
      ['DELETE', `/api/v4/integrations/${i.id}`, undefined],
    ] as const) {
      const reply = await request(method, path, { key: member, body });
      expect(reply.status).toBe(403);
      expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
    }
    expect((await acme.api('GET', `/integrations/${i.id}`)).body.enabled).toBe(true);
  });
});
