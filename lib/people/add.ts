// Adding a person to an account: POST /users creates or invites a person as a member, POST /account_users
// with roles, teams and a notification rule. Rules: docs/people.md.
import { getAccount } from '../accounts/accounts.ts';
import { type AccountUserData, type Invitation } from '../accounts/account-users.ts';
import { nowIso } from '../clock.ts';
import { resolveIdList } from '../db/references.ts';
import { createEntities, findEntity, newEntityItem, touchItem, versionWrite, type EntityItem } from '../db/repository.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { Caller, Roles } from '../caller/caller.ts';
import { config, publicBaseUrlOf } from '../config.ts';
import { newId } from '../ids.ts';
import { prepareOutboxMessage, type OutboxItem } from '../outbox/outbox.ts';
import { listTeams, membershipOf, ownersOf, type TeamItem } from './lookups.ts';
import { credentialsMessage, invitationMessage, type MessageContext } from './messages.ts';
import { applyProfile } from './profile.ts';
import { renderAccountUser, renderUser, type AccountUserItem } from './render.ts';
import { NO_ROLES, parseRoles, type AccountUserCreateInput, type UserAttributesInput, type UserCreateInput } from './schema.ts';
import { memberTeamChanges, teamIdsOf } from './teams.ts';
import { getUser, membershipCreateWrite, newUserItem, userCreateWrites, type UserItem } from './user-store.ts';

/** The console's sign-in page, when the public URL is known (HARK_PUBLIC_URL). */
const signInUrlOf = (): string | undefined => {
  const base = publicBaseUrlOf(config());
  return base ? `${base}/sign-in` : undefined;
};

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

/**
 * Creates a person with a membership, or invites the existing person the emails (or `id`) name: one transaction
 * writes the person (when new), the email claims, the account user, the membership item, the team joins and the
 * outbox message with its sealed password.
 */
export async function addPerson(caller: Caller, request: AddPersonRequest): Promise<AddedPerson> {
  const { accountId } = caller;
  const { profile, prefix } = request;
  return retryOnConflict(async () => {
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
    if (problems.length > 0) throw invalid(problems);

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
    if (existing) {
      person = existing;
    } else {
      const d = draft!;
      // No password: people sign in to the console with a mailed link (docs/console.md, "Sign-in").
      person = newUserItem({ name: profile.name!, ...d.changes, emails: d.emails, phones: d.phones, passwordHash: null });
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
      signInUrl: signInUrlOf(),
    };
    const message = existing
      ? await prepareOutboxMessage(accountId, invitationMessage(context))
      : !account.sso
        ? await prepareOutboxMessage(accountId, credentialsMessage(context))
        : undefined;

    await createEntities([accountUser, ...(message ? [message.item] : [])] as EntityItem<unknown>[], [
      ...(existing ? [] : userCreateWrites(person)),
      membershipCreateWrite(person.id, accountId, accountUserId),
      ...teamWrites,
      ...(rule ? [touchItem(rule)] : []),
      ...(message?.writes ?? []),
    ]);
    return { accountUser, person, message: message?.item };
  }, { exhausted: changedMeanwhile('User') });
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
    if ('problems' in parsed) throw invalid(parsed.problems);
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
