// Reads what messaging a person needs: their account user (notification rule), their person (notify_* defaults,
// emails, phones) and their notification rule's document; only for account users who have joined the account. Pages read
// them from the short configuration cache, broadcasts fresh (docs/alerts.md, "Configuration reads in a storm").
import type { AccountUserData } from '../accounts/account-users.ts';
import { cachedConfigRead, cachedEntity } from '../db/config-reads.ts';
import { findEntity, type EntityItem } from '../db/repository.ts';
import type { NotificationRuleData } from '../notification-rules/schema.ts';
import { hasJoined, NOT_JOINED } from '../accounts/joined.ts';
import { getUsers, type UserItem } from '../people/user-store.ts';
import type { PersonContact } from './channels.ts';

/** An account user's contact, or why there is none. */
export type ContactLookup = { readonly contact: PersonContact; readonly reason?: undefined } | { readonly contact?: undefined; readonly reason: string };

const GONE = 'the account user no longer exists';

interface ContactReads {
  entity<D>(type: 'ACCOUNT_USER' | 'NOTIFICATION_RULE', accountId: string, id: string): Promise<EntityItem<D> | undefined>;
  users(accountId: string, userIds: readonly string[]): Promise<ReadonlyMap<string, UserItem>>;
}

const freshReads: ContactReads = { entity: findEntity, users: (_, userIds) => getUsers(userIds) };
const cachedReads: ContactReads = {
  entity: cachedEntity,
  users: (accountId, userIds) => {
    const ids = [...new Set(userIds)].sort();
    return ids.length === 0 ? Promise.resolve(new Map()) : cachedConfigRead(accountId, `users\u0000${ids.join(',')}`, () => getUsers(ids));
  },
};

/**
 * The contacts of the account users, looked up by account user id. Only an account user who exists and has joined
 * the account has one: an invited one is never messaged, and no contact data of theirs is read (docs/people.md,
 * "People between accounts"); the lookup says why for the others. `fresh` reads past the configuration cache.
 */
export async function loadContacts(accountId: string, accountUserIds: readonly string[], options: { fresh?: boolean } = {}): Promise<(accountUserId: string) => ContactLookup> {
  const reads = options.fresh ? freshReads : cachedReads;
  const ids = [...new Set(accountUserIds)];
  const found = (await Promise.all(ids.map((id) => reads.entity<AccountUserData>('ACCOUNT_USER', accountId, id)))).filter((au) => au !== undefined);
  const accountUsers = found.filter(hasJoined);
  const notJoined = new Set(found.filter((au) => !hasJoined(au)).map((au) => au.id));
  const ruleIds = [...new Set(accountUsers.map((au) => au.data.notification_rule_id).filter((id): id is string => Boolean(id)))];
  const [people, rules] = await Promise.all([
    reads.users(accountId, accountUsers.map((au) => au.data.user_id)),
    Promise.all(ruleIds.map((id) => reads.entity<NotificationRuleData>('NOTIFICATION_RULE', accountId, id))),
  ]);
  const ruleById = new Map(rules.filter((r) => r !== undefined).map((r) => [r.id, r.data]));
  const contacts = new Map<string, PersonContact>();
  for (const au of accountUsers) {
    const person = people.get(au.data.user_id);
    if (!person) continue;
    const rule = au.data.notification_rule_id ? ruleById.get(au.data.notification_rule_id) : undefined;
    contacts.set(au.id, {
      account_user_id: au.id,
      notify_push: person.notify_push,
      notify_email: person.notify_email,
      notify_sms: person.notify_sms,
      notify_voice: person.notify_voice,
      emails: person.emails,
      phones: person.phones,
      rule: rule ? { enabled: rule.enabled, rules: rule.rules } : null,
    });
  }
  return (accountUserId) => {
    const contact = contacts.get(accountUserId);
    return contact ? { contact } : { reason: notJoined.has(accountUserId) ? NOT_JOINED : GONE };
  };
}
