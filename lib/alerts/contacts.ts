// Reads what paging a person needs: their account user (notification rule), their person (notify_* defaults,
// emails, phones) and their notification rule's document.
import type { AccountUserData } from '../accounts/accounts.ts';
import { findEntity } from '../db/repository.ts';
import type { NotificationRuleData } from '../notification-rules/schema.ts';
import { getUsers } from '../people/user-store.ts';
import type { PersonContact } from './channels.ts';

/** Contacts of the account users, by account user id; account users that no longer exist are left out. */
export async function loadContacts(accountId: string, accountUserIds: readonly string[]): Promise<Map<string, PersonContact>> {
  const ids = [...new Set(accountUserIds)];
  if (ids.length === 0) return new Map();
  const accountUsers = (await Promise.all(ids.map((id) => findEntity<AccountUserData>('ACCOUNT_USER', accountId, id)))).filter((au) => au !== undefined);
  const ruleIds = [...new Set(accountUsers.map((au) => au.data.notification_rule_id).filter((id): id is string => Boolean(id)))];
  const [people, rules] = await Promise.all([
    getUsers(accountUsers.map((au) => au.data.user_id)),
    Promise.all(ruleIds.map((id) => findEntity<NotificationRuleData>('NOTIFICATION_RULE', accountId, id))),
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
  return contacts;
}
