// Applying profile input (POST/PUT /users, `user_attributes`) to a person's fields. Pure: no I/O.
import type { UserEmail, UserItem, UserPhone } from './user-store.ts';
import { newId, newPrefixId } from '../ids.ts';
import { mergeNested, type NestedAttribute, type NestedSpec } from './nested.ts';
import { normalizePhone } from './phones.ts';
import { type EmailAttribute, type PhoneAttribute, type ProfileInput } from './schema.ts';
import { MAX_EMAILS, MAX_PHONES } from '../limits.ts';

type EmailElement = NestedAttribute & { email?: string | undefined };
type PhoneElement = NestedAttribute & Pick<PhoneAttribute, 'phone' | 'confirmation_method'>;

const emailSpec: NestedSpec<UserEmail, EmailElement> = {
  noun: 'email',
  valueField: 'email',
  matches: (row, id) => row.id === id,
  create: (a) => (a.email === undefined ? [`${a.label}.email is required`] : { id: newPrefixId('EMAIL'), email: a.email, primary: false }),
  update: (row, a) => (a.email === undefined ? { ...row } : { ...row, email: a.email }),
  valueOf: (row) => row.email,
};

const phoneSpec: NestedSpec<UserPhone, PhoneElement> = {
  noun: 'phone',
  valueField: 'phone',
  matches: (row, id) => row.id === id || row.prefix_id === id,
  create: (a) => {
    if (a.phone === undefined) return [`${a.label}.phone is required`];
    const checked = normalizePhone(a.phone);
    if (!checked.ok) return [`${a.label}.phone ${checked.problem}`];
    return {
      id: newId(),
      prefix_id: newPrefixId('PHONE'),
      phone: checked.phone,
      primary: false,
      country: checked.country,
      blocked: false,
      confirmation_method: a.confirmation_method ?? 'sms',
    };
  },
  update: (row, a) => {
    const next: UserPhone = { ...row };
    if (a.confirmation_method !== undefined) next.confirmation_method = a.confirmation_method ?? 'sms';
    if (a.phone === undefined) return next;
    const checked = normalizePhone(a.phone);
    if (!checked.ok) return [`${a.label}.phone ${checked.problem}`];
    // Another number is another line: its country is derived again and an opt-out of the old number does not carry over.
    if (checked.phone !== row.phone) Object.assign(next, { phone: checked.phone, country: checked.country, blocked: false });
    return next;
  },
  valueOf: (row) => row.phone,
};

const emailElements = (attributes: readonly EmailAttribute[], prefix: string): EmailElement[] =>
  attributes.map((a, i) => ({ label: `${prefix}emails_attributes[${i}]`, id: a.id, email: a.email, primary: a.primary, destroy: a._destroy }));

const phoneElements = (attributes: readonly PhoneAttribute[], prefix: string): PhoneElement[] =>
  attributes.map((a, i) => ({
    label: `${prefix}phones_attributes[${i}]`,
    id: a.id,
    phone: a.phone,
    confirmation_method: a.confirmation_method,
    primary: a.primary,
    destroy: a._destroy,
  }));

export interface ProfileChange {
  /** Fields to set on the person (only those the input names). */
  changes: Partial<Pick<UserItem, 'name' | 'time_zone' | 'preferred_language' | 'notify_push' | 'notify_email' | 'notify_sms' | 'notify_voice'>>;
  emails: UserEmail[];
  phones: UserPhone[];
  problems: string[];
}

/**
 * Applies profile input to a person (`current`, or nobody yet for a new person).
 *
 * `email`: for a new person it is their primary email unless an `emails_attributes` element is marked primary; on
 * a change it becomes the primary email (added when the person does not have it yet). Emails and phones follow
 * the nested-attribute rules (lib/people/nested.ts); a person keeps at least one email.
 */
export function applyProfile(current: Pick<UserItem, 'emails' | 'phones'> | undefined, input: ProfileInput, prefix = ''): ProfileChange {
  const problems: string[] = [];
  const emails = emailElements(input.emails_attributes ?? [], prefix);
  if (input.email !== undefined && !emails.some((e) => e.email === input.email && !e.destroy)) {
    const existing = current?.emails.find((e) => e.email === input.email);
    emails.unshift({ label: `${prefix}email`, id: existing?.id, email: input.email, primary: current ? true : undefined });
  }
  const mergedEmails = mergeNested(current?.emails ?? [], emails, emailSpec);
  const mergedPhones = mergeNested(current?.phones ?? [], phoneElements(input.phones_attributes ?? [], prefix), phoneSpec);
  problems.push(...mergedEmails.problems, ...mergedPhones.problems);

  if (mergedEmails.rows.length === 0 && mergedEmails.problems.length === 0) {
    problems.push(current ? `${prefix}emails_attributes would remove every email; a user keeps at least one` : `${prefix}email is required: give email or emails_attributes with at least one email`);
  }
  if (mergedEmails.rows.length > MAX_EMAILS) problems.push(`${prefix}emails_attributes would give the user ${mergedEmails.rows.length} emails; at most ${MAX_EMAILS}`);
  if (mergedPhones.rows.length > MAX_PHONES) problems.push(`${prefix}phones_attributes would give the user ${mergedPhones.rows.length} phones; at most ${MAX_PHONES}`);

  const changes: ProfileChange['changes'] = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.time_zone !== undefined) changes.time_zone = input.time_zone;
  if (input.preferred_language !== undefined) changes.preferred_language = input.preferred_language;
  for (const flag of ['notify_push', 'notify_email', 'notify_sms', 'notify_voice'] as const) {
    if (input[flag] !== undefined) changes[flag] = input[flag];
  }
  return { changes, emails: mergedEmails.rows, phones: mergedPhones.rows, problems };
}

/** Whether the input changes anything of the person (so a request that does not touches no person record). */
export function touchesProfile(input: ProfileInput): boolean {
  return (
    input.name !== undefined ||
    input.email !== undefined ||
    input.time_zone !== undefined ||
    input.preferred_language !== undefined ||
    input.notify_push !== undefined ||
    input.notify_email !== undefined ||
    input.notify_sms !== undefined ||
    input.notify_voice !== undefined ||
    input.emails_attributes !== undefined ||
    input.phones_attributes !== undefined
  );
}
