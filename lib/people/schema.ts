// Request schemas of /users and /account_users, and the pure rules of roles. Field rules: docs/people.md.
import { z } from 'zod';
import type { Roles } from '../caller/caller.ts';
import { booleanFlag, idList, idSchema, metaSchema, requiredText, wordOf } from '../api-shapes/schemas.ts';
import { isTimeZone } from '../time/zones.ts';
import { EMAIL_LENGTH, LANGUAGE_TAG_LENGTH, MAX_EMAILS, MAX_PHONES, MAX_TEAMS_PER_REQUEST, PHONE_TEXT_LENGTH } from '../limits.ts';

// How a phone number is confirmed; kept here (not in the user store) so schema readers need no storage code.
export const CONFIRMATION_METHODS = ['sms', 'voice'] as const;
export type ConfirmationMethod = (typeof CONFIRMATION_METHODS)[number];

export const emailText = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .max(EMAIL_LENGTH, `is longer than ${EMAIL_LENGTH} characters`)
  .pipe(z.email({ error: 'is not a valid email address' }));

/** `_destroy` as Rails clients send it: true/false, 1/0, or those as text. */
const destroyFlag = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.enum(['1', '0', 'true', 'false'])], { error: 'must be true or false' })
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

export const emailAttribute = z.object(
  {
    id: idSchema.optional(),
    email: emailText.optional(),
    primary: booleanFlag.optional(),
    _destroy: destroyFlag.optional(),
  },
  { error: 'must be an object' },
);

export const phoneAttribute = z.object(
  {
    id: idSchema.optional(),
    phone: z.string({ error: 'must be a string' }).max(PHONE_TEXT_LENGTH, `is longer than ${PHONE_TEXT_LENGTH} characters`).optional(),
    confirmation_method: wordOf(CONFIRMATION_METHODS).nullable().optional(),
    primary: booleanFlag.optional(),
    _destroy: destroyFlag.optional(),
  },
  { error: 'must be an object' },
);

export type EmailAttribute = z.output<typeof emailAttribute>;
export type PhoneAttribute = z.output<typeof phoneAttribute>;

const timeZone = z
  .string({ error: 'must be a string' })
  .refine((value) => isTimeZone(value), 'must be one of the names GET /events/time_zones lists, or an IANA time zone id');

/** A BCP 47 language tag, stored in canonical case (`en-us` → `en-US`). */
const language = z
  .string({ error: 'must be a string' })
  .trim()
  .max(LANGUAGE_TAG_LENGTH, `is longer than ${LANGUAGE_TAG_LENGTH} characters`)
  .transform((value, ctx) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(value.replace(/_/g, '-'));
      if (canonical) return canonical;
    } catch {
      // reported below
    }
    ctx.issues.push({ code: 'custom', message: 'must be a language tag such as en or pt-BR', input: value });
    return z.NEVER;
  });

/** The person's own fields, as POST/PUT /users and `user_attributes` take them. */
const profileFields = {
  time_zone: timeZone.nullable().optional(),
  preferred_language: language.nullable().optional(),
  notify_push: booleanFlag.optional(),
  notify_email: booleanFlag.optional(),
  notify_sms: booleanFlag.optional(),
  notify_voice: booleanFlag.optional(),
  emails_attributes: z.array(emailAttribute, { error: 'must be a list of objects' }).max(MAX_EMAILS * 2, `must hold at most ${MAX_EMAILS * 2} elements`).optional(),
  phones_attributes: z.array(phoneAttribute, { error: 'must be a list of objects' }).max(MAX_PHONES * 2, `must hold at most ${MAX_PHONES * 2} elements`).optional(),
};

export const userCreate = z.object({ name: requiredText(), email: emailText, ...profileFields, meta: metaSchema });
export const userUpdate = z.object({ name: requiredText().optional(), email: emailText.optional(), ...profileFields, meta: metaSchema });
export type UserCreateInput = z.output<typeof userCreate>;
export type UserUpdateInput = z.output<typeof userUpdate>;
/** Profile input as the people service applies it (create and update share the rules). */
export type ProfileInput = UserUpdateInput;

const userAttributes = z.object(
  { id: idSchema.optional(), name: requiredText().optional(), email: emailText.optional(), ...profileFields },
  { error: 'must be an object' },
);
export type UserAttributesInput = z.output<typeof userAttributes>;

const teamIds = idList.max(MAX_TEAMS_PER_REQUEST, `must hold at most ${MAX_TEAMS_PER_REQUEST} ids`);

export const accountUserCreate = z.object({
  user_attributes: userAttributes,
  /** Parsed by parseRoles: an object of booleans or a list of role names. */
  roles: z.unknown().optional(),
  notification_rule_id: idSchema.nullable().optional(),
  member_team_ids: teamIds.optional(),
  team_ids: teamIds.optional(),
  meta: metaSchema,
});
export const accountUserUpdate = accountUserCreate.partial();
export type AccountUserCreateInput = z.output<typeof accountUserCreate>;
export type AccountUserUpdateInput = z.output<typeof accountUserUpdate>;

// ---------------------------------------------------------------------------------------------------------------
// Roles

export const ROLE_NAMES = ['admin', 'billing', 'broadcaster', 'communicator'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];
export const NO_ROLES: Roles = { admin: false, billing: false, broadcaster: false, communicator: false };

const isRoleName = (value: unknown): value is RoleName => typeof value === 'string' && (ROLE_NAMES as readonly string[]).includes(value);
const ROLE_LIST = ROLE_NAMES.join(', ');

/**
 * Reads `roles` as clients send it. An object changes the roles it names (the others keep their value, false for
 * a new account user); a list of role names sets exactly those roles. Problems name the field.
 */
export function parseRoles(value: unknown, current: Roles = NO_ROLES, field = 'roles'): { roles: Roles } | { problems: string[] } {
  const problems: string[] = [];
  if (Array.isArray(value)) {
    const roles: Roles = { ...NO_ROLES };
    value.forEach((name, i) => {
      if (isRoleName(name)) roles[name] = true;
      else problems.push(`${field}[${i}] ${JSON.stringify(name)} is not a role; roles are ${ROLE_LIST}`);
    });
    return problems.length ? { problems } : { roles };
  }
  if (value !== null && typeof value === 'object') {
    const roles: Roles = { ...current };
    for (const [name, flag] of Object.entries(value)) {
      if (!isRoleName(name)) problems.push(`${field}.${name} is not a role; roles are ${ROLE_LIST}`);
      else if (typeof flag !== 'boolean') problems.push(`${field}.${name} must be true or false`);
      else roles[name] = flag;
    }
    return problems.length ? { problems } : { roles };
  }
  return { problems: [`${field} must be an object of booleans (${ROLE_LIST}) or a list of role names`] };
}
