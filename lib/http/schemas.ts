// Field schemas shared by resource schemas, so every resource words its errors the same way.
import { z } from 'zod';
import { NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';

export const requiredText = (max = NAME_LENGTH) => z.string({ error: 'must be a string' }).trim().min(1, "can't be blank").max(max, `is longer than ${max} characters`);
export const optionalText = (max = TEXT_LENGTH) => z.string({ error: 'must be a string' }).max(max, `is longer than ${max} characters`).nullable().optional();
export const metaSchema = z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional();
export const idList = z.array(z.string({ error: 'must be a list of ids' }), { error: 'must be a list of ids' });
export const booleanFlag = z.boolean({ error: 'must be true or false' });
/**
 * A fixed set of lower-case words, matched without regard to case or surrounding spaces (`High` → `high`):
 * clients and monitors capitalise them, and the stored value is always the canonical lower-case word.
 */
export const wordOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(values, { error: `must be one of ${values.join(', ')}` }));
