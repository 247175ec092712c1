// What the fuzz test's body phase sends (test/integration/fuzz.test.ts): every field of every route's body schema
// (read from the same zod schemas the handlers validate with), a body that is valid but for that one field, and the
// hostile values of the field's kind: ids that cannot be ids or name nothing, free-form values DynamoDB could not
// store, and deeply nested objects anywhere. docs/security.md, "Limits at the door".
import { z } from 'zod';
import { operationOf } from '#lib/http/openapi/operations.ts';
import type { Route } from '#lib/http/routes.ts';

/** A field's place in a body: keys, and 0 for the first element of a list. */
export type FieldPath = (string | 0)[];
export type FieldKind = 'id' | 'ids' | 'free' | 'other';
export interface Field {
  path: FieldPath;
  kind: FieldKind;
  /**
   * What the schema holds there: an object or a list of objects ignore keys they do not know (so `{level: …}` is a
   * valid empty value there, not a hostile one), anything else a value.
   */
  shape: 'object' | 'objects' | 'value';
}

/** Fields named like ids that are not ids of objects: a type name, and a sender's own identity of an alert. */
const NOT_ENTITY_IDS = new Set(['integration_type_id', 'thirdparty_id']);

function kindOf(name: string): FieldKind {
  if (name === 'meta') return 'free';
  if (NOT_ENTITY_IDS.has(name)) return 'other';
  if (name === 'id' || name.endsWith('_id')) return 'id';
  return name.endsWith('_ids') ? 'ids' : 'other';
}

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema; anyOf?: JsonSchema[] };

/** The object schema a property holds (itself, or the object branch of a nullable or a union). */
const objectOf = (schema: JsonSchema): JsonSchema | undefined => (schema.properties ? schema : schema.anyOf?.find((s) => s.properties));
const listOf = (schema: JsonSchema): JsonSchema | undefined => (schema.items ? schema : schema.anyOf?.find((s) => s.items));

function walk(schema: JsonSchema, at: FieldPath, out: Field[]): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = [...at, name];
    const object = objectOf(property);
    const items = listOf(property)?.items;
    const element = items ? objectOf(items) : undefined;
    out.push({ path, kind: kindOf(name), shape: object && name !== 'meta' ? 'object' : element ? 'objects' : 'value' });
    if (object && name !== 'meta') walk(object, path, out);
    if (element) walk(element, [...path, 0], out);
  }
}

/** Every field of the route's body schema, nested ones included; none when the route takes no body. */
export function fieldsOf(route: Route): Field[] {
  const body = operationOf(route).body;
  if (!body) return [];
  const fields: Field[] = [];
  walk(z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as JsonSchema, [], fields);
  return fields;
}

/** `{level:{level:…1}}` with `levels` objects. */
export const nested = (levels: number): Record<string, unknown> => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { level: value };
  return value as Record<string, unknown>;
};

/** Ids that cannot be ids, and well-formed ones that name no object: every one must be refused. */
const HOSTILE_BODY_IDS: unknown[] = [
  'x'.repeat(10_000),
  'x'.repeat(65),
  'a b',
  '../../etc/passwd',
  '%00',
  '\u0000',
  'é',
  '💩',
  'sch-1',
  'DROP TABLE hark;--',
  '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'tem_abcdefghijkl',
  '0',
  12345,
  true,
  {},
  ['x'],
  nested(40),
];

/** Free-form values DynamoDB could not store (or not as sent), and values that are not objects. */
const HOSTILE_FREE_FORM: unknown[] = [
  nested(17),
  nested(40),
  nested(120),
  { '': 1 },
  { a: { b: [{ '': 'x' }] } },
  { '\ud800': 'a key with a lone surrogate' },
  { a: 1e200 },
  { a: [5e-324] },
  { a: -1e308 },
  { a: 2 ** 60 },
  { a: 'x'.repeat(70_000) },
  { a: 'é'.repeat(40_000) },
  'text',
  [1, 2],
  5,
];

/** `[[[…1]]]` with `levels` lists: the wrong type for any object, however deep. */
const nestedList = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};
const HOSTILE_VALUE: unknown[] = [nested(40), nested(120), [nested(30)], JSON.parse(`{"__proto__":${JSON.stringify(nested(20))}}`), nestedList(40)];
const HOSTILE_OBJECT: unknown[] = [nestedList(40), nestedList(120), 'text', 5];
const HOSTILE_OBJECTS: unknown[] = [[nestedList(40)], [nestedList(120)], nestedList(40), nested(40)];

/** The hostile values of a field: a list of ids gets each hostile id inside the list and in its place. */
export function hostileValues(field: Field): unknown[] {
  if (field.kind === 'id') return HOSTILE_BODY_IDS;
  if (field.kind === 'ids') return [...HOSTILE_BODY_IDS.map((id) => [id]), ...HOSTILE_BODY_IDS.filter((id) => typeof id === 'string').slice(0, 4)];
  if (field.kind === 'free') return HOSTILE_FREE_FORM;
  return field.shape === 'object' ? HOSTILE_OBJECT : field.shape === 'objects' ? HOSTILE_OBJECTS : HOSTILE_VALUE;
}

/** `body` with `value` at `path`, creating the objects and first list elements on the way (merged into existing ones). */
export function withField(body: Record<string, unknown>, path: FieldPath, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let holder: Record<string | number, unknown> = copy;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      holder[key] = value;
      return;
    }
    const next = path[i + 1] === 0 ? [] : {};
    if (holder[key] === null || typeof holder[key] !== 'object') holder[key] = next;
    if (Array.isArray(holder[key]) && (holder[key] as unknown[]).length === 0) (holder[key] as unknown[]).push({});
    holder = holder[key] as Record<string | number, unknown>;
  });
  return copy;
}

/** The real objects a valid base body names. */
export interface BaseIds {
  adminAccountUserId: string;
  scheduleId: string;
  teamId: string;
  integrationId: string;
}

let emails = 0;
const start = '2031-03-02T09:00:00Z';
const end = '2031-03-02T10:00:00Z';

/**
 * A body each create or action route accepts (so only the hostile field can make it refused); updates take `{}`.
 * Routes not listed take `{}` too.
 */
export function baseBody(route: Route, ids: BaseIds): Record<string, unknown> {
  const email = () => `fuzz-${process.pid}-${++emails}@example.test`;
  const bases: Record<string, () => Record<string, unknown>> = {
    'POST /api/v4/users': () => ({ name: 'Fuzz', email: email() }),
    'POST /api/v4/account_users': () => ({ user_attributes: { name: 'Fuzz', emails_attributes: [{ email: email(), primary: true }] } }),
    'POST /api/v4/teams': () => ({ name: 'Fuzz' }),
    'POST /api/v4/schedules': () => ({ name: 'Fuzz' }),
    'POST /api/v4/events': () => ({ start_time: start, end_time: end, layer: 1, time_zone: 'UTC', schedule_ids: [ids.scheduleId], account_user_ids: [ids.adminAccountUserId] }),
    'POST /api/v4/events/{id}/override': () => ({ start_time: start, end_time: end, layer: 1, time_zone: 'UTC', account_user_ids: [ids.adminAccountUserId], action_time: start }),
    'POST /api/v4/events/{id}/add_exception': () => ({ action_time: start }),
    'POST /api/v4/events/{id}/terminate_on': () => ({ action_time: start }),
    'POST /api/v4/escalation_policies': () => ({ name: 'Fuzz' }),
    'POST /api/v4/routers': () => ({ name: 'Fuzz', default_receiver_team_id: ids.teamId }),
    'POST /api/v4/notification_rules': () => ({ name: 'Fuzz' }),
    'POST /api/v4/maintenance_windows': () => ({ name: 'Fuzz', start_datetime: start, end_datetime: end, time_zone: 'UTC', integration_ids: [ids.integrationId] }),
    'POST /api/v4/integrations': () => ({ name: 'Fuzz', account_user_ids: [ids.adminAccountUserId] }),
    'POST /api/v4/time_off': () => ({ start_time: start, end_time: end }),
    'POST /api/v4/alerts': () => ({ title: 'Fuzz', urgency: 'low', destination_team_ids: [ids.teamId] }),
    'POST /api/v4/broadcasts': () => ({ title: 'Fuzz', destination_account_user_ids: [ids.adminAccountUserId] }),
    'POST /api/v4/outgoing_webhooks': () => ({ name: 'Fuzz', url: 'http://127.0.0.1:9/fuzz', events: ['alert.created'] }),
  };
  return bases[`${route.method} ${route.path}`]?.() ?? {};
}
