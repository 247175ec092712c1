// Unknown top-level fields of a request body: still accepted (clients send extra fields), but named in a `Warning`
// header of the answer, so a misspelled parameter (`admin_ids`) does not pass unnoticed. Validation notes which fields
// the schema takes; the handler factory compares once the route answered. Rules: docs/api.md, "Unknown fields".
import type { z } from 'zod';
import { MAX_WARNED_FIELDS, WARNED_FIELD_NAME_LENGTH } from '../limits.ts';

/** The fields each validated body's schemas take (a body may be read by several); `any` when one takes every key. */
const takenFields = new WeakMap<object, Set<string> | 'any'>();

type Def = { type: string; shape?: Record<string, unknown>; catchall?: unknown; in?: z.ZodType; out?: z.ZodType; innerType?: z.ZodType; options?: z.ZodType[]; left?: z.ZodType; right?: z.ZodType };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/**
 * The top-level keys an object schema takes, through wrappers (optional, preprocess, transform, refinements,
 * unions, intersections); `any` for a record or a catch-all object, none for a schema that is not an object.
 */
export function fieldsOfSchema(schema: z.ZodType): ReadonlySet<string> | 'any' {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return def.catchall !== undefined ? 'any' : new Set(Object.keys(def.shape ?? {}));
    case 'record':
      return 'any';
    case 'pipe': {
      // z.preprocess pipes a transform into the object; .transform() pipes the object into a transform.
      const input = fieldsOfSchema(def.in!);
      return input === 'any' || input.size > 0 ? input : fieldsOfSchema(def.out!);
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return fieldsOfSchema(def.innerType!);
    case 'union':
      return unionOf((def.options ?? []).map(fieldsOfSchema));
    case 'intersection':
      return unionOf([fieldsOfSchema(def.left!), fieldsOfSchema(def.right!)]);
    default:
      return new Set();
  }
}

function unionOf(sets: readonly (ReadonlySet<string> | 'any')[]): ReadonlySet<string> | 'any' {
  if (sets.includes('any')) return 'any';
  return new Set(sets.flatMap((set) => [...(set as ReadonlySet<string>)]));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Notes that `schema` reads `body` (and, for old names a service maps itself, the `aliases`): the fields it takes are
 * known. validate() calls this for every body it checks; a service parsing a body its own way calls it directly.
 */
export function noteFieldsRead(body: unknown, schema: z.ZodType, aliases: readonly string[] = []): void {
  if (!isPlainObject(body)) return;
  const fields = fieldsOfSchema(schema);
  const known = takenFields.get(body);
  if (known === 'any') return;
  if (fields === 'any') {
    takenFields.set(body, 'any');
    return;
  }
  const set = known ?? new Set<string>();
  for (const field of [...fields, ...aliases]) set.add(field);
  takenFields.set(body, set);
}

/**
 * The body's top-level fields that no schema reading it takes and that the answered object does not show either (a
 * client sending back an object it read, with `id` and `status`, sends fields the object has: those are read-only,
 * not unknown). None for a body no schema read.
 */
export function unknownFields(body: Record<string, unknown>, answered: unknown): string[] {
  const known = takenFields.get(body);
  if (known === undefined || known === 'any') return [];
  const shown = isPlainObject(answered) ? answered : {};
  return Object.keys(body).filter((field) => !known.has(field) && !Object.hasOwn(shown, field));
}

/**
 * A field name as a header's quoted text can carry it: printable ASCII as is (`"` and `\` escaped), everything else
 * (and `%`) percent-encoded as UTF-8; longer than WARNED_FIELD_NAME_LENGTH characters, cut with `...`.
 */
export function quotedFieldName(name: string): string {
  const characters = [...name];
  const kept = characters.length > WARNED_FIELD_NAME_LENGTH ? [...characters.slice(0, WARNED_FIELD_NAME_LENGTH), '...'] : characters;
  return kept
    .map((c) => {
      if (c === '"' || c === '\\') return `\\${c}`;
      const code = c.codePointAt(0)!;
      if (code >= 0x20 && code <= 0x7e && c !== '%') return c;
      return [...Buffer.from(c, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    })
    .join('');
}

/**
 * The `Warning` header value naming unknown fields (RFC 7234: code 299, agent `-`, one quoted text per field, joined by
 * commas), at most MAX_WARNED_FIELDS of them and then one `and N more unknown fields`; undefined when there are none.
 */
export function unknownFieldsWarning(fields: readonly string[]): string | undefined {
  if (fields.length === 0) return undefined;
  const texts = fields.slice(0, MAX_WARNED_FIELDS).map((field) => `unknown field ${quotedFieldName(field)}`);
  const more = fields.length - MAX_WARNED_FIELDS;
  if (more > 0) texts.push(`and ${more} more unknown field${more === 1 ? '' : 's'}`);
  return texts.map((text) => `299 - "${text}"`).join(', ');
}

/** A route's answer, as the handler factory renders it. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A success answer with its `Warning` about the body's unknown fields added; any other answer as it was. */
export function withUnknownFieldsWarning(response: Answer, body: Record<string, unknown>): Answer {
  if (response.status < 200 || response.status > 299) return response;
  const warning = unknownFieldsWarning(unknownFields(body, response.body));
  return warning === undefined ? response : { ...response, headers: { ...response.headers, warning } };
}
