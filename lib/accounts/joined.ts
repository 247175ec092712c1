// The one rule that decides whether an account may message one of its account users and whether that account user
// may act from a message of the account: only once the person has joined it (status `active`). An `invited`
// account user is a name and an address until the person accepts: never paged, never sent anything, never acting.
// Every path that messages or acts asks here. Rules: docs/people.md, "People between accounts".
import type { AccountUserData } from './account-users.ts';
import { getItems } from '../db/items.ts';
import { accountPk, entitySk } from '../db/keys.ts';
import { findEntity, type EntityItem } from '../db/repository.ts';
import { cachedEntity } from '../db/config-reads.ts';

/** Why an invited account user is left out, in words for the alert's log and the notification record. */
export const NOT_JOINED = 'they have not accepted the invitation to this account';

/** Whether the account user has joined the account (status `active`; account users older than statuses count as joined). Pure. */
export const hasJoined = (accountUser: { readonly data: { readonly status?: string } }): boolean => accountUser.data.status !== 'invited';

/** The account user of the account by id or prefix id, when it exists and has joined; undefined otherwise. */
export async function joinedAccountUser(accountId: string, idOrPrefixId: string): Promise<EntityItem<AccountUserData> | undefined> {
  const accountUser = await findEntity<AccountUserData>('ACCOUNT_USER', accountId, idOrPrefixId);
  return accountUser && hasJoined(accountUser) ? accountUser : undefined;
}

/** Of these account user ids, the ones of account users that exist and have not joined, each with why (one batched read). */
export async function notJoinedOf(accountId: string, accountUserIds: readonly string[]): Promise<Record<string, string>> {
  const ids = [...new Set(accountUserIds)];
  if (ids.length === 0) return {};
  const items = await getItems<EntityItem<AccountUserData>>(ids.map((id) => ({ pk: accountPk(accountId), sk: entitySk('ACCOUNT_USER', id) })));
  return Object.fromEntries(items.filter((au) => au.type === 'ACCOUNT_USER' && !hasJoined(au)).map((au) => [au.id, NOT_JOINED]));
}

/**
 * The same, for an escalation step (a create's included): each account user from the short configuration cache, the
 * very reads the step's messages then take their contacts from (docs/alerts.md, "Configuration reads in a storm").
 */
export async function cachedNotJoinedOf(accountId: string, accountUserIds: readonly string[]): Promise<Record<string, string>> {
  const found = await Promise.all([...new Set(accountUserIds)].map((id) => cachedEntity<AccountUserData>('ACCOUNT_USER', accountId, id)));
  return Object.fromEntries(found.flatMap((au) => (au && !hasJoined(au) ? [[au.id, NOT_JOINED]] : [])));
}
