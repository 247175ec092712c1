// Teams through the gateway: defaults created with a team, links to schedules and policies, deletes, lists,
// the team's alerts and its current on-call.
import { beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { accountPk, counterSk } from '#lib/db/keys.ts';
import { COLLECTION_LIMIT, countOf, createEntities, deleteEntity, getEntity, newEntityItem } from '#lib/db/repository.ts';
import { DomainError } from '#lib/errors.ts';
import { errorResponse } from '#lib/http/responses.ts';
import { addAccountUser, errorMessages, newAccount, request, type TestAccount, useTestStack } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;

const UNKNOWN_ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Teams Acme'), newAccount('Teams Globex')]);
});

describe('creating a team', () => {
  it('creates the team with its default schedule and escalation policy, linked', async () => {
    const reply = await acme.api('POST', '/teams', { name: 'Platform', meta: { cost_center: 7 }, ignored: true });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('warning')).toBe('299 - "unknown field ignored"');
    const team = reply.body;
    expect(team).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^tem_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      name: 'Platform',
      notes: null,
      schedule_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      escalation_policy_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      member_account_user_ids: [],
      admin_account_user_ids: [],
      drop_notifications: 'none',
      handoff_notifications: 'none',
      drop_notification_account_user_ids: [],
      handoff_notification_account_user_ids: [],
      notify_schedule_gaps: true,
      attachments: [],
      meta: { cost_center: 7 },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const schedule = await acme.api('GET', `/schedules/${team.schedule_id}`);
    expect(schedule.status).toBe(200);
    expect(schedule.body).toMatchObject({ id: team.schedule_id, name: 'Platform Schedule', account_id: acme.accountId, meta: {} });
    expect(schedule.body.prefix_id).toMatch(/^sch_/);

    const policy = await acme.api('GET', `/escalation_policies/${team.escalation_policy_id}`);
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({
      id: team.escalation_policy_id,
      name: 'Platform Escalation Policy',
      repeat: 0,
      reassign_team_ids: [],
      reassign_account_user_ids: [],
      team_ids: [team.id],
    });
    expect(policy.body.prefix_id).toMatch(/^esc_/);
    expect(policy.body.escalation_layers).toEqual([
      { id: expect.any(String), prefix_id: expect.stringMatching(/^lyr_/), account_id: acme.accountId, layer: 1, timeout: 5, timeout_unit: 'minutes', color_hex: expect.stringMatching(/^#[0-9A-F]{6}$/) },
      { id: expect.any(String), prefix_id: expect.stringMatching(/^lyr_/), account_id: acme.accountId, layer: 2, timeout: 10, timeout_unit: 'minutes', color_hex: expect.stringMatching(/^#[0-9A-F]{6}$/) },
      { id: expect.any(String), prefix_id: expect.stringMatching(/^lyr_/), account_id: acme.accountId, layer: 3, timeout: 15, timeout_unit: 'minutes', color_hex: expect.stringMatching(/^#[0-9A-F]{6}$/) },
    ]);
  });

  it('stores every parameter, with account users given by id or prefix_id stored as canonical ids without repeats', async () => {
    const [a, b, c, d] = await Promise.all([addAccountUser(acme), addAccountUser(acme), addAccountUser(acme), addAccountUser(acme)]);
    const reply = await acme.api('POST', '/teams', {
      name: 'Databases',
      notes: 'Pager for the DB fleet',
      drop_notifications: 'specific_users',
      handoff_notifications: 'team_admins',
      member_account_user_ids: [a!.prefix_id, b!.id, a!.id],
      admin_account_user_ids: [c!.prefix_id],
      drop_notification_account_user_ids: [d!.prefix_id, c!.id],
      handoff_notification_account_user_ids: [a!.id],
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      name: 'Databases',
      notes: 'Pager for the DB fleet',
      drop_notifications: 'specific_users',
      handoff_notifications: 'team_admins',
      member_account_user_ids: [a!.id, b!.id],
      admin_account_user_ids: [c!.id],
      drop_notification_account_user_ids: [d!.id, c!.id],
      handoff_notification_account_user_ids: [a!.id],
    });
    expect((await acme.api('GET', `/teams/${reply.body.prefix_id}`)).body).toEqual(reply.body);
  });

  it('takes every notification setting', async () => {
    const someone = await addAccountUser(acme);
    for (const value of ['none', 'team_all', 'team_admins', 'oncall_rotation', 'specific_users']) {
      const reply = await acme.api('POST', '/teams', {
        name: `Notify ${value}`,
        drop_notifications: value,
        handoff_notifications: value,
        drop_notification_account_user_ids: [someone.id],
        handoff_notification_account_user_ids: [someone.id],
      });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ drop_notifications: value, handoff_notifications: value });
    }
  });

  it('ignores schedule_id and escalation_policy_id on create: a new team always gets its own defaults', async () => {
    const other = (await acme.api('POST', '/schedules', { name: 'Existing' })).body;
    const reply = await acme.api('POST', '/teams', { name: 'Own defaults', schedule_id: other.id, escalation_policy_id: 'esc_abcdefghijkl' });
    expect(reply.status).toBe(201);
    expect(reply.body.schedule_id).not.toBe(other.id);
    expect((await acme.api('GET', `/schedules/${reply.body.schedule_id}`)).body.name).toBe('Own defaults Schedule');
  });

  it('422 naming the field: name missing, blank or not a string', async () => {
    const missing = await acme.api('POST', '/teams', {});
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)).toEqual(['name is required']);
    expect(errorMessages(await acme.api('POST', '/teams', { name: '  ' }))).toEqual(["name can't be blank"]);
    expect(errorMessages(await acme.api('POST', '/teams', { name: 5 }))).toEqual(['name must be a string']);
  });

  it('422 for invalid notification settings, lists and notes', async () => {
    const reply = await acme.api('POST', '/teams', { name: 'Bad', drop_notifications: 'everyone', handoff_notifications: 3, member_account_user_ids: 'usr_x', notes: 4 });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      'notes must be a string',
      'drop_notifications must be one of none, team_all, team_admins, oncall_rotation, specific_users',
      'handoff_notifications must be one of none, team_all, team_admins, oncall_rotation, specific_users',
      'member_account_user_ids must be a list of ids',
    ]);
  });

  it('422 naming the field and the id for unknown account users, including those of another account, and creates nothing', async () => {
    const before = await counts(acme);
    const theirs = await addAccountUser(globex);
    const known = await addAccountUser(acme);
    const reply = await acme.api('POST', '/teams', {
      name: 'Ghosts',
      member_account_user_ids: [known.id, 'usr_abcdefghijkl'],
      admin_account_user_ids: [theirs.id],
      drop_notification_account_user_ids: [UNKNOWN_ULID],
      handoff_notification_account_user_ids: [theirs.prefix_id],
    });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      'member_account_user_ids contains unknown account user usr_abcdefghijkl',
      `admin_account_user_ids contains unknown account user ${theirs.id}`,
      `drop_notification_account_user_ids contains unknown account user ${UNKNOWN_ULID}`,
      `handoff_notification_account_user_ids contains unknown account user ${theirs.prefix_id}`,
    ]);
    expect(await counts(acme)).toEqual(before);
  });

  it('accepts a misspelled field (the reference CLI’s admin_ids) and names it in a Warning; known and read-only fields get none', async () => {
    const admin = await addAccountUser(acme);
    const reply = await acme.api('POST', '/teams', { name: 'Misspelled', admin_ids: [admin.id], nmae: 'x' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.get('warning')).toBe('299 - "unknown field admin_ids", 299 - "unknown field nmae"');
    expect(reply.body).toMatchObject({ name: 'Misspelled', admin_account_user_ids: [], member_account_user_ids: [] });
    // Sending back the object read (id, schedule_id, created_at… are fields of a team) is no unknown field.
    const read = (await acme.api('GET', `/teams/${reply.body.id}`)).body;
    const again = await acme.api('PUT', `/teams/${reply.body.id}`, { ...read, name: 'Spelled' });
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('warning')).toBeNull();
    expect((await acme.api('PUT', `/teams/${reply.body.id}`, { notes: 'n', colour: 'red' })).headers.get('warning')).toBe('299 - "unknown field colour"');
    // Refused requests get their errors, not a Warning; requests without a body get none.
    const refused = await acme.api('POST', '/teams', { admin_ids: [] });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('warning')).toBeNull();
    expect((await acme.api('GET', `/teams/${reply.body.id}`)).headers.get('warning')).toBeNull();
  });

  it('422 when specific_users has nobody to notify', async () => {
    const reply = await acme.api('POST', '/teams', { name: 'Nobody', drop_notifications: 'specific_users', handoff_notifications: 'specific_users', handoff_notification_account_user_ids: [] });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      "drop_notification_account_user_ids can't be empty when drop_notifications is specific_users",
      "handoff_notification_account_user_ids can't be empty when handoff_notifications is specific_users",
    ]);
  });

  it('an account user in both member and admin lists is listed in both (an admin is a member with the admin role; the reference CLI sends both)', async () => {
    const [both, member] = await Promise.all([addAccountUser(acme), addAccountUser(acme)]);
    const reply = await acme.api('POST', '/teams', { name: 'Twice', member_account_user_ids: [both.prefix_id, member.id], admin_account_user_ids: [both.id] });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ member_account_user_ids: [both.id, member.id], admin_account_user_ids: [both.id] });
    expect((await acme.api('GET', `/teams/${reply.body.id}`)).body).toEqual(reply.body);
    expect((await acme.api('GET', `/account_users/${both.id}`)).body.team_ids).toEqual([reply.body.id]);
    // A PUT naming someone in both lists keeps both too; a list sent alone replaces only that list.
    const updated = await acme.api('PUT', `/teams/${reply.body.id}`, { admin_account_user_ids: [both.id, member.prefix_id] });
    expect(updated.body).toMatchObject({ member_account_user_ids: [both.id, member.id], admin_account_user_ids: [both.id, member.id] });
    const demoted = await acme.api('PUT', `/teams/${reply.body.id}`, { admin_account_user_ids: [member.id] });
    expect(demoted.body).toMatchObject({ member_account_user_ids: [both.id, member.id], admin_account_user_ids: [member.id] });
  });
});

describe('reading, updating and deleting a team', () => {
  it('404 for unknown ids in every form and for another account’s team, on every operation', async () => {
    const mine = (await acme.api('POST', '/teams', { name: 'Mine' })).body;
    for (const id of [UNKNOWN_ULID, 'tem_abcdefghijkl', 'sch_abcdefghijkl', 'nonsense', mine.id, mine.prefix_id]) {
      for (const [method, path] of [
        ['GET', `/teams/${id}`],
        ['PUT', `/teams/${id}`],
        ['DELETE', `/teams/${id}`],
        ['GET', `/teams/${id}/alerts`],
        ['GET', `/teams/${id}/current_oncall`],
      ] as const) {
        const reply = await globex.api(method, path, method === 'PUT' ? { name: 'hijack' } : undefined);
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(errorMessages(reply)).toEqual(['Team not found']);
      }
    }
    expect((await acme.api('GET', `/teams/${mine.id}`)).body.name).toBe('Mine');
  });

  it('updates only the given fields; lists are replaced; notes can be cleared', async () => {
    const [a, b, c] = await Promise.all([addAccountUser(acme), addAccountUser(acme), addAccountUser(acme)]);
    const team = (await acme.api('POST', '/teams', { name: 'Before', notes: 'n', member_account_user_ids: [a.id], admin_account_user_ids: [b.id], meta: { x: 1 } })).body;
    const renamed = await acme.api('PUT', `/teams/${team.prefix_id}`, { name: 'After', member_account_user_ids: [c.prefix_id, a.id], handoff_notifications: 'team_all' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({
      ...team,
      name: 'After',
      member_account_user_ids: [c.id, a.id],
      handoff_notifications: 'team_all',
      updated_at: expect.any(String),
    });
    expect(renamed.body.updated_at >= team.updated_at).toBe(true);
    const cleared = await acme.api('PUT', `/teams/${team.id}`, { notes: null, admin_account_user_ids: [], meta: {} });
    expect(cleared.body).toMatchObject({ notes: null, admin_account_user_ids: [], member_account_user_ids: [c.id, a.id], meta: {} });
    expect((await acme.api('GET', `/teams/${team.id}`)).body).toEqual(cleared.body);
  });

  it('renaming a team leaves the names of its schedule and policy alone', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Old name' })).body;
    await acme.api('PUT', `/teams/${team.id}`, { name: 'New name' });
    expect((await acme.api('GET', `/schedules/${team.schedule_id}`)).body.name).toBe('Old name Schedule');
    expect((await acme.api('GET', `/escalation_policies/${team.escalation_policy_id}`)).body.name).toBe('Old name Escalation Policy');
  });

  it('422 on update: blank name, unknown account users, specific_users left empty — checked on the result; an admin stays a member', async () => {
    const [a, b] = await Promise.all([addAccountUser(acme), addAccountUser(acme)]);
    const team = (await acme.api('POST', '/teams', { name: 'Checked', member_account_user_ids: [a.id], drop_notifications: 'specific_users', drop_notification_account_user_ids: [b.id] })).body;
    expect(errorMessages(await acme.api('PUT', `/teams/${team.id}`, { name: '' }))).toEqual(["name can't be blank"]);
    expect(errorMessages(await acme.api('PUT', `/teams/${team.id}`, { handoff_notification_account_user_ids: ['usr_zzzzzzzzzzzz'] }))).toEqual([
      'handoff_notification_account_user_ids contains unknown account user usr_zzzzzzzzzzzz',
    ]);
    expect(errorMessages(await acme.api('PUT', `/teams/${team.id}`, { drop_notification_account_user_ids: [] }))).toEqual([
      "drop_notification_account_user_ids can't be empty when drop_notifications is specific_users",
    ]);
    // Promoting a member by naming them an admin keeps them on the member list: an admin is a member with the admin role.
    const promoted = await acme.api('PUT', `/teams/${team.id}`, { admin_account_user_ids: [a.prefix_id] });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ member_account_user_ids: [a.id], admin_account_user_ids: [a.id] });
    const backToMember = await acme.api('PUT', `/teams/${team.id}`, { admin_account_user_ids: [] });
    expect(backToMember.body).toMatchObject({ member_account_user_ids: [a.id], admin_account_user_ids: [] });
    // Switching away from specific_users while emptying the list is fine; the list may also stay when the setting changes.
    const ok = await acme.api('PUT', `/teams/${team.id}`, { drop_notifications: 'none', drop_notification_account_user_ids: [] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ drop_notifications: 'none', drop_notification_account_user_ids: [] });
    const moved = await acme.api('PUT', `/teams/${team.id}`, { member_account_user_ids: [], admin_account_user_ids: [a.id] });
    expect(moved.body).toMatchObject({ member_account_user_ids: [], admin_account_user_ids: [a.id] });
  });

  it('changes schedule_id and escalation_policy_id to others of the account (by id or prefix_id); team_ids follows', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Switcher' })).body;
    const schedule = (await acme.api('POST', '/schedules', { name: 'Follow the sun' })).body;
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Fast' })).body;
    const reply = await acme.api('PUT', `/teams/${team.id}`, { schedule_id: schedule.prefix_id, escalation_policy_id: policy.prefix_id });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ schedule_id: schedule.id, escalation_policy_id: policy.id });
    expect((await acme.api('GET', `/escalation_policies/${policy.id}`)).body.team_ids).toEqual([team.id]);
    expect((await acme.api('GET', `/escalation_policies/${team.escalation_policy_id}`)).body.team_ids).toEqual([]);
    // The old defaults are no longer in use, so they can go.
    expect((await acme.api('DELETE', `/schedules/${team.schedule_id}`)).status).toBe(204);
    expect((await acme.api('DELETE', `/escalation_policies/${team.escalation_policy_id}`)).status).toBe(204);
  });

  it('422 for an unknown, foreign or blank schedule_id / escalation_policy_id, changing nothing', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Stays' })).body;
    const foreignSchedule = (await globex.api('POST', '/schedules', { name: 'Theirs' })).body;
    const foreignPolicy = (await globex.api('POST', '/escalation_policies', { name: 'Theirs' })).body;
    const reply = await acme.api('PUT', `/teams/${team.id}`, { schedule_id: 'sch_abcdefghijkl', escalation_policy_id: foreignPolicy.id, name: 'Changed' });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      'schedule_id refers to unknown schedule sch_abcdefghijkl',
      `escalation_policy_id refers to unknown escalation policy ${foreignPolicy.id}`,
    ]);
    expect(errorMessages(await acme.api('PUT', `/teams/${team.id}`, { schedule_id: foreignSchedule.prefix_id }))).toEqual([
      `schedule_id refers to unknown schedule ${foreignSchedule.prefix_id}`,
    ]);
    // A team's policy id must name a policy, not another kind of object.
    expect(errorMessages(await acme.api('PUT', `/teams/${team.id}`, { escalation_policy_id: team.schedule_id }))).toEqual([
      `escalation_policy_id refers to unknown escalation policy ${team.schedule_id}`,
    ]);
    expect(errorMessages(await acme.api('PUT', `/teams/${team.id}`, { schedule_id: '', escalation_policy_id: null }))).toEqual([
      "schedule_id can't be blank",
      'escalation_policy_id must be a string',
    ]);
    expect((await acme.api('GET', `/teams/${team.id}`)).body).toEqual(team);
  });

  it('409 when deleting the team’s schedule or policy; 409 names every team using the policy', async () => {
    const first = (await acme.api('POST', '/teams', { name: 'Red' })).body;
    const second = (await acme.api('POST', '/teams', { name: 'Blue' })).body;
    await acme.api('PUT', `/teams/${second.id}`, { escalation_policy_id: first.escalation_policy_id });
    expect((await acme.api('GET', `/escalation_policies/${first.escalation_policy_id}`)).body.team_ids).toEqual([first.id, second.id]);

    const schedule = await acme.api('DELETE', `/schedules/${first.schedule_id}`);
    expect(schedule.status).toBe(409);
    expect(errorMessages(schedule)).toEqual(['Schedule is the active schedule of team Red; give the team another schedule first']);
    const policy = await acme.api('DELETE', `/escalation_policies/${first.escalation_policy_id}`);
    expect(policy.status).toBe(409);
    expect(errorMessages(policy)).toEqual(['Escalation policy is the active escalation policy of team Red, Blue; give the team another escalation policy first']);
    expect((await acme.api('GET', `/schedules/${first.schedule_id}`)).status).toBe(200);
    expect((await acme.api('GET', `/escalation_policies/${first.escalation_policy_id}`)).status).toBe(200);
  });

  it('deleting a team keeps its schedule and policy, which can then be deleted', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Short-lived' })).body;
    const deleted = await acme.api('DELETE', `/teams/${team.prefix_id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await acme.api('GET', `/teams/${team.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/teams/${team.id}`)).status).toBe(404);
    expect((await acme.api('GET', `/schedules/${team.schedule_id}`)).body.name).toBe('Short-lived Schedule');
    const policy = await acme.api('GET', `/escalation_policies/${team.escalation_policy_id}`);
    expect(policy.body).toMatchObject({ name: 'Short-lived Escalation Policy', team_ids: [] });
    expect((await acme.api('DELETE', `/schedules/${team.schedule_id}`)).status).toBe(204);
    expect((await acme.api('DELETE', `/escalation_policies/${team.escalation_policy_id}`)).status).toBe(204);
  });

  it('409 when deleting a team an escalation policy reassigns to, until the policy stops naming it', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Backstop' })).body;
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Overflow', reassign_team_ids: [team.prefix_id] })).body;
    const refused = await acme.api('DELETE', `/teams/${team.id}`);
    expect(refused.status).toBe(409);
    expect(errorMessages(refused)).toEqual(['Team is a reassign target of escalation policy Overflow; remove it from their reassign_team_ids first']);
    expect((await acme.api('GET', `/teams/${team.id}`)).status).toBe(200);
    await acme.api('PUT', `/escalation_policies/${policy.id}`, { reassign_team_ids: [] });
    expect((await acme.api('DELETE', `/teams/${team.id}`)).status).toBe(204);
  });

  it('409 when deleting a team a router or an integration sends alerts to, until they stop naming it', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Receivers' })).body;
    const router = (await acme.api('POST', '/routers', { name: 'Edge', default_receiver_team_id: team.id })).body;
    expect(router.default_receiver_team_id).toBe(team.id);
    const byRouter = await acme.api('DELETE', `/teams/${team.id}`);
    expect(byRouter.status).toBe(409);
    expect(errorMessages(byRouter)).toEqual(['Team receives alerts from router Edge; change those routers first']);
    expect((await acme.api('DELETE', `/routers/${router.id}`)).status).toBe(204);
    const integration = (await acme.api('POST', '/integrations', { name: 'Probe', team_ids: [team.prefix_id] })).body;
    const byIntegration = await acme.api('DELETE', `/teams/${team.id}`);
    expect(byIntegration.status).toBe(409);
    expect(errorMessages(byIntegration)).toEqual(['Team receives alerts from integration Probe; change those integrations first']);
    expect((await acme.api('GET', `/teams/${team.id}`)).status).toBe(200);
    expect((await acme.api('DELETE', `/integrations/${integration.id}`)).status).toBe(204);
    expect((await acme.api('DELETE', `/teams/${team.id}`)).status).toBe(204);
  });
});

describe('consistency', () => {
  it('creates nothing when the team cannot be written: the team, its schedule and its policy are one transaction', async () => {
    const fresh = await newAccount('Teams full');
    const before = await counts(fresh);
    // Fill the account's team collection up to the cap, so the create transaction's count condition fails.
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: accountPk(fresh.accountId), sk: counterSk('TEAM') },
        UpdateExpression: 'SET itemCount = :cap',
        ExpressionAttributeValues: { ':cap': COLLECTION_LIMIT },
      }),
    );
    const reply = await fresh.api('POST', '/teams', { name: 'One too many' });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([`An account can hold at most ${COLLECTION_LIMIT} team objects`]);
    const after = await counts(fresh);
    expect({ schedules: after.schedules, policies: after.policies }).toEqual({ schedules: before.schedules, policies: before.policies });
    expect((await fresh.api('GET', '/schedules')).body.data).toEqual([]);
    expect((await fresh.api('GET', '/escalation_policies')).body.data).toEqual([]);
  });

  it('a delete that read the schedule or policy before a team linked it fails instead of leaving the team dangling', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Linker' })).body;
    const schedule = (await acme.api('POST', '/schedules', { name: 'Racing schedule' })).body;
    const policy = (await acme.api('POST', '/escalation_policies', { name: 'Racing policy' })).body;
    // What a concurrent DELETE has read before its checks passed.
    const staleSchedule = await getEntity('SCHEDULE', acme.accountId, schedule.id);
    const stalePolicy = await getEntity('ESCALATION_POLICY', acme.accountId, policy.id);
    expect((await acme.api('PUT', `/teams/${team.id}`, { schedule_id: schedule.id, escalation_policy_id: policy.id })).status).toBe(200);
    for (const stale of [staleSchedule, stalePolicy]) {
      const failure = await deleteEntity(stale).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DomainError);
      expect(errorResponse(failure).statusCode).toBe(409);
    }
    expect((await acme.api('GET', `/schedules/${schedule.id}`)).body.name).toBe('Racing schedule');
    expect((await acme.api('GET', `/escalation_policies/${policy.id}`)).body.team_ids).toEqual([team.id]);
  });

  it('createEntities writes several entities of one type in one transaction, counting each', async () => {
    const fresh = await newAccount('Teams batch');
    const items = await Promise.all([
      newEntityItem('SCHEDULE', fresh.accountId, { name: 'Batch one' }),
      newEntityItem('SCHEDULE', fresh.accountId, { name: 'Batch two' }),
    ]);
    await createEntities(items);
    expect(await countOf(fresh.accountId, 'SCHEDULE')).toBe(2);
    const listed = (await fresh.api('GET', '/schedules?sort=name')).body;
    expect(listed.total_count).toBe(2);
    expect(listed.data.map((s: { name: string; prefix_id: string }) => [s.name, s.prefix_id])).toEqual(
      [...items].sort((a, b) => a.data.name.localeCompare(b.data.name)).map((i) => [i.data.name, i.prefixId]),
    );
  });
});

describe('roles', () => {
  it('lets a member read teams, their alerts and on-call, and answers 403 on changes', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Readable' })).body;
    const member = await createMemberKey(acme);
    const as = (method: string, path: string, body?: unknown) => request(method, `/api/v4${path}`, { key: member, body });
    expect((await as('GET', '/teams')).status).toBe(200);
    expect((await as('GET', `/teams/${team.id}`)).status).toBe(200);
    expect((await as('GET', `/teams/${team.id}/alerts`)).status).toBe(200);
    expect((await as('GET', `/teams/${team.id}/current_oncall`)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/teams', { name: 'Nope' }],
      ['PUT', `/teams/${team.id}`, { name: 'Nope' }],
      ['DELETE', `/teams/${team.id}`, undefined],
    ] as const) {
      const reply = await as(method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
    }
    expect((await acme.api('GET', `/teams/${team.id}`)).body.name).toBe('Readable');
  });
});

describe('listing teams', () => {
  let fresh: TestAccount;
  let people: { id: string; prefix_id: string }[];

  beforeAll(async () => {
    fresh = await newAccount('Teams list');
    people = await Promise.all([addAccountUser(fresh), addAccountUser(fresh)]);
    await fresh.api('POST', '/teams', { name: 'Alpha', notes: 'storage and backups', drop_notifications: 'team_all', member_account_user_ids: [people[0]!.id] });
    await fresh.api('POST', '/teams', { name: 'Bravo', drop_notifications: 'team_admins', handoff_notifications: 'oncall_rotation', admin_account_user_ids: [people[0]!.id] });
    await fresh.api('POST', '/teams', { name: 'Charlie', handoff_notifications: 'specific_users', handoff_notification_account_user_ids: [people[1]!.id] });
  });

  const names = async (qs: string) => {
    const reply = await fresh.api('GET', `/teams${qs}`);
    expect(reply.status, qs).toBe(200);
    return reply.body.data.map((t: { name: string }) => t.name);
  };

  it('lists newest first in the envelope', async () => {
    const reply = await fresh.api('GET', '/teams');
    expect(reply.body).toMatchObject({ has_more: false, total_count: 3 });
    expect(reply.body.data.map((t: { name: string }) => t.name)).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect((await fresh.api('GET', '/teams?limit=2')).body).toMatchObject({ has_more: true, total_count: 3 });
  });

  it('filters on name, notification settings, id lists and links', async () => {
    expect(await names('?name=Bravo')).toEqual(['Bravo']);
    expect(await names('?drop_notifications=none')).toEqual(['Charlie']);
    expect(await names('?drop_notifications=none&ops=drop_notifications:ne&sort=name')).toEqual(['Alpha', 'Bravo']);
    expect(await names('?handoff_notifications=oncall_rotation')).toEqual(['Bravo']);
    expect(await names(`?member_account_user_ids=${people[0]!.id}`)).toEqual(['Alpha']);
    expect(await names(`?admin_account_user_ids=${people[0]!.id}&ops=admin_account_user_ids:contains`)).toEqual(['Bravo']);
    expect(await names(`?handoff_notification_account_user_ids=${people[1]!.id}`)).toEqual(['Charlie']);
    const bravo = (await fresh.api('GET', '/teams?name=Bravo')).body.data[0];
    expect(await names(`?schedule_id=${bravo.schedule_id}`)).toEqual(['Bravo']);
    expect(await names(`?escalation_policy_id=${bravo.escalation_policy_id}`)).toEqual(['Bravo']);
    expect(await names('?name=C&ops=name:beginsWith')).toEqual(['Charlie']);
    expect(await names('?notes=null&sort=name')).toEqual(['Bravo', 'Charlie']);
  });

  it('searches name and notes with q, and sorts', async () => {
    expect(await names('?q=BACKUP')).toEqual(['Alpha']);
    expect(await names('?q=ravo')).toEqual(['Bravo']);
    expect(await names('?sort=name&direction=desc')).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect((await fresh.api('GET', '/teams?sort=shoe_size')).status).toBe(422);
  });
});

describe('GET /teams/:id/alerts', () => {
  it('answers the empty envelope for a team without alerts', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Quiet' })).body;
    const reply = await acme.api('GET', `/teams/${team.id}/alerts`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: [], has_more: false, total_count: 0 });
  });

  it('lists the alerts with the team among their destinations, from the team’s alert index', async () => {
    const fresh = await newAccount('Team alerts');
    const team = (await fresh.api('POST', '/teams', { name: 'Paged' })).body;
    const other = (await fresh.api('POST', '/teams', { name: 'Other' })).body;
    // Each alert also pages the admin directly, so it stays open while the teams have nobody on call.
    const me = [fresh.adminAccountUserId];
    const alert = async (body: Record<string, unknown>) => {
      const reply = await fresh.api('POST', '/alerts', { destination_account_user_ids: me, ...body });
      expect(reply.status, reply.text).toBe(201);
      return reply.body;
    };
    await alert({ title: 'Disk full', urgency: 'high', destination_team_ids: [team.id] });
    const cpu = await alert({ title: 'CPU high', urgency: 'low', destination_team_ids: [other.id, team.id] });
    expect((await fresh.api('POST', `/alerts/${cpu.id}/acknowledge`)).status).toBe(200);
    await alert({ title: 'Not ours', urgency: 'low', destination_team_ids: [other.id] });
    await alert({ title: 'To a person', urgency: 'low' });
    const titles = async (qs: string) => (await fresh.api('GET', `/teams/${team.prefix_id}/alerts${qs}`)).body.data.map((a: { title: string }) => a.title);
    const all = await fresh.api('GET', `/teams/${team.id}/alerts`);
    expect(all.body).toMatchObject({ has_more: false, total_count: 2 });
    expect(all.body.data.map((a: { title: string }) => a.title)).toEqual(['CPU high', 'Disk full']);
    expect(all.body.data[0]).toMatchObject({ prefix_id: expect.stringMatching(/^alt_/), account_id: fresh.accountId, urgency: 'low' });
    expect(await titles('?status=open')).toEqual(['Disk full']);
    expect(await titles('?q=cpu')).toEqual(['CPU high']);
    expect((await fresh.api('GET', `/teams/${team.id}/alerts?limit=1`)).body).toMatchObject({ has_more: true, total_count: 2 });
    expect((await fresh.api('GET', `/teams/${team.id}/alerts?limit=0`)).status).toBe(422);
  });
});

describe('GET /teams/:id/current_oncall', () => {
  it('answers [] when nobody is on call on the team’s schedule', async () => {
    const team = (await acme.api('POST', '/teams', { name: 'Nobody on call' })).body;
    const reply = await acme.api('GET', `/teams/${team.id}/current_oncall`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([]);
  });

  it('answers the current on-call view of the team’s active schedule, following a schedule change', async () => {
    const [alice, bob] = await Promise.all([addAccountUser(acme), addAccountUser(acme)]);
    const team = (await acme.api('POST', '/teams', { name: 'On call' })).body;
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const event = await acme.api('POST', '/events', {
      start_time: iso(now - 3_600_000),
      end_time: iso(now + 3_600_000),
      layer: 1,
      time_zone: 'UTC',
      schedule_ids: [team.schedule_id],
      account_user_ids: [alice.id],
    });
    expect(event.status).toBe(201);
    const reply = await acme.api('GET', `/teams/${team.prefix_id}/current_oncall`);
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(1);
    expect(reply.body[0]).toMatchObject({ id: event.body.id, layer: 1, attendees: [{ attendee_id: alice.id, attendee_type: 'AccountUser' }] });
    // Same answer as the schedule's own view.
    expect((await acme.api('GET', `/schedules/${team.schedule_id}/current_oncall`)).body).toEqual(reply.body);

    const other = (await acme.api('POST', '/schedules', { name: 'Night shift' })).body;
    await acme.api('POST', '/events', {
      start_time: iso(now - 3_600_000),
      end_time: iso(now + 3_600_000),
      layer: 2,
      time_zone: 'UTC',
      schedule_ids: [other.id],
      account_user_ids: [bob.id],
    });
    await acme.api('PUT', `/teams/${team.id}`, { schedule_id: other.id });
    const switched = (await acme.api('GET', `/teams/${team.id}/current_oncall`)).body;
    expect(switched.map((e: { layer: number; attendees: { attendee_id: string }[] }) => [e.layer, e.attendees.map((a) => a.attendee_id)])).toEqual([[2, [bob.id]]]);
  });
});

async function counts(account: TestAccount) {
  const total = async (path: string) => (await account.api('GET', `${path}?limit=1`)).body.total_count as number;
  return { teams: await total('/teams'), schedules: await total('/schedules'), policies: await total('/escalation_policies') };
}
