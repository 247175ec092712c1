// A new account with its first admin: the account, the admin's person (found or made by email), their account user
// and an API key. Used by the operator CLI and by the local runtime's first start. It lives above people and auth,
// which it uses, and accounts, which they read (decision 0034).
import { nowIso } from '../clock.ts';
import { putIfAbsent } from '../db/items.ts';
import { accountKey } from '../db/keys.ts';
import { createEntity, type EntityItem } from '../db/repository.ts';
import { issueApiKey } from '../auth/api-keys.ts';
import { newId, newPrefixId } from '../ids.ts';
import type { AccountItem } from '../accounts/accounts.ts';
import type { AccountUserData } from '../accounts/account-users.ts';
import { ensureUserForEmail, membershipCreateWrite } from './user-store.ts';

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
