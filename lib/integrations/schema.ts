import { z } from 'zod';
import { booleanFlag, idList, metaSchema, requiredText, wordOf } from '../http/schemas.ts';
import { wrapperKeyProblem } from '../ingest/wrapper-key.ts';
import { URGENCIES, type Urgency } from '../rule-engine/index.ts';
import { MAX_DESTINATIONS, MAX_WRAPPER_KEY_LENGTH } from '../limits.ts';

// Re-exported for the integrations service, which imports its limits from here.
export { MAX_DESTINATIONS };

export { URGENCIES, type Urgency };

/** The integration types Hark serves; the generic JSON webhook is the only one. */
export const INTEGRATION_TYPES = {
  webhook: { id: 'webhook', name: 'webhook', description: 'Generic JSON webhook: POST /integration/<prefix_id>' },
} as const;
export type IntegrationTypeId = keyof typeof INTEGRATION_TYPES;
export type IntegrationType = (typeof INTEGRATION_TYPES)[IntegrationTypeId];


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

export const integrationOptions = z.object(
  {
    token: token.optional(),
    capture_additional_data: booleanFlag.optional(),
    wrapper_key: wrapperKey.optional(),
  },
  { error: 'must be an object' },
);

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

/** Stored options: the token only as its hash. */
export interface StoredOptions {
  token_hash: string | null;
  capture_additional_data: boolean;
  wrapper_key: string | null;
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
    const found = Object.hasOwn(INTEGRATION_TYPES, value.trim().toLowerCase())
      ? INTEGRATION_TYPES[value.trim().toLowerCase() as IntegrationTypeId]
      : undefined;
    if (!found) problems.push(`${field} must be one of ${Object.keys(INTEGRATION_TYPES).join(', ')}; got "${value}"`);
    else type = found;
  }
  return type ? { type, problems } : { problems };
}
