// Accounts and their first admin: used by the operator CLI and by the local runtime's first start.

import { nowIso } from '../clock.ts';
import { getItem, putIfAbsent } from '../db/items.ts';
import { accountKey } from '../db/keys.ts';
import { createEntity, type EntityItem } from '../db/repository.ts';
import { issueApiKey } from '../auth/api-keys.ts';
import { newId, newPrefixId } from '../ids.ts';
import { ensureUserForEmail, membershipCreateWrite } from '../people/user-store.ts';
import type { AccountUserData } from './account-users.ts';

export interface AccountItem {
  pk: string;
  sk: string;
  type: 'ACCOUNT';
  id: string;
  prefixId: string;
  name: string;
  /** Accounts on single sign-on get no generated passwords for new users. */
  sso: boolean;
  createdAt: string;
}

// The account user's stored fields live in ./account-users.ts, which imports nothing, so what reads them (people,
// auth) does not import the account creation below, which itself uses people and auth.
export { ACCOUNT_USER_STATUSES, type AccountUserData, type AccountUserStatus, type Invitation } from './account-users.ts';

export async function getAccount(accountId: string): Promise<AccountItem | undefined> {
  return getItem<AccountItem>(accountKey(accountId), { consistent: false });
}

export async function createAccount(input: { name: string; adminEmail: string; adminName?: string; sso?: boolean; apiKey?: string }) {
  const id = newId();
  const account: AccountItem = {
    ...accountKey(id),
    type: 'ACCOUNT',
    id,
    prefixId: newPrefixId('ACCOUNT'),
    name: input.name,
    sso: input.sso ?? false,
    createdAt: nowIso(),
  };
  if (!(await putIfAbsent(account))) throw new Error(`Account ${id} already exists`);
  const user = await ensureUserForEmail({ email: input.adminEmail, name: input.adminName ?? input.adminEmail.split('@')[0]! });
  const accountUserId = newId();
  const accountUser: EntityItem<AccountUserData> = await createEntity<AccountUserData>(
    'ACCOUNT_USER',
    id,
    {
      user_id: user.id,
      roles: { admin: true, billing: true, broadcaster: false, communicator: false },
      notification_rule_id: null,
      status: 'active',
      invitation: null,
    },
    { id: accountUserId, extraItems: [membershipCreateWrite(user.id, id, accountUserId)] },
  );
  const { key, keyId } = await issueApiKey({
    accountId: id,
    accountUserId: accountUser.id,
    userId: user.id,
    name: 'admin',
    ...(input.apiKey ? { key: input.apiKey } : {}),
  });
  return { account, user, accountUser, apiKey: key, apiKeyId: keyId };
}
