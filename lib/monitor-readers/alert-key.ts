// The alert Id a webhook payload names and its keys' case rule (docs/ingest.md, "Reading a payload"): read by the
// generic webhook's reader and by the intake, which needs the Id for the message group (lib/ingest/webhook.ts).
import { thirdpartyIdOf } from '../api-shapes/thirdparty-id.ts';

/**
 * Top-level keys lower-cased (`Id` = `id`, `Title` = `title`); nested keys are left as sent. When two keys
 * differ only by case (`Id` and `id`), the one written last in the payload wins, as in a JSON object.
 */
export function lowerCaseKeys(fields: Record<string, unknown>): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(fields)) out.set(key.toLowerCase(), value);
  // fromEntries defines own keys, so a "__proto__" key sent by a monitor stays a plain field.
  return Object.fromEntries(out);
}

/**
 * The caller's alert Id (it becomes the alert's thirdparty_id): a non-blank string (trimmed) or a finite
 * number (as its decimal text). Undefined when the payload names none; the worker then makes one up.
 */
export const alertKeyOf = (fields: Record<string, unknown>): string | undefined => thirdpartyIdOf(fields.id);
