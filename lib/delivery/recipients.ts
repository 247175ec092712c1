// Finding people for chat: a person's primary email (to find them in Slack), and the account user behind an email
// (the Slack user who clicked a button). Reads only; the rules are in docs/notifications.md, "Slack". Both know
// only account users who have joined the account: an invited one is neither messaged nor acting (docs/people.md).
import { membershipOf } from '../people/lookups.ts';
import { hasJoined, joinedAccountUser } from '../accounts/joined.ts';
import { getUsers, userIdOfEmail } from '../people/user-store.ts';

/** The primary email of a joined account user's person (or their first email); undefined when they have none. */
export async function primaryEmailOf(accountId: string, accountUserId: string): Promise<string | undefined> {
  const accountUser = await joinedAccountUser(accountId, accountUserId);
  if (!accountUser) return undefined;
  const person = (await getUsers([accountUser.data.user_id])).get(accountUser.data.user_id);
  const emails = person?.emails ?? [];
  return (emails.find((e) => e.primary) ?? emails[0])?.email;
}

/** The joined account user of `accountId` whose person owns `email` (any of their emails), if any. */
export async function accountUserOfEmail(accountId: string, email: string): Promise<string | undefined> {
  const userId = await userIdOfEmail(email);
  if (!userId) return undefined;
  const accountUser = await membershipOf(userId, accountId);
  return accountUser && hasJoined(accountUser) ? accountUser.id : undefined;
}
