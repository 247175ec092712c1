// Accounts: the stored account and its read. Creating one with its first admin (a person, an account user and an API
// key) is lib/people/new-account.ts, above people and auth, which read accounts (decision 0034).

import { getItem } from '../db/items.ts';
import { accountKey } from '../db/keys.ts';

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

// The account user's stored fields live in ./account-users.ts, which imports nothing.
export { ACCOUNT_USER_STATUSES, type AccountUserData, type AccountUserStatus, type Invitation } from './account-users.ts';

export async function getAccount(accountId: string): Promise<AccountItem | undefined> {
  return getItem<AccountItem>(accountKey(accountId), { consistent: false });
}
