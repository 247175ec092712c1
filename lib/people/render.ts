// API objects of users (a person seen through one account) and account users (the membership). Pure.
import type { AccountUserData } from '../accounts/account-users.ts';
import type { UserItem } from './user-store.ts';
import type { EntityItem } from '../db/repository.ts';
import { hideFields } from '../list-engine/index.ts';
import { NO_ROLES } from './schema.ts';

export type AccountUserItem = EntityItem<AccountUserData>;

/**
 * The profile fields an account that has only invited the person (status `invited`) may not read (docs/people.md,
 * "People between accounts"): shown empty (`[]` for phones, `null` for the rest), and hidden from list filters, sorts
 * and `q` (lib/list-engine, HIDDEN_FIELDS), so a list never finds the person by them. Of the emails, such an account
 * sees only the address the invitation went to; the others are left out of the array.
 */
export const HIDDEN_FROM_INVITER = ['time_zone', 'preferred_language', 'last_sign_in_at', 'phones', 'notify_push', 'notify_email', 'notify_sms', 'notify_voice'] as const;
type HiddenField = (typeof HIDDEN_FROM_INVITER)[number];

const isInvited = (accountUser: AccountUserItem) => accountUser.data.status === 'invited';

/** The fields of the person the account may not read, as paths under `prefix` (the object's path to the profile). */
const hiddenPaths = (accountUser: AccountUserItem, prefix = ''): string[] => (isInvited(accountUser) ? HIDDEN_FROM_INVITER.map((f) => `${prefix}${f}`) : []);

/** The person's fields an account sees: all of them, or for an account that only invited them, HIDDEN_FROM_INVITER empty. */
export function visibleProfile(person: UserItem, accountUser: AccountUserItem) {
  const invited = isInvited(accountUser);
  const invitationEmail = accountUser.data.invitation?.email;
  const emails = invited ? person.emails.filter((e) => e.email === invitationEmail) : person.emails;
  const full = {
    time_zone: person.time_zone,
    preferred_language: person.preferred_language,
    last_sign_in_at: person.last_sign_in_at,
    phones: person.phones.map((p) => ({
      id: p.id,
      prefix_id: p.prefix_id,
      phone: p.phone,
      primary: p.primary,
      country: p.country,
      blocked: p.blocked,
      confirmation_method: p.confirmation_method,
    })),
    notify_push: person.notify_push,
    notify_email: person.notify_email,
    notify_sms: person.notify_sms,
    notify_voice: person.notify_voice,
  } satisfies Record<HiddenField, unknown>;
  const shown = invited ? { ...full, ...Object.fromEntries(HIDDEN_FROM_INVITER.map((f) => [f, f === 'phones' ? [] : null])) } : full;
  return {
    name: person.name,
    time_zone: shown.time_zone,
    preferred_language: shown.preferred_language,
    last_sign_in_at: shown.last_sign_in_at,
    emails: emails.map((e) => ({ id: e.id, email: e.email, primary: invited ? true : e.primary })),
    phones: shown.phones,
    notify_push: shown.notify_push,
    notify_email: shown.notify_email,
    notify_sms: shown.notify_sms,
    notify_voice: shown.notify_voice,
  };
}

const later = (a: string, b: string) => (a > b ? a : b);

/**
 * A User object: `id` is the person's global id; `prefix_id`, `tiny_id`, `account_id`, `meta` and `created_at`
 * are those of the person's account user in this account (the account-scoped handle, `usr_…`);
 * `updated_at` is the later of the person's and the membership's last change.
 */
export function renderUser(person: UserItem, accountUser: AccountUserItem): Record<string, unknown> {
  return hideFields({
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
  }, hiddenPaths(accountUser));
}

/** An Account User object: the membership, the embedded person and the teams it is on. */
export function renderAccountUser(accountUser: AccountUserItem, person: UserItem | undefined, teamIds: readonly string[]): Record<string, unknown> {
  const d = accountUser.data;
  return hideFields({
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
  }, person ? hiddenPaths(accountUser, 'user.') : []);
}
