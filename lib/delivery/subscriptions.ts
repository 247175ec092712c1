// Where a person subscribes to their push notifications (docs/notifications.md, "Push"): their own ntfy topic,
// shown to them and to admins only, since knowing the topic is enough to read the pages.
import type { AccountUserData } from '../accounts/account-users.ts';
import { config } from '../config.ts';
import { findEntity } from '../db/repository.ts';
import { forbidden, notFound } from '../errors.ts';
import { pushSubscriptionOf } from '../channel-adapters/ntfy.ts';

interface Viewer {
  accountId: string;
  accountUserId: string;
  roles: { admin: boolean };
}

/** GET /account_users/{id}/push: the person themself or an admin; anyone else 403, an unknown id 404. */
export async function pushSubscription(viewer: Viewer, idOrPrefixId: string) {
  const accountUser = await findEntity<AccountUserData>('ACCOUNT_USER', viewer.accountId, idOrPrefixId);
  if (!accountUser) throw notFound('Account user');
  if (accountUser.id !== viewer.accountUserId && !viewer.roles.admin) throw forbidden('Only the person or an account admin can see their push topic');
  return { account_user_id: accountUser.id, ...pushSubscriptionOf(config(), viewer.accountId, accountUser.id) };
}
