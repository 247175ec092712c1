// Changing a person's profile through an account (PUT /users/:id, and the user_attributes of PUT
// /account_users/:id): who may, and the new version with its email claims. Rules: docs/people.md.
import type { AccountUserData } from '../accounts/account-users.ts';
import { findEntity, transact, versionWrite } from '../db/repository.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { forbidden, invalid } from '../errors.ts';
import type { Caller } from '../caller/caller.ts';
import { ONLY_ADMINS } from './admins.ts';
import { hasJoined } from '../accounts/joined.ts';
import { callerUserId, ownersOf } from './lookups.ts';
import { applyProfile, touchesProfile } from './profile.ts';
import { findUserInAccount } from './read.ts';
import { renderUser, type AccountUserItem } from './render.ts';
import type { ProfileInput } from './schema.ts';
import { listMemberships, nextUserVersion, userUpdateWrites, type UserItem } from './user-store.ts';

/**
 * Who may change a person's profile through an account: the person themself (any role), or an admin of the
 * account when the person has joined it, is active in no other account, and has never accepted an invitation. A
 * person who is also active elsewhere, or who joined an account by accepting its invitation, owns their profile
 * (their emails are their login and their phones page them for every account). docs/people.md.
 */
export async function assertCanEditProfile(caller: Caller, person: UserItem, accountUser: AccountUserItem, isSelf: boolean): Promise<void> {
  if (isSelf) return;
  if (!caller.roles.admin) throw forbidden(ONLY_ADMINS);
  if (accountUser.data.status === 'invited') {
    throw forbidden(`${person.name} has not accepted the invitation to this account; only they can change their profile`);
  }
  const elsewhere = (await listMemberships(person.id)).filter((m) => m.accountId !== caller.accountId);
  const others = await Promise.all(elsewhere.map((m) => findEntity<AccountUserData>('ACCOUNT_USER', m.accountId, m.accountUserId)));
  if (others.some((au) => au !== undefined && hasJoined(au))) {
    throw forbidden(`${person.name} also belongs to another account; only they can change their profile`);
  }
  if (person.invitation_accepted_at) {
    throw forbidden(`${person.name} has accepted an invitation to an account, so their profile is their own; only they can change it`);
  }
}

/** The person's next version for profile input, or the problems (added emails must belong to nobody). */
export async function profileChange(person: UserItem, input: ProfileInput, prefix: string): Promise<UserItem> {
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
  if (problems.length > 0) throw invalid(problems);
  return nextUserVersion(person, { ...change.changes, emails: change.emails, phones: change.phones });
}

/** PUT /users/:id: the person's profile (see assertCanEditProfile) and, for admins, the membership's meta. */
export async function updateUser(caller: Caller, id: string, input: ProfileInput & { meta?: Record<string, unknown> | undefined }) {
  return retryOnConflict(async () => {
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
  }, { exhausted: changedMeanwhile('User') });
}
