// Accepting an invitation: the person joins an account that invited them. Only the person does this, signed in
// with their own login (the sign-in flow of the web interface, outside this API); no API key of any account can.
// Rules: docs/people.md, "Invitations" and "People between accounts".
import { nowIso } from '../clock.ts';
import { transact, versionWrite } from '../db/repository.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { conflict, notFound } from '../errors.ts';
import type { Caller } from '../caller/caller.ts';
import { hasJoined } from '../accounts/joined.ts';
import { removeAccountUser } from './remove-account-user.ts';
import { NO_ROLES } from './schema.ts';
import { membershipOf } from './lookups.ts';
import type { AccountUserItem } from './render.ts';
import { getUser, nextUserVersion, userUpdateWrites } from './user-store.ts';

/**
 * The person `userId` accepts the invitation of `accountId`: in one transaction, conditioned on both versions
 * read, their account user becomes `active` and the person records (once) that they accepted an invitation, after
 * which no admin of any account changes their profile. 404 without an invitation, 409 when already joined.
 */
export async function acceptInvitation(userId: string, accountId: string): Promise<AccountUserItem> {
  return retryOnConflict(
    async () => {
      const [person, accountUser] = await Promise.all([getUser(userId), membershipOf(userId, accountId)]);
      if (!person || !accountUser) throw notFound('Invitation');
      if (hasJoined(accountUser)) throw conflict(`the person already belongs to this account (${accountUser.prefixId})`);
      const joined = versionWrite(accountUser, { ...accountUser.data, status: 'active' as const });
      const owned = person.invitation_accepted_at ? [] : userUpdateWrites(person, nextUserVersion(person, { invitation_accepted_at: nowIso() }));
      await transact([joined.write, ...owned]);
      return joined.next;
    },
    { exhausted: changedMeanwhile('Invitation') },
  );
}

/**
 * The person `userId` declines the invitation of `accountId` (decision 0009): their invited account user and its
 * membership go, exactly as DELETE /account_users/:id removes a person (references and all), acting as the person
 * themself. 404 without an invitation, 409 when they already joined (leaving is an admin's DELETE).
 */
export async function declineInvitation(userId: string, accountId: string): Promise<void> {
  const accountUser = await membershipOf(userId, accountId);
  if (!accountUser) throw notFound('Invitation');
  if (hasJoined(accountUser)) throw conflict(`the person already belongs to this account (${accountUser.prefixId})`);
  const self: Caller = { accountId, accountUserId: accountUser.id, userId, roles: NO_ROLES, apiKeyId: 'invitation' };
  await removeAccountUser(self, accountUser.id);
}
