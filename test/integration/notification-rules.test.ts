// Notification rules through the gateway: rules checked by lib/rule-engine on every write; rules in use stay.
import { beforeAll, describe, expect, it } from 'vitest';
import { errorMessages, newAccount, request, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;

beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Notification rules'), newAccount('Other')]);
});

const NIGHT = `rules:
- match: {$timeBetween: {timezone: Berlin, starttime: "10:00 pm", endtime: "07:00 am"}}
  actions:
  - {type: notify, channels: [push], timeout: 5m}
  - {type: notify, channels: [voice], channel_options: {voice: secondary, voice_fallback: true}, timeout: 10m}
  - {type: repeat, times: 2}
- types: [alert.resolved, alert.acknowledged]
  match: {always: true}
  actions: [{type: notify, channels: [push]}]
`;

describe('create', () => {
  it('creates with enabled true and no rules by default', async () => {
    const reply = await acme.api('POST', '/notification_rules', { name: 'Default' });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^ntr_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      name: 'Default',
      enabled: true,
      rules: '',
      meta: {},
      created_at: expect.any(String),
      updated_at: reply.body.created_at,
    });
  });

  it('stores valid rules as written', async () => {
    const reply = await acme.api('POST', '/notification_rules', { name: 'Night', enabled: false, rules: NIGHT });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ name: 'Night', enabled: false, rules: NIGHT });
  });

  it('422 naming the field and the line of every problem', async () => {
    expect(errorMessages(await acme.api('POST', '/notification_rules', {}))).toEqual(['name is required']);
    expect(errorMessages(await acme.api('POST', '/notification_rules', { name: 'x', rules: { rules: [] } }))).toEqual(['rules must be a string of YAML']);
    const router = await acme.api('POST', '/notification_rules', {
      name: 'Router actions',
      rules: 'rules:\n- match: {always: true}\n  actions:\n  - type: assign\n    receiver: tem_ops\n',
    });
    expect(router.status).toBe(422);
    expect(errorMessages(router)).toEqual(['rules line 4: unknown action type "assign"']);
    const several = await acme.api('POST', '/notification_rules', {
      name: 'Several',
      rules: 'rules:\n- types: [alert.opened]\n  match: {always: true}\n  actions: [{type: repeat, times: 5}]\n',
    });
    const messages = errorMessages(several);
    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages.every((m) => /^rules line \d+: /.test(m))).toBe(true);
    expect(messages.join('\n')).toContain('unknown notification type "alert.opened"');
    expect((await acme.api('GET', '/notification_rules?name=Several')).body.total_count).toBe(0);
  });
});

describe('update and delete', () => {
  it('PUT changes only what it is given and checks the rules again', async () => {
    const rule = (await acme.api('POST', '/notification_rules', { name: 'Editable', rules: NIGHT })).body;
    const renamed = await acme.api('PUT', `/notification_rules/${rule.prefix_id}`, { name: 'Edited' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Edited', enabled: true, rules: NIGHT });
    expect((await acme.api('PUT', `/notification_rules/${rule.id}`, { enabled: false })).body.enabled).toBe(false);
    const bad = await acme.api('PUT', `/notification_rules/${rule.id}`, { rules: 'rules:\n- match: {always: true}\n  actions: [{type: notify, channels: [fax]}]\n' });
    expect(bad.status).toBe(422);
    expect(errorMessages(bad)).toEqual(['rules line 3: unknown channel "fax"']);
    expect(errorMessages(await acme.api('PUT', `/notification_rules/${rule.id}`, { name: '' }))).toEqual(["name can't be blank"]);
    expect((await acme.api('PUT', `/notification_rules/${rule.id}`, { rules: null })).body.rules).toBe('');
    expect((await acme.api('GET', `/notification_rules/${rule.id}`)).body).toMatchObject({ name: 'Edited', enabled: false, rules: '' });
  });

  it('deletes with 204; 409 while an account user is paged by it', async () => {
    const rule = (await acme.api('POST', '/notification_rules', { name: 'In use' })).body;
    const assigned = await acme.api('PUT', `/account_users/${acme.adminAccountUserId}`, { notification_rule_id: rule.prefix_id });
    expect(assigned.status).toBe(200);
    const admin = assigned.body;
    const blocked = await acme.api('DELETE', `/notification_rules/${rule.id}`);
    expect(blocked.status).toBe(409);
    expect(errorMessages(blocked)).toEqual([`Notification rule is used by account users ${admin.prefix_id}; give them another notification rule first`]);

    expect((await acme.api('PUT', `/account_users/${acme.adminAccountUserId}`, { notification_rule_id: null })).status).toBe(200);
    expect((await acme.api('DELETE', `/notification_rules/${rule.prefix_id}`)).status).toBe(204);
    expect((await acme.api('GET', `/notification_rules/${rule.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/notification_rules/${rule.id}`)).status).toBe(404);
  });

  it('404 for unknown ids in every form', async () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'ntr_abcdefghijkl', 'rtr_abcdefghijkl', 'nonsense']) {
      for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
        const reply = await acme.api(method, `/notification_rules/${id}`, body);
        expect(reply.status).toBe(404);
        expect(errorMessages(reply)).toEqual(['Notification rule not found']);
      }
    }
  });

  it("404 for another account's rule, which is never listed", async () => {
    const mine = (await acme.api('POST', '/notification_rules', { name: 'Acme only' })).body;
    for (const id of [mine.id, mine.prefix_id]) {
      expect((await globex.api('GET', `/notification_rules/${id}`)).status).toBe(404);
      expect((await globex.api('PUT', `/notification_rules/${id}`, { name: 'hijack' })).status).toBe(404);
      expect((await globex.api('DELETE', `/notification_rules/${id}`)).status).toBe(404);
    }
    expect((await globex.api('GET', '/notification_rules?limit=100')).body.data.map((r: { id: string }) => r.id)).not.toContain(mine.id);
  });
});

describe('lists', () => {
  it('filters on its own attributes', async () => {
    const fresh = await newAccount('Rule lists');
    await fresh.api('POST', '/notification_rules', { name: 'Alpha' });
    await fresh.api('POST', '/notification_rules', { name: 'Bravo', enabled: false });
    await fresh.api('POST', '/notification_rules', { name: 'Charlie', rules: NIGHT });
    const names = async (qs: string) => (await fresh.api('GET', `/notification_rules${qs}`)).body.data.map((r: { name: string }) => r.name).sort();
    expect((await fresh.api('GET', '/notification_rules')).body).toMatchObject({ total_count: 3, has_more: false });
    expect(await names('?enabled=false')).toEqual(['Bravo']);
    expect(await names('?rules=voice&ops=rules:contains')).toEqual(['Charlie']);
    expect(await names('?rules=&ops=rules:ne')).toEqual(['Charlie']);
    expect(await names('?name=Alpha')).toEqual(['Alpha']);
    expect(await names('?q=RAV')).toEqual(['Bravo']);
  });
});

describe('roles', () => {
  it('lets a member read but answers 403 on changes', async () => {
    const member = await createMemberKey(acme);
    const rule = (await acme.api('POST', '/notification_rules', { name: 'Guarded' })).body;
    expect((await request('GET', `/api/v4/notification_rules/${rule.id}`, { key: member })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v4/notification_rules', { name: 'Nope' }],
      ['PUT', `/api/v4/notification_rules/${rule.id}`, { enabled: false }],
      ['DELETE', `/api/v4/notification_rules/${rule.id}`, undefined],
    ] as const) {
      const reply = await request(method, path, { key: member, body });
      expect(reply.status).toBe(403);
      expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
    }
  });
});
