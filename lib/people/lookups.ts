// Reads the people modules share: the account's account users and teams, the person behind a caller, a
// person's membership of an account, and who owns an email.
import type { AccountUserData } from '../accounts/account-users.ts';
import { findEntity, listEntities, type EntityItem } from '../db/repository.ts';
import type { Caller } from '../caller/caller.ts';
import type { TeamFields } from './removal.ts';
import type { AccountUserItem } from './render.ts';
import { findMembership, userIdOfEmail } from './user-store.ts';

export type TeamItem = EntityItem<TeamFields>;

export const listAccountUserItems = (accountId: string) => listEntities<AccountUserData>('ACCOUNT_USER', accountId);
export const listTeams = (accountId: string) => listEntities<TeamFields>('TEAM', accountId);

/** The person an API caller acts as. */
export async function callerUserId(caller: Caller): Promise<string | undefined> {
  const self = await findEntity<AccountUserData>('ACCOUNT_USER', caller.accountId, caller.accountUserId);
  return self?.data.user_id;
}

/** The membership of a person in an account: the membership item, or for older data a look through the account users. */
export async function membershipOf(userId: string, accountId: string): Promise<AccountUserItem | undefined> {
  const membership = await findMembership(userId, accountId);
  if (membership) return findEntity<AccountUserData>('ACCOUNT_USER', accountId, membership.accountUserId);
  return (await listAccountUserItems(accountId)).find((au) => au.data.user_id === userId);
}

/** Owners of the given emails (email → person id), one GetItem each. */
export async function ownersOf(emails: readonly string[]): Promise<Map<string, string>> {
  const owners = await Promise.all(emails.map(async (email) => [email, await userIdOfEmail(email)] as const));
  return new Map(owners.filter((o): o is readonly [string, string] => o[1] !== undefined));
}
