// Field schemas shared by resource schemas, so every resource words its errors the same way.
import { z } from 'zod';
import { couldBeId } from '../ids.ts';
import { MAX_META_BYTES, MAX_META_DEPTH, MAX_PATH_ID_LENGTH, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { freeFormProblems } from '../storable.ts';

export const requiredText = (max = NAME_LENGTH) => z.string({ error: 'must be a string' }).trim().min(1, "can't be blank").max(max, `is longer than ${max} characters`);
export const optionalText = (max = TEXT_LENGTH) => z.string({ error: 'must be a string' }).max(max, `is longer than ${max} characters`).nullable().optional();
/**
 * `meta` of every object: any JSON object Hark can store (lib/storable.ts): nested at most MAX_META_DEPTH levels, at
 * most MAX_META_BYTES as JSON, no empty keys, numbers DynamoDB holds exactly. 422 naming where it breaks a rule.
 */
export const metaSchema = z
  .record(z.string(), z.unknown(), { error: 'must be an object' })
  .superRefine((meta, ctx) => {
    for (const { path, message } of freeFormProblems(meta, { maxDepth: MAX_META_DEPTH, maxBytes: MAX_META_BYTES })) ctx.addIssue({ code: 'custom', path, message });
  })
  .optional();
/** What an id named in a body can be (docs/architecture.md, "Ids in bodies"): checked before any storage call. */
export const NOT_AN_ID = `is not an id (ids and prefix ids are 1 to ${MAX_PATH_ID_LENGTH} letters, digits and _)`;
/** One id in a body: trimmed, not blank, and of an id's shape. */
export const idSchema = z.string({ error: 'must be a string' }).trim().min(1, { error: "can't be blank", abort: true }).refine(couldBeId, NOT_AN_ID);
/** An id that may be cleared: null or "" means none. */
export const clearableId = z
  .string({ error: 'must be a string' })
  .trim()
  .nullable()
  .transform((value) => (value === '' ? null : value))
  .refine((value) => value === null || couldBeId(value), NOT_AN_ID);
export const idList = z.array(z.string({ error: 'must be a list of ids' }).refine(couldBeId, NOT_AN_ID), { error: 'must be a list of ids' });
export const booleanFlag = z.boolean({ error: 'must be true or false' });
/**
 * A fixed set of lower-case words, matched without regard to case or surrounding spaces (`High` → `high`):
 * clients and monitors capitalise them, and the stored value is always the canonical lower-case word.
 */
export const wordOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(values, { error: `must be one of ${values.join(', ')}` }));
