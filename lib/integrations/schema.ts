import { z } from 'zod';
import { booleanFlag, idList, metaSchema, requiredText, wordOf } from '../api-shapes/schemas.ts';
import { INTEGRATION_READERS, readerOf } from '../monitor-readers/index.ts';
import { wrapperKeyProblem } from '../monitor-readers/wrapper-key.ts';
import { URGENCIES, type Urgency } from '../rule-engine/index.ts';
import { MAX_DESTINATIONS, MAX_WRAPPER_KEY_LENGTH } from '../limits.ts';
import { SENDER_KEY_OPTIONS } from './sender-key.ts';

// Re-exported for the integrations service, which imports its limits from here.
export { MAX_DESTINATIONS };

export { URGENCIES, type Urgency };

/** An integration type as the API shows it: the reader's id, name and description, and its docs section. */
export interface IntegrationType {
  id: string;
  name: string;
  description: string;
}

/** Every type Hark serves, from the reader list (lib/monitor-readers/index.ts), in its order. */
export const INTEGRATION_TYPES: Readonly<Record<string, IntegrationType>> = Object.fromEntries(
  INTEGRATION_READERS.map((reader) => [reader.id, { id: reader.id, name: reader.name, description: reader.description }]),
);
export type IntegrationTypeId = string;

/** The options every type takes; any other key of `options` is the type's own, checked by its reader's schema. */
export const COMMON_OPTIONS = ['token', 'capture_additional_data', 'wrapper_key'] as const;

/**
 * Type options that are secrets (a signing key such as Sentry's client_secret): write-only, shown as `has_<name>`
 * and never logged. Hark keeps them as sent because it must compute the sender's signature with them.
 */
export const isSecretOption = (name: string): boolean => /secret|password|token/i.test(name);

/**
 * Webhook tokens are stored only as a SHA-256 hash, which is safe for long random secrets only, and they travel
 * in an HTTP header, so they are 16 to 256 visible ASCII characters without spaces.
 */
export const TOKEN_PATTERN = /^[\x21-\x7E]{16,256}$/;
export const TOKEN_RULE = 'must be 16 to 256 visible ASCII characters without spaces';

const urgency = wordOf(URGENCIES);
const typeName = z.string({ error: 'must be a string' });
/** null or "" removes the token; absent keeps it. */
const token = z
  .string({ error: 'must be a string' })
  .nullable()
  .refine((value) => value === null || value === '' || TOKEN_PATTERN.test(value), TOKEN_RULE);
// Syntax and the limits of docs/limits.md (wrapperKeyProblem); the length is zod's, so OpenAPI shows it.
const wrapperKey = z
  .string({ error: 'must be a string' })
  .max(MAX_WRAPPER_KEY_LENGTH, `is longer than ${MAX_WRAPPER_KEY_LENGTH.toLocaleString('en-US')} characters`)
  .nullable()
  .superRefine((value, ctx) => {
    if (value === null || value.trim() === '' || value.length > MAX_WRAPPER_KEY_LENGTH) return;
    const problem = wrapperKeyProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const destinationIds = idList.max(MAX_DESTINATIONS, `must hold at most ${MAX_DESTINATIONS} ids`);

// The type's own options pass through here and are checked against the type's reader (typeOptionsChange).
export const integrationOptions = z
  .object(
    {
      token: token.optional(),
      capture_additional_data: booleanFlag.optional(),
      wrapper_key: wrapperKey.optional(),
    },
    { error: 'must be an object' },
  )
  .catchall(z.unknown());

export const integrationCreate = z.object({
  name: requiredText(),
  enabled: booleanFlag.optional(),
  urgency: urgency.optional(),
  integration_type_id: typeName.optional(),
  type: typeName.optional(),
  options: integrationOptions.optional(),
  // The reference's flat form of the options (docs/integrations.md, "Parameters").
  option_token: token.optional(),
  option_capture_additional_data: booleanFlag.optional(),
  option_wrapper_key: wrapperKey.optional(),
  account_user_ids: destinationIds.optional(),
  router_ids: destinationIds.optional(),
  team_ids: destinationIds.optional(),
  meta: metaSchema,
});
export const integrationUpdate = integrationCreate.partial();

export type IntegrationCreateInput = z.output<typeof integrationCreate>;
export type IntegrationUpdateInput = z.output<typeof integrationUpdate>;

/** Stored options: the token only as its hash, then the type's own options (alert_per, client_secret, …) as validated. */
export interface StoredOptions {
  token_hash: string | null;
  capture_additional_data: boolean;
  wrapper_key: string | null;
  [typeOption: string]: unknown;
}

/** Stored fields of an INTEGRATION. */
export interface IntegrationData {
  name: string;
  enabled: boolean;
  urgency: Urgency;
  integration_type: IntegrationType;
  options: StoredOptions;
  account_user_ids: string[];
  router_ids: string[];
  team_ids: string[];
}

/** What a request asks to change in the options: undefined = keep, null = remove (token, wrapper key). */
export interface OptionsChange {
  token?: string | null;
  capture_additional_data?: boolean;
  wrapper_key?: string | null;
}

type OptionKey = keyof OptionsChange;
const FLAT_NAMES: Record<OptionKey, 'option_token' | 'option_capture_additional_data' | 'option_wrapper_key'> = {
  token: 'option_token',
  capture_additional_data: 'option_capture_additional_data',
  wrapper_key: 'option_wrapper_key',
};

/**
 * Merges `options: {...}` and the flat `option_*` parameters. Giving the same option both ways is refused
 * unless both say the same, so a client never wonders which one won. Blank token and wrapper key mean none.
 */
export function optionsChangeOf(input: IntegrationUpdateInput): { change: OptionsChange; problems: string[] } {
  const change: OptionsChange = {};
  const problems: string[] = [];
  for (const key of Object.keys(FLAT_NAMES) as OptionKey[]) {
    const nested = input.options?.[key];
    const flat = input[FLAT_NAMES[key]];
    if (nested !== undefined && flat !== undefined && nested !== flat) {
      problems.push(`${FLAT_NAMES[key]} and options.${key} disagree; give one of them`);
      continue;
    }
    const value = nested !== undefined ? nested : flat;
    if (value === undefined) continue;
    if (key === 'capture_additional_data') change.capture_additional_data = value as boolean;
    else {
      const text = value as string | null;
      change[key] = text === null || text.trim() === '' ? null : key === 'wrapper_key' ? text.trim() : text;
    }
  }
  return { change, problems };
}

/** The integration type a request names (`integration_type_id` or `type`); undefined when it names none. */
export function integrationTypeOf(input: IntegrationUpdateInput): { type?: IntegrationType; problems: string[] } {
  const given: [string, string][] = [];
  if (input.integration_type_id !== undefined) given.push(['integration_type_id', input.integration_type_id]);
  if (input.type !== undefined) given.push(['type', input.type]);
  const problems: string[] = [];
  let type: IntegrationType | undefined;
  for (const [field, value] of given) {
    const id = value.trim().toLowerCase();
    const found = Object.hasOwn(INTEGRATION_TYPES, id) ? INTEGRATION_TYPES[id] : undefined;
    if (!found) problems.push(`${field} must be one of ${Object.keys(INTEGRATION_TYPES).join(', ')}; got "${value}"`);
    else if (type && type.id !== found.id) problems.push(`integration_type_id and type disagree; give one of them`);
    else type = found;
  }
  return type ? { type, problems } : { problems };
}

/** The type options stored in `options` (every key but the common ones, the token's hash and a sender key, which Hark makes). */
export function typeOptionsOf(options: StoredOptions | undefined): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(options ?? {})) {
    if (!(COMMON_OPTIONS as readonly string[]).includes(key) && key !== 'token_hash' && !SENDER_KEY_OPTIONS.has(key)) out.set(key, value);
  }
  return Object.fromEntries(out);
}

/**
 * The type's options after a request: the keys of `options` other than the common ones change one by one (null
 * removes one, so it takes its default), the others stay; the result must fit the type's reader schema, with no key it
 * does not know (422 naming `options.<key>`).
 */
export function typeOptionsChange(
  typeId: string,
  given: Record<string, unknown> | undefined,
  current: Record<string, unknown>,
  currentSenderKey?: string,
): { options: Record<string, unknown>; problems: string[] } {
  const reader = readerOf(typeId);
  const next = new Map(Object.entries(current));
  const refused: string[] = [];
  for (const [key, value] of Object.entries(given ?? {})) {
    if ((COMMON_OPTIONS as readonly string[]).includes(key)) continue;
    if (reader?.senderKey?.option === key) {
      // Sending back the key as read (a GET's object PUT back whole) changes nothing and is fine.
      if (value !== currentSenderKey) refused.push(`options.${key} is made by Hark and cannot be set; POST /api/v4/integrations/{id}/rotate_key makes a new one`);
      continue;
    }
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const wanted = Object.fromEntries(next);
  if (!reader) return { options: wanted, problems: refused };
  const schema = reader.options instanceof z.ZodObject ? reader.options.strict() : reader.options;
  const parsed = schema.safeParse(wanted);
  if (parsed.success) return { options: parsed.data as Record<string, unknown>, problems: refused };
  const problems = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => `options.${key} is not an option of ${typeId} (its options: ${[...COMMON_OPTIONS, ...optionNames(typeId)].join(', ')})`)
      : [`options.${issue.path.join('.')} ${issue.message}`],
  );
  return { options: wanted, problems: [...refused, ...problems] };
}

/** The names of a type's own options, from its reader's schema. */
export function optionNames(typeId: string): string[] {
  const schema = readerOf(typeId)?.options;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** A type as GET /integration_types shows it: its id, name, description, docs section and the options it takes. */
export function renderIntegrationType(typeId: string): Record<string, unknown> | undefined {
  const reader = readerOf(typeId);
  if (!reader) return undefined;
  const schema = z.toJSONSchema(reader.options, { unrepresentable: 'any' }) as { properties?: Record<string, Record<string, unknown>> };
  const own = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    ...property,
    ...(isSecretOption(name) ? { write_only: true } : {}),
  }));
  return { id: reader.id, name: reader.name, description: reader.description, docs: reader.docs, options: own, common_options: [...COMMON_OPTIONS] };
}
