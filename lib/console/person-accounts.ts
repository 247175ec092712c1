// A person's accounts as the console offers them: the ones they joined (to pick one) and the invitations they may
// accept or deny (docs/people.md, "People between accounts").
import { getAccount } from '../accounts/accounts.ts';
import { findEntity } from '../db/repository.ts';
import type { AccountUserData } from '../accounts/account-users.ts';
import { hasJoined } from '../accounts/joined.ts';
import { listMemberships } from '../people/user-store.ts';

export interface PersonAccount {
  readonly accountId: string;
  readonly name: string;
  readonly joined: boolean;
}

/** Every account the person belongs to or is invited to, by name. */
export async function accountsOf(userId: string): Promise<PersonAccount[]> {
  const memberships = await listMemberships(userId);
  const found = await Promise.all(
    memberships.map(async (m) => {
      const [account, accountUser] = await Promise.all([getAccount(m.accountId), findEntity<AccountUserData>('ACCOUNT_USER', m.accountId, m.accountUserId)]);
      return account && accountUser ? { accountId: m.accountId, name: account.name, joined: hasJoined(accountUser) } : undefined;
    }),
  );
  return found.filter((a): a is PersonAccount => a !== undefined).sort((a, b) => a.name.localeCompare(b.name));
}
