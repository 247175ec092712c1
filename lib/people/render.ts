// API objects of users (a person seen through one account) and account users (the membership). Pure.
import type { AccountUserData } from '../accounts/account-users.ts';
import type { UserItem } from './user-store.ts';
import type { EntityItem } from '../db/repository.ts';
import { NO_ROLES } from './schema.ts';

export type AccountUserItem = EntityItem<AccountUserData>;

/**
 * The person's fields an account sees. An account that has only invited the person (status `invited`) sees their
 * name and the address the invitation went to, nothing else of a profile that is not theirs yet: no other email,
 * no phone, no time zone or language, and `null` notify flags (docs/people.md, "People between accounts").
 */
export function visibleProfile(person: UserItem, accountUser: AccountUserItem) {
  const invited = accountUser.data.status === 'invited';
  const invitationEmail = accountUser.data.invitation?.email;
  const emails = invited ? person.emails.filter((e) => e.email === invitationEmail) : person.emails;
  return {
    name: person.name,
    time_zone: invited ? null : person.time_zone,
    preferred_language: invited ? null : person.preferred_language,
    last_sign_in_at: invited ? null : person.last_sign_in_at,
    emails: emails.map((e) => ({ id: e.id, email: e.email, primary: invited ? true : e.primary })),
    phones: invited
      ? []
      : person.phones.map((p) => ({
          id: p.id,
          prefix_id: p.prefix_id,
          phone: p.phone,
          primary: p.primary,
          country: p.country,
          blocked: p.blocked,
          confirmation_method: p.confirmation_method,
        })),
    notify_push: invited ? null : person.notify_push,
    notify_email: invited ? null : person.notify_email,
    notify_sms: invited ? null : person.notify_sms,
    notify_voice: invited ? null : person.notify_voice,
  };
}

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * A User object: `id` is the person's global id; `prefix_id`, `tiny_id`, `account_id`, `meta` and `created_at`
 * are those of the person's account user in this account (the account-scoped handle, `usr_…`);
 * `updated_at` is the later of the person's and the membership's last change.
 */
export function renderUser(person: UserItem, accountUser: AccountUserItem): Record<string, unknown> {
  return {
    id: person.id,
    prefix_id: accountUser.prefixId,
    tiny_id: accountUser.tinyId,
    account_id: accountUser.accountId,
    account_user_id: accountUser.id,
    status: accountUser.data.status,
    ...visibleProfile(person, accountUser),
    meta: accountUser.meta,
    created_at: accountUser.createdAt,
    updated_at: later(person.updatedAt, accountUser.updatedAt),
  };
}

/** An Account User object: the membership, the embedded person and the teams it is on. */
export function renderAccountUser(accountUser: AccountUserItem, person: UserItem | undefined, teamIds: readonly string[]): Record<string, unknown> {
  const d = accountUser.data;
  return {
    id: accountUser.id,
    prefix_id: accountUser.prefixId,
    tiny_id: accountUser.tinyId,
    account_id: accountUser.accountId,
    user_id: d.user_id,
    user: person ? { id: person.id, ...visibleProfile(person, accountUser) } : null,
    roles: { ...NO_ROLES, ...d.roles },
    notification_rule_id: d.notification_rule_id ?? null,
    status: d.status,
    invitation: d.invitation ?? null,
    team_ids: [...teamIds],
    meta: accountUser.meta,
    created_at: accountUser.createdAt,
    updated_at: accountUser.updatedAt,
  };
}
