// People in an account: creating or inviting a person (POST /users, POST /account_users), reading them through
// the account, changing profiles and memberships, and removing a person from an account with every reference
// to their account user. Rules and decisions: docs/people.md.

import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { getAccount, type AccountUserData, type Invitation } from '../accounts/accounts.ts';
import {
  findMembership,
  getUser,
  getUsers,
  listMemberships,
  membershipCreateWrite,
  membershipDeleteWrite,
  newUserItem,
  nextUserVersion,
  userCreateWrites,
  userIdOfEmail,
  userUpdateWrites,
  type UserItem,
} from './user-store.ts';
import { listApiKeys } from '../auth/api-keys.ts';
import { forgetAccountUser } from '../auth/key-cache.ts';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { documentClient } from '../db/client.ts';
import {
  createEntities,
  deleteItems,
  findEntity,
  getEntity,
  isConditionFailure,
  listEntities,
  newEntityItem,
  touchItem,
  transact,
  unchangedCheck,
  versionWrite,
  type EntityItem,
  type TransactItem,
} from '../db/repository.ts';
import { resolveIdList } from '../db/references.ts';
import type { Caller, Roles } from '../http/context.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../http/errors.ts';
import { generatePassword, hashPassword, looksLikePrefixId, newId } from '../ids.ts';
import { prepareOutboxMessage, type OutboxItem } from '../outbox/outbox.ts';
import { credentialsMessage, invitationMessage, type MessageContext } from './messages.ts';
import { applyProfile, touchesProfile } from './profile.ts';
import { planRemoval, type EventFields, type IntegrationFields, type PlannedUpdate, type PolicyFields, type RouterFields, type TeamFields } from './removal.ts';
import { renderAccountUser, renderUser, type AccountUserItem } from './render.ts';
import {
  NO_ROLES,
  parseRoles,
  type AccountUserCreateInput,
  type AccountUserUpdateInput,
  type ProfileInput,
  type UserAttributesInput,
  type UserCreateInput,
} from './schema.ts';
import { memberTeamChanges, teamIdsOf } from './teams.ts';
import { batchUnits, TRANSACTION_LIMIT, type WriteUnit } from './writes.ts';

/** Attempts of a change that lost a race (a conditional write failed) before answering 409. */
const ATTEMPTS = 5;

type TeamItem = EntityItem<TeamFields>;

/** Runs a read-check-write attempt again when a concurrent writer made one of its conditions fail. */
async function withRetries<T>(what: string, attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof HttpError || !isConditionFailure(error)) throw error;
      if (i >= ATTEMPTS) throw conflict(`${what} was changed by another request at the same time; retry`);
    }
  }
}

const listAccountUserItems = (accountId: string) => listEntities<AccountUserData>('ACCOUNT_USER', accountId);
const listTeams = (accountId: string) => listEntities<TeamFields>('TEAM', accountId);

const ONLY_ADMINS = 'Only account admins can change other users';

const isActiveAdmin = (au: AccountUserItem) => au.data.status === 'active' && au.data.roles?.admin === true;

/** The person an API caller acts as. */
async function callerUserId(caller: Caller): Promise<string | undefined> {
  const self = await findEntity<AccountUserData>('ACCOUNT_USER', caller.accountId, caller.accountUserId);
  return self?.data.user_id;
}

/** The membership of a person in an account: the membership item, or for older data a look through the account users. */
async function membershipOf(userId: string, accountId: string): Promise<AccountUserItem | undefined> {
  const membership = await findMembership(userId, accountId);
  if (membership) return findEntity<AccountUserData>('ACCOUNT_USER', accountId, membership.accountUserId);
  return (await listAccountUserItems(accountId)).find((au) => au.data.user_id === userId);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** A user of the account by the person's id or by the `usr_` prefix id; people outside the account are not found. */
export async function findUserInAccount(accountId: string, idOrPrefixId: string): Promise<{ accountUser: AccountUserItem; person: UserItem }> {
  const accountUser = looksLikePrefixId(idOrPrefixId)
    ? await findEntity<AccountUserData>('ACCOUNT_USER', accountId, idOrPrefixId)
    : await membershipOf(idOrPrefixId, accountId);
  const person = accountUser ? await getUser(accountUser.data.user_id) : undefined;
  if (!accountUser || !person) throw notFound('User');
  return { accountUser, person };
}

export async function getUserObject(accountId: string, id: string) {
  const { accountUser, person } = await findUserInAccount(accountId, id);
  return renderUser(person, accountUser);
}

export async function listUserObjects(accountId: string): Promise<Record<string, unknown>[]> {
  const accountUsers = await listAccountUserItems(accountId);
  const people = await getUsers(accountUsers.map((au) => au.data.user_id));
  return accountUsers.flatMap((au) => {
    const person = people.get(au.data.user_id);
    return person ? [renderUser(person, au)] : [];
  });
}

export async function getAccountUserObject(accountId: string, id: string) {
  const accountUser = await getEntity<AccountUserData>('ACCOUNT_USER', accountId, id);
  const [person, teams] = await Promise.all([getUser(accountUser.data.user_id), listTeams(accountId)]);
  return renderAccountUser(accountUser, person, teamIdsOf(accountUser.id, teams));
}

export async function listAccountUserObjects(accountId: string): Promise<Record<string, unknown>[]> {
  const [accountUsers, teams] = await Promise.all([listAccountUserItems(accountId), listTeams(accountId)]);
  const people = await getUsers(accountUsers.map((au) => au.data.user_id));
  return accountUsers.map((au) => renderAccountUser(au, people.get(au.data.user_id), teamIdsOf(au.id, teams)));
}

// ---------------------------------------------------------------------------------------------------------------
// Adding a person to an account

export interface AddPersonRequest {
  /** The person: profile fields, or `id` of an existing person. */
  profile: UserAttributesInput;
  /** `''` for POST /users, `'user_attributes.'` for POST /account_users: prefixes the fields in messages. */
  prefix: string;
  roles: Roles;
  notificationRuleId?: string | null | undefined;
  /** Teams to join as a member, as the client named them, and the parameter they came in. */
  teamIds: readonly string[];
  teamField: string;
  meta?: Record<string, unknown> | undefined;
}

export interface AddedPerson {
  accountUser: AccountUserItem;
  person: UserItem;
  message: OutboxItem | undefined;
}

/** Owners of the given emails (email → person id), one GetItem each. */
async function ownersOf(emails: readonly string[]): Promise<Map<string, string>> {
  const owners = await Promise.all(emails.map(async (email) => [email, await userIdOfEmail(email)] as const));
  return new Map(owners.filter((o): o is readonly [string, string] => o[1] !== undefined));
}

/**
 * Creates a person with a membership, or invites the existing person the emails (or `id`) name: one transaction
 * writes the person (when new), the email claims, the account user, the membership item, the team joins and the
 * outbox message with its sealed password.
 */
export async function addPerson(caller: Caller, request: AddPersonRequest): Promise<AddedPerson> {
  const { accountId } = caller;
  const { profile, prefix } = request;
  return withRetries('User', async () => {
    const problems: string[] = [];
    const account = await getAccount(accountId);
    if (!account) throw notFound('Account');

    const [rule, teams] = await Promise.all([
      request.notificationRuleId ? findEntity('NOTIFICATION_RULE', accountId, request.notificationRuleId) : undefined,
      resolveIdList('TEAM', accountId, request.teamField, 'team', request.teamIds),
    ]);
    if (request.notificationRuleId && !rule) problems.push(`notification_rule_id refers to unknown notification rule ${request.notificationRuleId}`);
    problems.push(...teams.problems);

    // Who: an existing person (named by id, or owning the emails) or a new one.
    let existing: UserItem | undefined;
    let invitationEmail: string | undefined;
    let draft: ReturnType<typeof applyProfile> | undefined;
    if (profile.id !== undefined) {
      existing = await getUser(profile.id);
      if (!existing) problems.push(`${prefix}id refers to unknown user ${profile.id}`);
      invitationEmail = existing?.emails.find((e) => e.primary)?.email ?? existing?.emails[0]?.email;
    } else {
      if (profile.name === undefined) problems.push(`${prefix}name is required`);
      draft = applyProfile(undefined, profile, prefix);
      problems.push(...draft.problems);
      const owners = await ownersOf(draft.emails.map((e) => e.email));
      const ownerIds = [...new Set(owners.values())];
      if (ownerIds.length > 1) {
        problems.push(`${prefix}emails_attributes names emails of ${ownerIds.length} different users: ${[...owners.keys()].join(', ')}; give the emails of one person`);
      } else if (ownerIds.length === 1) {
        existing = await getUser(ownerIds[0]!);
        // The address the admin typed that belongs to them; the request's primary first.
        invitationEmail = [...draft.emails].sort((a, b) => Number(b.primary) - Number(a.primary)).find((e) => owners.has(e.email))?.email;
      }
    }
    if (problems.length > 0) throw unprocessable(problems);

    if (existing) {
      const already = await membershipOf(existing.id, accountId);
      if (already) {
        const named = profile.id !== undefined ? `${prefix}id ${profile.id}` : `${prefix}email ${invitationEmail}`;
        const state = already.data.status === 'invited' ? 'has already been invited to this account' : 'is already a user of this account';
        throw conflict(`${named}: the person ${state} (${already.prefixId})`);
      }
    }

    const accountUserId = newId();
    let person: UserItem;
    let password: string | undefined;
    if (existing) {
      person = existing;
    } else {
      const d = draft!;
      if (!account.sso) password = generatePassword();
      person = newUserItem({
        name: profile.name!,
        ...d.changes,
        emails: d.emails,
        phones: d.phones,
        passwordHash: password === undefined ? null : await hashPassword(password),
      });
    }

    const invitation: Invitation | null = existing
      ? { email: invitationEmail ?? person.emails[0]!.email, invited_at: nowIso(), invited_by_account_user_id: caller.accountUserId }
      : null;
    const accountUser = await newEntityItem<AccountUserData>(
      'ACCOUNT_USER',
      accountId,
      {
        user_id: person.id,
        roles: { ...request.roles },
        notification_rule_id: rule?.id ?? null,
        status: existing ? 'invited' : 'active',
        invitation,
      },
      { id: accountUserId, meta: request.meta ?? {} },
    );

    const teamWrites = memberTeamChanges(accountUserId, teams.items as TeamItem[], new Set(teams.ids), { leaveOthers: false }).map(
      (u) => versionWrite(u.item, u.data).write,
    );

    const context: MessageContext = {
      accountName: account.name,
      inviterName: (await getUser(caller.userId))?.name ?? '',
      recipientName: person.name,
      to: invitation?.email ?? person.emails.find((e) => e.primary)!.email,
      userId: person.id,
      accountUserId,
      createdByAccountUserId: caller.accountUserId,
    };
    const message = existing
      ? await prepareOutboxMessage(accountId, invitationMessage(context))
      : password !== undefined
        ? await prepareOutboxMessage(accountId, credentialsMessage(context), { password })
        : undefined;

    await createEntities([accountUser, ...(message ? [message.item] : [])] as EntityItem<unknown>[], [
      ...(existing ? [] : userCreateWrites(person)),
      membershipCreateWrite(person.id, accountId, accountUserId),
      ...teamWrites,
      ...(rule ? [touchItem(rule)] : []),
      ...(message?.writes ?? []),
    ]);
    return { accountUser, person, message: message?.item };
  });
}

export async function addPersonAsUser(caller: Caller, request: AddPersonRequest) {
  const { accountUser, person } = await addPerson(caller, request);
  return renderUser(person, accountUser);
}

export async function addPersonAsAccountUser(caller: Caller, request: AddPersonRequest) {
  const { accountUser, person } = await addPerson(caller, request);
  const teams = await listTeams(caller.accountId);
  return renderAccountUser(accountUser, person, teamIdsOf(accountUser.id, teams));
}

// ---------------------------------------------------------------------------------------------------------------
// Changing a person's profile

/**
 * Who may change a person's profile through an account: the person themself (any role), or an admin of the
 * account when the person has joined it and belongs to no other account. A person who is also active elsewhere
 * owns their profile (their emails are their login and their phones page them for every account).
 */
async function assertCanEditProfile(caller: Caller, person: UserItem, accountUser: AccountUserItem, isSelf: boolean): Promise<void> {
  if (isSelf) return;
  if (!caller.roles.admin) throw forbidden(ONLY_ADMINS);
  if (accountUser.data.status === 'invited') {
    throw forbidden(`${person.name} has not accepted the invitation to this account; only they can change their profile`);
  }
  const elsewhere = (await listMemberships(person.id)).filter((m) => m.accountId !== caller.accountId);
  const others = await Promise.all(elsewhere.map((m) => findEntity<AccountUserData>('ACCOUNT_USER', m.accountId, m.accountUserId)));
  if (others.some((au) => au?.data.status === 'active')) {
    throw forbidden(`${person.name} also belongs to another account; only they can change their profile`);
  }
}

/** The person's next version for profile input, or the problems (added emails must belong to nobody). */
async function profileChange(person: UserItem, input: ProfileInput, prefix: string): Promise<UserItem> {
  const change = applyProfile(person, input, prefix);
  const problems = [...change.problems];
  const before = new Set(person.emails.map((e) => e.email));
  const added = change.emails.filter((e) => !before.has(e.email)).map((e) => e.email);
  const owners = await ownersOf(added);
  for (const [email, owner] of owners) {
    if (owner === person.id) continue;
    const at = (input.emails_attributes ?? []).findIndex((a) => a.email === email);
    const field = at >= 0 ? `${prefix}emails_attributes[${at}].email` : `${prefix}email`;
    problems.push(`${field} ${email} belongs to another user`);
  }
  if (problems.length > 0) throw unprocessable(problems);
  return nextUserVersion(person, { ...change.changes, emails: change.emails, phones: change.phones });
}

/** PUT /users/:id: the person's profile (see assertCanEditProfile) and, for admins, the membership's meta. */
export async function updateUser(caller: Caller, id: string, input: ProfileInput & { meta?: Record<string, unknown> | undefined }) {
  return withRetries('User', async () => {
    const { accountUser, person } = await findUserInAccount(caller.accountId, id);
    const isSelf = (await callerUserId(caller)) === person.id;
    if (!isSelf && !caller.roles.admin) throw forbidden(ONLY_ADMINS);
    if (input.meta !== undefined && !caller.roles.admin) throw forbidden('Only account admins can change meta');
    const profile = touchesProfile(input);
    if (!profile && input.meta === undefined) return renderUser(person, accountUser);
    if (profile) await assertCanEditProfile(caller, person, accountUser, isSelf);
    const next = profile ? await profileChange(person, input, '') : person;
    const membership = input.meta !== undefined ? versionWrite(accountUser, accountUser.data, input.meta) : undefined;
    await transact([...(profile ? userUpdateWrites(person, next) : []), ...(membership ? [membership.write] : [])]);
    return renderUser(next, membership?.next ?? accountUser);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Changing an account user

/** Another active admin than `exceptId`, whose unchanged state the write will check; undefined when there is none. */
function otherActiveAdmin(accountUsers: readonly AccountUserItem[], exceptId: string): AccountUserItem | undefined {
  return accountUsers.find((au) => au.id !== exceptId && isActiveAdmin(au));
}

const lastAdmin = (accountUser: AccountUserItem, action: string) =>
  conflict(`${accountUser.prefixId} is the last admin of this account and cannot be ${action}; make another account user an admin first`);

/** PUT /account_users/:id (admins): roles, notification rule, team memberships, meta and the person's profile. */
export async function updateAccountUser(caller: Caller, id: string, input: AccountUserUpdateInput) {
  const { accountId } = caller;
  return withRetries('Account user', async () => {
    const current = await getEntity<AccountUserData>('ACCOUNT_USER', accountId, id);
    const person = await getUser(current.data.user_id);
    if (!person) throw notFound('User');
    const problems: string[] = [];

    let roles: Roles = { ...NO_ROLES, ...current.data.roles };
    if (input.roles !== undefined) {
      const parsed = parseRoles(input.roles, roles);
      if ('problems' in parsed) problems.push(...parsed.problems);
      else roles = parsed.roles;
    }

    const wantedTeams = input.member_team_ids !== undefined || input.team_ids !== undefined ? [...(input.member_team_ids ?? []), ...(input.team_ids ?? [])] : undefined;
    const teamField = input.member_team_ids !== undefined ? 'member_team_ids' : 'team_ids';
    const [rule, resolvedTeams, allTeams] = await Promise.all([
      input.notification_rule_id ? findEntity('NOTIFICATION_RULE', accountId, input.notification_rule_id) : undefined,
      wantedTeams ? resolveIdList('TEAM', accountId, teamField, 'team', wantedTeams) : undefined,
      wantedTeams ? listTeams(accountId) : undefined,
    ]);
    if (input.notification_rule_id && !rule) problems.push(`notification_rule_id refers to unknown notification rule ${input.notification_rule_id}`);
    if (resolvedTeams) problems.push(...resolvedTeams.problems);

    const attributes = input.user_attributes;
    if (attributes?.id !== undefined && attributes.id !== person.id) {
      problems.push(`user_attributes.id must be the id of this account user's user (${person.id}); an account user's person cannot be replaced`);
    }
    const profile = attributes !== undefined && touchesProfile(attributes);
    if (problems.length > 0) throw unprocessable(problems);
    if (profile) await assertCanEditProfile(caller, person, current, (await callerUserId(caller)) === person.id);
    const nextPerson = profile ? await profileChange(person, attributes, 'user_attributes.') : person;

    const writes: TransactItem[] = [];
    if (isActiveAdmin(current) && !roles.admin) {
      const other = otherActiveAdmin(await listAccountUserItems(accountId), current.id);
      if (!other) throw lastAdmin(current, 'demoted');
      writes.push(unchangedCheck(other));
    }
    const notificationRuleId = input.notification_rule_id === undefined ? (current.data.notification_rule_id ?? null) : (rule?.id ?? null);
    const self = versionWrite(current, { ...current.data, roles, notification_rule_id: notificationRuleId }, input.meta);
    writes.push(self.write);
    if (profile) writes.push(...userUpdateWrites(person, nextPerson));
    if (rule && rule.id !== current.data.notification_rule_id) writes.push(touchItem(rule));
    let teams = allTeams;
    if (resolvedTeams && allTeams) {
      const changes = memberTeamChanges(current.id, allTeams, new Set(resolvedTeams.ids), { leaveOthers: true });
      const room = TRANSACTION_LIMIT - writes.length;
      if (changes.length > room) {
        throw unprocessable(`${teamField} would change ${changes.length} teams at once; at most ${room} can change in one request`);
      }
      const written = changes.map((u) => versionWrite(u.item as TeamItem, u.data as TeamFields));
      writes.push(...written.map((w) => w.write));
      const byId = new Map(written.map((w) => [w.next.id, w.next]));
      teams = allTeams.map((t) => byId.get(t.id) ?? t);
    }
    await transact(writes);
    forgetAccountUser(accountId, current.id);
    return renderAccountUser(self.next, nextPerson, teamIdsOf(current.id, teams ?? (await listTeams(accountId))));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Removing a person from an account

/** Reads everything that can name an account user. */
async function holdingsOf(accountId: string) {
  const [teams, events, routers, policies, integrations] = await Promise.all([
    listTeams(accountId),
    listEntities<EventFields>('EVENT', accountId),
    listEntities<RouterFields>('ROUTER', accountId),
    listEntities<PolicyFields>('ESCALATION_POLICY', accountId),
    listEntities<IntegrationFields>('INTEGRATION', accountId),
  ]);
  return { teams, events, routers, policies, integrations };
}

/**
 * DELETE /account_users/:id: removes the person from this account only. In order: refuse (409) when it is the
 * last admin or when a router or integration would be left without a receiver; revoke the account user's API
 * keys in this account; take its id out of teams, events (an event left without attendees is deleted), routers,
 * escalation policies and integrations, in transactions of at most 100 items with version conditions; finally
 * delete the account user and the membership, only if the account user did not change meanwhile (a concurrent
 * reference touches it). Every step is idempotent: a failure part-way leaves the account user in place, and a
 * retry of the DELETE finishes the job. The person and their other memberships stay.
 */
export async function removeAccountUser(caller: Caller, id: string): Promise<void> {
  const { accountId } = caller;
  await withRetries('Account user', async () => {
    const target = await getEntity<AccountUserData>('ACCOUNT_USER', accountId, id);
    const [accountUsers, holdings, keys] = await Promise.all([listAccountUserItems(accountId), holdingsOf(accountId), listApiKeys(accountId)]);
    const other = isActiveAdmin(target) ? otherActiveAdmin(accountUsers, target.id) : undefined;
    if (isActiveAdmin(target) && !other) throw lastAdmin(target, 'deleted');

    const plan = planRemoval(target, holdings);
    if (plan.blockers.length > 0) throw new HttpError(409, plan.blockers);

    // Access goes first: the person cannot act in this account while the rest is cleaned up.
    const tableName = config().tableName;
    for (const key of keys.filter((k) => k.accountUserId === target.id)) {
      await documentClient().send(new DeleteCommand({ TableName: tableName, Key: { pk: key.pk, sk: key.sk } }));
    }
    forgetAccountUser(accountId, target.id);

    const units: WriteUnit[] = [
      ...plan.updates.map((u: PlannedUpdate) => ({ writes: [versionWrite(u.item, u.data).write] })),
      ...plan.deletes.map((item) => ({ writes: deleteItems(item, { count: false }), deleted: item })),
    ];
    for (const batch of batchUnits(units)) await transact(batch);

    await transact([...deleteItems(target), membershipDeleteWrite(target.data.user_id, accountId), ...(other ? [unchangedCheck(other)] : [])]);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

/** POST /users: the person is added with no roles (a member). */
export function userCreateRequest(input: UserCreateInput): AddPersonRequest {
  const { meta, ...profile } = input;
  return { profile, prefix: '', roles: { ...NO_ROLES }, teamIds: [], teamField: 'team_ids', meta };
}

/** POST /account_users: roles as an object of booleans or a list of names; teams from member_team_ids and team_ids. */
export function accountUserCreateRequest(input: AccountUserCreateInput): AddPersonRequest {
  let roles: Roles = { ...NO_ROLES };
  if (input.roles !== undefined) {
    const parsed = parseRoles(input.roles);
    if ('problems' in parsed) throw unprocessable(parsed.problems);
    roles = parsed.roles;
  }
  return {
    profile: input.user_attributes,
    prefix: 'user_attributes.',
    roles,
    notificationRuleId: input.notification_rule_id,
    teamIds: [...(input.member_team_ids ?? []), ...(input.team_ids ?? [])],
    teamField: input.member_team_ids !== undefined ? 'member_team_ids' : 'team_ids',
    meta: input.meta,
  };
}
