// npm start prints a one-time console sign-in link for the bootstrap admin, so nobody needs mail to try the console
// (docs/console.md, "Sign-in").
import { nowMs } from '../clock.ts';
import type { AccountUserData } from '../accounts/account-users.ts';
import { issueSignInLink } from '../console/sign-in.ts';
import { findEntity } from '../db/repository.ts';
import { getUser } from '../people/user-store.ts';

/** A fresh sign-in link of the admin account user, or undefined when they have no email to sign in with. */
export async function adminSignInLink(accountId: string, accountUserId: string, baseUrl: string): Promise<string | undefined> {
  const accountUser = await findEntity<AccountUserData>('ACCOUNT_USER', accountId, accountUserId);
  const person = accountUser ? await getUser(accountUser.data.user_id) : undefined;
  const email = person?.emails.find((e) => e.primary)?.email ?? person?.emails[0]?.email;
  if (!person || !email) return undefined;
  return issueSignInLink(person.id, email, baseUrl.replace(/\/+$/, ''), nowMs());
}
