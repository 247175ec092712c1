// The inbound webhook's reading rules (docs/ingest.md, "Reading a payload"), as pure functions shared by the webhook Lambda
// (which only needs the alert Id, for the FIFO message group) and the worker (which reads every field).

/** One step of a wrapper key path: a key of the object reached so far. */
export type WrapperPath = readonly string[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * Parses a Wrapper Key. The reference reads it as a JMESPath expression; Hark supports the part of JMESPath
 * that names a nested key: identifiers joined by dots (`data`, `data.attributes`), where a key that is not a
 * plain identifier is written as a JSON string (`"alert-body".fields`). Returns undefined when the text is
 * not such a path (the API refuses it when the integration is saved, so the webhook never sees one).
 */
export function parseWrapperKey(text: string): WrapperPath | undefined {
  const path: string[] = [];
  let rest = text.trim();
  if (rest === '') return undefined;
  for (;;) {
    if (rest.startsWith('"')) {
      const end = closingQuote(rest);
      if (end < 0) return undefined;
      let key: unknown;
      try {
        key = JSON.parse(rest.slice(0, end + 1));
      } catch {
        return undefined;
      }
      if (typeof key !== 'string' || key === '') return undefined;
      path.push(key);
      rest = rest.slice(end + 1);
    } else {
      const m = IDENTIFIER.exec(rest);
      if (!m) return undefined;
      path.push(m[0]);
      rest = rest.slice(m[0].length);
    }
    if (rest === '') return path;
    if (!rest.startsWith('.')) return undefined;
    rest = rest.slice(1);
  }
}

/** Index of the quote closing the JSON string that starts at 0, skipping escaped characters; -1 if none. */
function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The object whose keys are the service's fields: the value at the wrapper key when it is an object,
 * otherwise (no wrapper key, path missing, value not an object) the whole payload, as the reference does.
 */
export function unwrapPayload(payload: Record<string, unknown>, wrapperKey: string | null | undefined): Record<string, unknown> {
  if (!wrapperKey) return payload;
  const path = parseWrapperKey(wrapperKey);
  if (!path) return payload;
  let value: unknown = payload;
  for (const key of path) {
    if (!isJsonObject(value) || !Object.hasOwn(value, key)) return payload;
    value = value[key];
  }
  return isJsonObject(value) ? value : payload;
}

/**
 * Top-level keys lower-cased (`Id` = `id`, `Title` = `title`); nested keys are left as sent. When two keys
 * differ only by case (`Id` and `id`), the one written last in the payload wins, as in a JSON object.
 */
export function lowerCaseKeys(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[key.toLowerCase()] = value;
  return out;
}

/** The service's fields of a payload: unwrapped by the integration's wrapper key, top-level keys lower-cased. */
export function webhookFields(payload: Record<string, unknown>, wrapperKey: string | null | undefined): Record<string, unknown> {
  return lowerCaseKeys(unwrapPayload(payload, wrapperKey));
}


/**
 * The caller's alert Id (it becomes the alert's thirdparty_id): a non-blank string (trimmed) or a finite
 * number (as its decimal text). Undefined when the payload names none; the worker then makes one up.
 */
export function alertKeyOf(fields: Record<string, unknown>): string | undefined {
  const id = fields.id;
  if (typeof id === 'string') {
    const trimmed = id.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

/** Headers that carry credentials: never stored in the source log (which admins can read). */
export const SECRET_HEADERS: ReadonlySet<string> = new Set(['service-token', 'authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

/** The request headers kept with the source log: names lower-cased, credentials left out. */
export function loggableHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (value !== undefined && !SECRET_HEADERS.has(lower)) out[lower] = value;
  }
  return out;
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: 'Malformed JSON in request body' };
  }
  if (!isJsonObject(parsed)) return { ok: false, message: 'Request body must be a JSON object' };
  return { ok: true, payload: parsed };
}
