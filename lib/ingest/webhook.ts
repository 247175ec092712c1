// The inbound webhook's reading rules (docs/ingest.md, "Reading a payload"), as pure functions shared by the webhook Lambda
// (which only needs the alert Id, for the FIFO message group, and never runs a wrapper key) and the worker (which reads
// every field, lib/monitor-readers/webhook.ts).
import { bodyDepthProblem } from '../storable.ts';
import { redactCredentials } from './redact.ts';
import { isJsonObject, plainPathFields } from '../monitor-readers/wrapper-key.ts';
import { lowerCaseKeys } from '../monitor-readers/alert-key.ts';

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
