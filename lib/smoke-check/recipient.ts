// Who the smoke check pages: the account's canary, a person of its own whose only channel is push, so a check never
// wakes anyone (docs/deploy.md, "Check it pages"). Hark cannot delete a person (an account user can leave an account,
// the person stays: docs/people.md), so the canary is made once per account and found again by every later check
// rather than made and left behind by each one.
import { randomBytes } from 'node:crypto';
import { CheckFailure, type HarkApi } from './client.ts';

/** The canary's name; `meta.hark_canary` marks it, so a person who happens to share the name is never taken. */
export const CANARY_NAME = 'Hark canary';
/** Its email: a reserved domain (RFC 2606) nobody receives mail at; the random part keeps it unique to this canary. */
export const CANARY_EMAIL_DOMAIN = 'canary.invalid';
const CANARY_CHANNELS = { notify_push: true, notify_email: false, notify_sms: false, notify_voice: false };

export interface AccountUser {
  id: string;
  prefix_id: string;
  account_id: string;
  status: string;
  meta?: Record<string, unknown>;
  user: { name: string; emails: { email: string }[]; notify_push: boolean | null; notify_email: boolean | null; notify_sms: boolean | null; notify_voice: boolean | null };
}

export interface PushSubscription {
  provider: string | null;
  server: string | null;
  topic: string | null;
}

const isCanary = (au: AccountUser) => au.meta?.hark_canary === true && au.status === 'active';

/** The account's canary, made (or its channels put back to push only) when needed; `made` says it was created now. */
export async function canaryRecipient(api: HarkApi): Promise<{ canary: AccountUser; made: boolean }> {
  const found = await api.expect<{ data: AccountUser[] }>(200, 'GET', `/account_users?q=${encodeURIComponent(CANARY_NAME)}&limit=100`);
  const canary = found.data.find(isCanary);
  if (canary) {
    const drifted = Object.entries(CANARY_CHANNELS).some(([flag, on]) => canary.user[flag as keyof typeof CANARY_CHANNELS] !== on);
    if (!drifted) return { canary, made: false };
    return { canary: await api.expect<AccountUser>(200, 'PUT', `/account_users/${canary.id}`, { user_attributes: CANARY_CHANNELS }), made: false };
  }
  const email = `hark-canary-${randomBytes(6).toString('hex')}@${CANARY_EMAIL_DOMAIN}`;
  const made = await api.expect<AccountUser>(201, 'POST', '/account_users', {
    roles: [],
    user_attributes: { name: CANARY_NAME, emails_attributes: [{ email, primary: true }], ...CANARY_CHANNELS },
    meta: { hark_canary: true, about: 'Paged by the smoke check (npm run admin -- smoke); push only, nobody reads it.' },
  });
  if (made.status !== 'active') throw new CheckFailure(`the canary ${made.prefix_id} was made ${made.status}, not active`);
  return { canary: made, made: true };
}

/** The active account user with this email (`--person`), or a failure naming it. */
export async function personByEmail(api: HarkApi, email: string): Promise<AccountUser> {
  const found = await api.expect<{ data: AccountUser[] }>(200, 'GET', `/account_users?q=${encodeURIComponent(email)}&limit=100`);
  const wanted = email.trim().toLowerCase();
  const person = found.data.find((au) => au.user.emails.some((e) => e.email.toLowerCase() === wanted));
  if (!person) throw new CheckFailure(`no account user of this account has the email ${email}`);
  if (person.status !== 'active') throw new CheckFailure(`${email} has not accepted the invitation to this account: Hark never pages them`);
  return person;
}

export const pushOf = (api: HarkApi, accountUserId: string) => api.expect<PushSubscription>(200, 'GET', `/account_users/${accountUserId}/push`);
