// /account_users through the gateway: memberships, roles, teams, notification rules, invitations, the last
// admin, and removal from an account with everything that names the account user.
import { beforeAll, describe, expect, it } from 'vitest';
import { findApiKey, issueApiKey } from '#lib/auth/api-keys.ts';
import { countOf, createEntity, findEntity, listEntities, type EntityItem } from '#lib/db/repository.ts';
import { errorMessages, newAccount, request, useTestStack, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;
let n = 0;
const UNKNOWN_ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const address = (label: string) => `${label}-${process.pid}-${Date.now()}-${++n}@example.test`;

interface TeamData {
  name: string;
  member_account_user_ids: string[];
  admin_account_user_ids: string[];
  drop_notifications: string;
  handoff_notifications: string;
  drop_notification_account_user_ids: string[];
  handoff_notification_account_user_ids: string[];
}

/** A team stored directly (the teams group has its own tests): the stored shape other groups rely on. */
const team = (account: TestAccount, name: string, lists: Partial<TeamData> = {}) =>
  createEntity<TeamData & Record<string, unknown>>('TEAM', account.accountId, {
    name,
    notes: null,
    schedule_id: UNKNOWN_ULID,
    escalation_policy_id: UNKNOWN_ULID,
    member_account_user_ids: [],
    admin_account_user_ids: [],
    drop_notifications: 'none',
    handoff_notifications: 'none',
    drop_notification_account_user_ids: [],
    handoff_notification_account_user_ids: [],
    attachments: [],
    ...lists,
  });

const notificationRule = (account: TestAccount, name: string) => createEntity('NOTIFICATION_RULE', account.accountId, { name, enabled: true, rules: null });

const stored = <D>(type: Parameters<typeof findEntity>[0], account: TestAccount, id: string) => findEntity<D>(type, account.accountId, id);

/** POST /account_users for a new person. */
const addMember = async (account: TestAccount, body: Record<string, unknown> = {}, name = `Person ${n + 1}`) => {
  const reply = await account.api('POST', '/account_users', { user_attributes: { name, emails_attributes: [{ email: address('person') }] }, ...body });
  if (reply.status !== 201) throw new Error(`POST /account_users: ${reply.status} ${reply.text}`);
  return reply.body as { id: string; prefix_id: string; user_id: string; team_ids: string[] };
};

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
});

describe('POST /account_users', () => {
  it('creates the person and the membership in one call: 201 with user, roles, teams and notification rule', async () => {
    const [ops, dev] = await Promise.all([team(acme, 'Ops'), team(acme, 'Dev')]);
    const rule = await notificationRule(acme, 'Nights');
    const email = address('lin');
    const reply = await acme.api('POST', '/account_users', {
      user_attributes: {
        name: 'Lin Chen',
        notify_voice: true,
        emails_attributes: [{ email: address('lin-home') }, { email, primary: true }],
        phones_attributes: [{ phone: '+81 90 1234 5678' }],
      },
      roles: { broadcaster: true, communicator: true },
      notification_rule_id: rule.prefixId,
      member_team_ids: [ops.prefixId, dev.id],
      meta: { source: 'hr' },
    });
    expect(reply.status).toBe(201);
    const au = reply.body;
    expect(au).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^usr_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      user_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      user: {
        id: au.user_id,
        name: 'Lin Chen',
        time_zone: null,
        preferred_language: null,
        last_sign_in_at: null,
        emails: [
          { id: expect.stringMatching(/^em_/), email: expect.stringMatching(/^lin-home/), primary: false },
          { id: expect.stringMatching(/^em_/), email, primary: true },
        ],
        phones: [{ id: expect.any(String), prefix_id: expect.stringMatching(/^ph_/), phone: '+819012345678', primary: true, country: 'JP', blocked: false, confirmation_method: 'sms' }],
        notify_push: true,
        notify_email: true,
        notify_sms: false,
        notify_voice: true,
      },
      roles: { admin: false, billing: false, broadcaster: true, communicator: true },
      notification_rule_id: rule.id,
      status: 'active',
      invitation: null,
      team_ids: expect.arrayContaining([ops.id, dev.id]),
      meta: { source: 'hr' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(au.team_ids).toHaveLength(2);
    for (const t of [ops, dev]) expect((await stored<TeamData>('TEAM', acme, t.id))!.data.member_account_user_ids).toEqual([au.id]);
    const outbox = (await acme.api('GET', `/outbox?account_user_id=${au.id}`)).body.data;
    expect(outbox.map((m: { template: string; to: string }) => [m.template, m.to])).toEqual([['user_credentials', email]]);
    expect((await acme.api('GET', `/users/${au.user_id}`)).body).toMatchObject({ prefix_id: au.prefix_id, name: 'Lin Chen' });
  });

  it('takes roles as a list of names, and team_ids like member_team_ids', async () => {
    const t = await team(acme, 'Roles');
    const au = await addMember(acme, { roles: ['admin', 'billing'], team_ids: [t.id] });
    expect(au).toMatchObject({ roles: { admin: true, billing: true, broadcaster: false, communicator: false }, team_ids: [t.id] });
  });

  it('422 naming every problem', async () => {
    const theirTeam = await team(globex, 'Theirs');
    const theirRule = await notificationRule(globex, 'Theirs');
    const missing = await acme.api('POST', '/account_users', {});
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)).toEqual(['user_attributes is required']);
    const empty = await acme.api('POST', '/account_users', { user_attributes: {} });
    expect(errorMessages(empty)).toEqual(['user_attributes.name is required', 'user_attributes.email is required: give email or emails_attributes with at least one email']);
    const refs = await acme.api('POST', '/account_users', {
      user_attributes: { name: 'Refs', email: address('refs'), phones_attributes: [{ phone: 'nope' }] },
      notification_rule_id: theirRule.id,
      member_team_ids: [theirTeam.id, 'tem_abcdefghijkl'],
    });
    expect(errorMessages(refs)).toEqual([
      `notification_rule_id refers to unknown notification rule ${theirRule.id}`,
      `member_team_ids contains unknown team ${theirTeam.id}`,
      'member_team_ids contains unknown team tem_abcdefghijkl',
      'user_attributes.phones_attributes[0].phone is not a phone number: "nope"',
    ]);
    // A value that cannot be an id is refused by its shape, before any read, and the message does not repeat it.
    const hostile = 'x'.repeat(10_000);
    const shaped = await acme.api('POST', '/account_users', {
      user_attributes: { name: 'Shaped', email: address('shaped'), emails_attributes: [{ id: hostile, email: address('shaped2') }] },
      notification_rule_id: hostile,
    });
    expect(shaped.status).toBe(422);
    expect(errorMessages(shaped)).toEqual(expect.arrayContaining([expect.stringMatching(/^notification_rule_id is not an id /)]));
    expect(JSON.stringify(shaped.body)).not.toContain(hostile);
    const roles = await acme.api('POST', '/account_users', { user_attributes: { name: 'R', email: address('r') }, roles: { owner: true, admin: 'yes' } });
    expect(errorMessages(roles)).toEqual([
      'roles.owner is not a role; roles are admin, billing, broadcaster, communicator',
      'roles.admin must be true or false',
    ]);
    expect(errorMessages(await acme.api('POST', '/account_users', { user_attributes: { name: 'R', email: address('r') }, roles: 'admin' }))).toEqual([
      'roles must be an object of booleans (admin, billing, broadcaster, communicator) or a list of role names',
    ]);
    expect(errorMessages(await acme.api('POST', '/account_users', { user_attributes: { id: UNKNOWN_ULID } }))).toEqual([
      `user_attributes.id refers to unknown user ${UNKNOWN_ULID}`,
    ]);
  });

  it('invites an existing person by user_attributes.id or by email; 409 when already in the account', async () => {
    const email = address('invitee');
    const theirs = (await globex.api('POST', '/users', { name: 'Invitee', email })).body;
    const byId = await acme.api('POST', '/account_users', { user_attributes: { id: theirs.id }, roles: { communicator: true } });
    expect(byId.status).toBe(201);
    expect(byId.body).toMatchObject({
      user_id: theirs.id,
      status: 'invited',
      roles: { communicator: true },
      invitation: { email, invited_by_account_user_id: acme.adminAccountUserId },
      user: { name: 'Invitee', emails: [{ email, primary: true }], phones: [] },
    });
    const again = await acme.api('POST', '/account_users', { user_attributes: { name: 'X', email } });
    expect(again.status).toBe(409);
    expect(errorMessages(again)).toEqual([`user_attributes.email ${email}: the person has already been invited to this account (${byId.body.prefix_id})`]);
    const ownAdmin = (await acme.api('GET', `/account_users/${acme.adminAccountUserId}`)).body;
    const self = await acme.api('POST', '/account_users', { user_attributes: { id: ownAdmin.user_id } });
    expect(errorMessages(self)).toEqual([`user_attributes.id ${ownAdmin.user_id}: the person is already a user of this account (${ownAdmin.prefix_id})`]);
  });

  it('403 for a member', async () => {
    const key = await createMemberKey(acme);
    const reply = await request('POST', '/api/v4/account_users', { key, body: { user_attributes: { name: 'X', email: address('x') } } });
    expect(reply.status).toBe(403);
  });
});

describe('GET /account_users', () => {
  let fresh: TestAccount;
  let lead: { id: string; user_id: string };
  let invited: { id: string };

  beforeAll(async () => {
    fresh = await newAccount('AUList');
    lead = await addMember(fresh, { roles: { admin: true } }, 'Lead Person');
    await addMember(fresh, {}, 'Plain Person');
    const outsider = (await globex.api('POST', '/users', { name: 'Guest Person', email: address('guest') })).body;
    invited = (await fresh.api('POST', '/account_users', { user_attributes: { id: outsider.id } })).body;
  });

  it('lists the account users with the list engine: roles.admin, user_id, user.name, status, q', async () => {
    const ids = async (qs: string) => (await fresh.api('GET', `/account_users${qs}`)).body.data.map((a: { id: string }) => a.id);
    const all = (await fresh.api('GET', '/account_users')).body;
    expect(all.total_count).toBe(4);
    expect(new Set(await ids('?roles.admin=true'))).toEqual(new Set([fresh.adminAccountUserId, lead.id]));
    expect(await ids(`?user_id=${lead.user_id}`)).toEqual([lead.id]);
    expect(await ids('?user.name=Plain%20Person')).toHaveLength(1);
    expect(await ids('?status=invited')).toEqual([invited.id]);
    expect(await ids('?q=guest')).toEqual([invited.id]);
    expect(await ids('?roles.admin=false&status=active')).toHaveLength(1);
  });

  it('retrieves by id and prefix_id; 404 for unknown ids and for another account', async () => {
    const au = (await fresh.api('GET', `/account_users/${lead.id}`)).body;
    expect((await fresh.api('GET', `/account_users/${au.prefix_id}`)).body.id).toBe(lead.id);
    for (const id of [UNKNOWN_ULID, 'usr_abcdefghijkl', lead.user_id]) {
      const reply = await fresh.api('GET', `/account_users/${id}`);
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Account user not found']);
    }
    for (const id of [lead.id, au.prefix_id]) expect((await globex.api('GET', `/account_users/${id}`)).status).toBe(404);
  });

  it('members may read', async () => {
    const key = await createMemberKey(fresh);
    expect((await request('GET', '/api/v4/account_users', { key })).status).toBe(200);
    expect((await request('GET', `/api/v4/account_users/${lead.id}`, { key })).status).toBe(200);
  });
});

describe('PUT /account_users/:id', () => {
  it('changes roles (object keeps the others, list replaces), notification rule and meta', async () => {
    const rule = await notificationRule(acme, 'Weekends');
    const au = await addMember(acme, { roles: { billing: true } });
    const changed = await acme.api('PUT', `/account_users/${au.prefix_id}`, { roles: { broadcaster: true }, notification_rule_id: rule.id, meta: { a: 1 } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ roles: { admin: false, billing: true, broadcaster: true, communicator: false }, notification_rule_id: rule.id, meta: { a: 1 } });
    const replaced = await acme.api('PUT', `/account_users/${au.id}`, { roles: ['communicator'], notification_rule_id: null });
    expect(replaced.body).toMatchObject({ roles: { admin: false, billing: false, broadcaster: false, communicator: true }, notification_rule_id: null, meta: { a: 1 } });
    expect((await acme.api('GET', `/account_users/${au.id}`)).body).toEqual(replaced.body);
  });

  it('member_team_ids sets the teams it is a member of; admin places are kept', async () => {
    const au = await addMember(acme);
    const [a, b, c] = await Promise.all([team(acme, 'A', { member_account_user_ids: [au.id] }), team(acme, 'B'), team(acme, 'C')]);
    const led = await team(acme, 'Led', { admin_account_user_ids: [au.id] });
    const reply = await acme.api('PUT', `/account_users/${au.id}`, { member_team_ids: [b.prefixId, c.id] });
    expect(reply.status).toBe(200);
    expect(new Set(reply.body.team_ids)).toEqual(new Set([b.id, c.id, led.id]));
    expect((await stored<TeamData>('TEAM', acme, a.id))!.data.member_account_user_ids).toEqual([]);
    expect((await stored<TeamData>('TEAM', acme, b.id))!.data.member_account_user_ids).toEqual([au.id]);
    expect((await stored<TeamData>('TEAM', acme, led.id))!.data).toMatchObject({ admin_account_user_ids: [au.id], member_account_user_ids: [] });
    const unknown = await acme.api('PUT', `/account_users/${au.id}`, { member_team_ids: ['tem_abcdefghijkl'] });
    expect(unknown.status).toBe(422);
    expect(errorMessages(unknown)).toEqual(['member_team_ids contains unknown team tem_abcdefghijkl']);
  });

  it("changes the person's profile through user_attributes", async () => {
    const au = await addMember(acme);
    const reply = await acme.api('PUT', `/account_users/${au.id}`, { user_attributes: { name: 'Changed Name', phones_attributes: [{ phone: '+1 212 555 0143' }] } });
    expect(reply.status).toBe(200);
    expect(reply.body.user).toMatchObject({ name: 'Changed Name', phones: [{ phone: '+12125550143', country: 'US', primary: true }] });
    expect((await acme.api('GET', `/users/${au.user_id}`)).body.name).toBe('Changed Name');
    const wrong = await acme.api('PUT', `/account_users/${au.id}`, { user_attributes: { id: UNKNOWN_ULID, name: 'X' } });
    expect(errorMessages(wrong)).toEqual([`user_attributes.id must be the id of this account user's user (${au.user_id}); an account user's person cannot be replaced`]);
  });

  it('409 when demoting the last admin; fine once there is another', async () => {
    const solo = await newAccount('LastAdmin');
    const demote = await solo.api('PUT', `/account_users/${solo.adminAccountUserId}`, { roles: { admin: false } });
    expect(demote.status).toBe(409);
    const prefix = (await solo.api('GET', `/account_users/${solo.adminAccountUserId}`)).body.prefix_id;
    expect(errorMessages(demote)).toEqual([`${prefix} is the last admin of this account and cannot be demoted; make another account user an admin first`]);
    expect(errorMessages(await solo.api('PUT', `/account_users/${solo.adminAccountUserId}`, { roles: ['billing'] }))).toEqual(errorMessages(demote));
    // An invited admin cannot act yet, so it does not count.
    const outsider = (await globex.api('POST', '/users', { name: 'Not Yet', email: address('not-yet') })).body;
    await solo.api('POST', '/account_users', { user_attributes: { id: outsider.id }, roles: { admin: true } });
    expect((await solo.api('PUT', `/account_users/${solo.adminAccountUserId}`, { roles: { admin: false } })).status).toBe(409);
    await addMember(solo, { roles: { admin: true } });
    const ok = await solo.api('PUT', `/account_users/${solo.adminAccountUserId}`, { roles: { admin: false } });
    expect(ok.status).toBe(200);
    expect(ok.body.roles.admin).toBe(false);
    // The key now acts as a member.
    expect((await solo.api('POST', '/account_users', { user_attributes: { name: 'Y', email: address('y') } })).status).toBe(403);
  });

  it('404 for unknown ids and another account; 403 for a member', async () => {
    const au = await addMember(acme);
    for (const id of [UNKNOWN_ULID, 'usr_abcdefghijkl']) expect((await acme.api('PUT', `/account_users/${id}`, { roles: {} })).status).toBe(404);
    expect((await globex.api('PUT', `/account_users/${au.id}`, { roles: { admin: true } })).status).toBe(404);
    const key = await createMemberKey(acme);
    const reply = await request('PUT', `/api/v4/account_users/${au.id}`, { key, body: { roles: { admin: true } } });
    expect(reply.status).toBe(403);
    expect((await acme.api('GET', `/account_users/${au.id}`)).body.roles.admin).toBe(false);
  });
});

describe('DELETE /account_users/:id', () => {
  it('removes the person from this account only, with every reference to the account user', async () => {
    const account = await newAccount('Cascade');
    const x = await addMember(account, {}, 'Leaving Person');
    const y = await addMember(account, {}, 'Staying Person');
    const xKey = await keyFor(account, x.id);
    expect((await request('GET', '/api/v4/users', { key: xKey })).status).toBe(200);
    const teamA = await team(account, 'Both', {
      member_account_user_ids: [x.id, y.id],
      admin_account_user_ids: [],
      drop_notifications: 'specific_users',
      drop_notification_account_user_ids: [x.id],
      handoff_notifications: 'specific_users',
      handoff_notification_account_user_ids: [x.id, y.id],
    });
    const teamB = await team(account, 'Admin', { admin_account_user_ids: [x.id] });
    const attendee = (id: string, who: string, position: number) => ({ id, attendee_id: who, attendee_type: 'AccountUser', position });
    const shared = await createEntity('EVENT', account.accountId, { layer: 1, schedule_ids: [], event_attendees: [attendee('att_a', x.id, 1), attendee('att_b', y.id, 2)] });
    const alone = await createEntity('EVENT', account.accountId, { layer: 1, schedule_ids: [], event_attendees: [attendee('att_c', x.id, 1)] });
    const router = await createEntity('ROUTER', account.accountId, {
      name: 'Main',
      enabled: true,
      rules: null,
      default_receiver_account_user_id: x.id,
      default_receiver_router_id: null,
      default_receiver_team_id: teamA.id,
    });
    const policy = await createEntity('ESCALATION_POLICY', account.accountId, { name: 'P', repeat: 0, reassign_team_ids: [], reassign_account_user_ids: [x.id, y.id], escalation_layers: [] });
    const integration = await createEntity('INTEGRATION', account.accountId, { name: 'Hook', account_user_ids: [x.id], router_ids: [router.id], team_ids: [] });

    const reply = await account.api('DELETE', `/account_users/${x.prefix_id}`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');

    expect((await account.api('GET', `/account_users/${x.id}`)).status).toBe(404);
    expect((await account.api('GET', `/users/${x.user_id}`)).status).toBe(404);
    expect((await request('GET', '/api/v4/users', { key: xKey })).status).toBe(401);
    expect(await findApiKey(xKey)).toBeUndefined();
    expect((await stored<TeamData>('TEAM', account, teamA.id))!.data).toMatchObject({
      member_account_user_ids: [y.id],
      drop_notifications: 'team_admins',
      drop_notification_account_user_ids: [],
      handoff_notifications: 'specific_users',
      handoff_notification_account_user_ids: [y.id],
    });
    expect((await stored<TeamData>('TEAM', account, teamB.id))!.data.admin_account_user_ids).toEqual([]);
    expect((await stored<{ event_attendees: unknown[] }>('EVENT', account, shared.id))!.data.event_attendees).toEqual([attendee('att_b', y.id, 1)]);
    expect(await stored('EVENT', account, alone.id)).toBeUndefined();
    expect((await stored<Record<string, unknown>>('ROUTER', account, router.id))!.data).toMatchObject({ default_receiver_account_user_id: null, default_receiver_team_id: teamA.id });
    expect((await stored<{ reassign_account_user_ids: string[] }>('ESCALATION_POLICY', account, policy.id))!.data.reassign_account_user_ids).toEqual([y.id]);
    expect((await stored<{ account_user_ids: string[] }>('INTEGRATION', account, integration.id))!.data.account_user_ids).toEqual([]);
    // Deleting again: already gone.
    expect((await account.api('DELETE', `/account_users/${x.id}`)).status).toBe(404);
  });

  it('splits a large removal into transactions of at most 100 items and keeps the counts exact', async () => {
    const account = await newAccount('BigCascade');
    const x = await addMember(account);
    const y = await addMember(account);
    const attendee = (who: string, position: number) => ({ id: `att_${who.slice(-12)}${position}`, attendee_id: who, attendee_type: 'AccountUser', position });
    const alone = await Promise.all(Array.from({ length: 70 }, () => createEntity('EVENT', account.accountId, { layer: 1, schedule_ids: [], event_attendees: [attendee(x.id, 1)] })));
    const shared = await Promise.all(
      Array.from({ length: 60 }, () => createEntity('EVENT', account.accountId, { layer: 1, schedule_ids: [], event_attendees: [attendee(x.id, 1), attendee(y.id, 2)] })),
    );
    expect(await countOf(account.accountId, 'EVENT')).toBe(130);
    expect((await account.api('DELETE', `/account_users/${x.id}`)).status).toBe(204);
    expect(await countOf(account.accountId, 'EVENT')).toBe(60);
    const left = await listEntities<{ event_attendees: { attendee_id: string; position: number }[] }>('EVENT', account.accountId);
    expect(left.map((e) => e.id).sort()).toEqual(shared.map((e) => e.id).sort());
    expect(left.every((e) => e.data.event_attendees.length === 1 && e.data.event_attendees[0]!.attendee_id === y.id && e.data.event_attendees[0]!.position === 1)).toBe(true);
    expect(alone).toHaveLength(70);
  });

  it('keeps the person and their other memberships; withdrawing an invitation is a delete too', async () => {
    const email = address('two-accounts');
    const theirs = (await globex.api('POST', '/users', { name: 'Two Accounts', email })).body;
    const invited = (await acme.api('POST', '/users', { name: 'Two Accounts', email })).body;
    expect((await acme.api('DELETE', `/account_users/${invited.account_user_id}`)).status).toBe(204);
    expect((await acme.api('GET', `/users/${theirs.id}`)).status).toBe(404);
    expect((await globex.api('GET', `/users/${theirs.id}`)).body).toMatchObject({ name: 'Two Accounts', status: 'active' });
    // The person can be invited again later.
    expect((await acme.api('POST', '/users', { name: 'Two Accounts', email })).body).toMatchObject({ id: theirs.id, status: 'invited' });
  });

  it('409, changing nothing, when a router or integration would be left without a receiver', async () => {
    const account = await newAccount('Blockers');
    const x = await addMember(account);
    const sole = await createEntity('ROUTER', account.accountId, { name: 'Sole', enabled: true, rules: null, default_receiver_account_user_id: x.id, default_receiver_router_id: null, default_receiver_team_id: null });
    const inRules = await createEntity('ROUTER', account.accountId, {
      name: 'Rules',
      enabled: true,
      rules: `rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: ${x.prefix_id}}]\n`,
      default_receiver_account_user_id: null,
      default_receiver_router_id: null,
      default_receiver_team_id: UNKNOWN_ULID,
    });
    const hook = await createEntity('INTEGRATION', account.accountId, { name: 'Hook', account_user_ids: [x.id], router_ids: [], team_ids: [] });
    const t = await team(account, 'T', { member_account_user_ids: [x.id] });
    const reply = await account.api('DELETE', `/account_users/${x.id}`);
    expect(reply.status).toBe(409);
    expect(errorMessages(reply)).toEqual([
      `Router "Sole" (${sole.prefixId}) has ${x.prefix_id} as its only default receiver; give it another default receiver first`,
      `Router "Rules" (${inRules.prefixId}) names ${x.prefix_id} in its rules; change the rules first`,
      `Integration "Hook" (${hook.prefixId}) sends its alerts only to ${x.prefix_id}; give it another destination first`,
    ]);
    expect((await account.api('GET', `/account_users/${x.id}`)).status).toBe(200);
    expect((await stored<TeamData>('TEAM', account, t.id))!.data.member_account_user_ids).toEqual([x.id]);
  });

  it('409 for the last admin; 404 for unknown ids and another account; 403 for a member', async () => {
    const solo = await newAccount('SoloAdmin');
    const reply = await solo.api('DELETE', `/account_users/${solo.adminAccountUserId}`);
    expect(reply.status).toBe(409);
    expect(errorMessages(reply)[0]).toMatch(/is the last admin of this account and cannot be deleted; make another account user an admin first$/);
    const au = await addMember(solo);
    expect((await globex.api('DELETE', `/account_users/${au.id}`)).status).toBe(404);
    expect((await solo.api('DELETE', `/account_users/${UNKNOWN_ULID}`)).status).toBe(404);
    const key = await createMemberKey(solo);
    expect((await request('DELETE', `/api/v4/account_users/${au.id}`, { key })).status).toBe(403);
    expect((await solo.api('GET', `/account_users/${au.id}`)).status).toBe(200);
    // With a second admin, the first may leave (its own key stops working).
    await addMember(solo, { roles: ['admin'] });
    expect((await solo.api('DELETE', `/account_users/${solo.adminAccountUserId}`)).status).toBe(204);
    expect((await solo.api('GET', '/account_users')).status).toBe(401);
  });
});

/** An API key acting as the account user, issued the way the operator CLI does. */
async function keyFor(account: TestAccount, accountUserId: string): Promise<string> {
  const au = (await findEntity<{ user_id: string }>('ACCOUNT_USER', account.accountId, accountUserId)) as EntityItem<{ user_id: string }>;
  return (await issueApiKey({ accountId: account.accountId, accountUserId, userId: au.data.user_id, name: 'test' })).key;
}
