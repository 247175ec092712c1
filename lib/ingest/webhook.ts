// The inbound webhook's reading rules (docs/ingest.md, "Reading a payload"), as pure functions shared by the webhook Lambda
// (which only needs the alert Id, for the FIFO message group, and never runs a wrapper key) and the worker (which reads
// every field, lib/monitor-readers/webhook.ts).
import { thirdpartyIdOf } from '../api-shapes/thirdparty-id.ts';
import { bodyDepthProblem } from '../storable.ts';
import { redactCredentials } from './redact.ts';
import { isJsonObject, plainPathFields } from '../monitor-readers/wrapper-key.ts';

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
 * The fields the webhook reads the alert Id from, for the message group, top-level keys lower-cased: the payload,
 * or the object at the wrapper key when that is a plain path (`data.attributes`). Any other wrapper key is never
 * evaluated here, only by the worker within its budget: undefined, and the request joins the group without an Id.
 */
export function webhookFields(payload: Record<string, unknown>, wrapperKey: string | null | undefined): Record<string, unknown> | undefined {
  if (!wrapperKey || wrapperKey.trim() === '') return lowerCaseKeys(payload);
  const fields = plainPathFields(payload, wrapperKey.trim());
  return fields && lowerCaseKeys(fields);
}


/**
 * The caller's alert Id (it becomes the alert's thirdparty_id): a non-blank string (trimmed) or a finite
 * number (as its decimal text). Undefined when the payload names none; the worker then makes one up.
 */
export const alertKeyOf = (fields: Record<string, unknown>): string | undefined => thirdpartyIdOf(fields.id);

/** The request headers kept with the source log: names lower-cased, credentials' values redacted (redact.ts). */
export function loggableHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) out.set(name.toLowerCase(), value);
  return redactCredentials(Object.fromEntries(out));
}

/** A header by name, case-insensitively (API Gateway lower-cases them; other callers may not). */
export function headerValue(headers: Record<string, string | undefined> | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

export type PayloadReading = { ok: true; payload: Record<string, unknown> } | { ok: false; message: string };

/** A webhook body must be one JSON object (docs/ingest.md, "Reading a payload"); anything else is refused with 400. */
export function readPayload(text: string): PayloadReading {
  if (text.trim() === '') return { ok: false, message: 'Request body must be a JSON object; it was empty' };
  // Measured before parsing: queuing the request serialises it, which a body nested thousands deep would overflow.
  const tooDeep = bodyDepthProblem(text);
  if (tooDeep) return { ok: false, message: tooDeep };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: 'Malformed JSON in request body' };
  }
  if (!isJsonObject(parsed)) return { ok: false, message: 'Request body must be a JSON object' };
  return { ok: true, payload: parsed };
}
