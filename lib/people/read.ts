// Reading people through an account: GET /users, /users/:id, /account_users, /account_users/:id.
import type { AccountUserData } from '../accounts/account-users.ts';
import { findEntity, getEntity } from '../db/repository.ts';
import { notFound } from '../errors.ts';
import { looksLikePrefixId } from '../ids.ts';
import { listAccountUserItems, listTeams, membershipOf } from './lookups.ts';
import { renderAccountUser, renderUser, type AccountUserItem } from './render.ts';
import { teamIdsOf } from './teams.ts';
import { getUser, getUsers, type UserItem } from './user-store.ts';

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
