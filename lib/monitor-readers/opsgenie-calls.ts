// Opsgenie's Alert API v2 calls as Hark takes them: which call a request is (from its method and path), and the checks
// Opsgenie makes before it answers 202, so a refused request is answered at intake with Opsgenie's 422 and never
// queued (docs/migrating.md, "From Opsgenie"). Pure.
import { isJsonObject } from './wrapper-key.ts';

/** The alert calls Hark serves, by the name Opsgenie's request record gives each (`action`). */
export const OPSGENIE_ACTIONS = {
  create: 'Create',
  close: 'Close',
  acknowledge: 'Acknowledge',
  unacknowledge: 'UnAcknowledge',
  notes: 'AddNote',
  message: 'UpdateMessage',
  description: 'UpdateDescription',
  'tags-add': 'AddTags',
  'tags-remove': 'RemoveTags',
} as const;
export type OpsgenieCallKind = keyof typeof OPSGENIE_ACTIONS;

export type IdentifierType = 'id' | 'alias' | 'tiny';

export type OpsgenieCall =
  | { kind: 'create' }
  | { kind: Exclude<OpsgenieCallKind, 'create'>; identifier: string; identifierType: IdentifierType }
  | { kind: 'ping'; name: string };

/** Opsgenie's limits, from its Alert API's field table. */
export const OPSGENIE_LIMITS = {
  message: 130,
  alias: 512,
  description: 15_000,
  tags: 20,
  actions: 10,
  entity: 512,
  source: 100,
  user: 100,
  note: 25_000,
} as const;

const PRIORITIES = new Set(['P1', 'P2', 'P3', 'P4', 'P5']);
const RESPONDER_TYPES = new Set(['team', 'user', 'escalation', 'schedule']);

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The segments after `/v2/` (the routes are at the root and under `/integration/{id}`); undefined without one. */
function v2Segments(path: string): string[] | undefined {
  const at = path.indexOf('/v2/');
  return at < 0 ? undefined : path.slice(at + 4).split('/').map(decode);
}

/** The call a request makes, or undefined for a path Hark does not serve. `identifierType` is Opsgenie's, default id. */
export function opsgenieCallOf(method: string, path: string, query: Record<string, string>): OpsgenieCall | undefined {
  const segments = v2Segments(path);
  if (!segments) return undefined;
  const [collection, first, second, third] = segments;
  if (collection === 'heartbeats' && second === 'ping' && segments.length === 3 && first) return { kind: 'ping', name: first };
  if (collection !== 'alerts') return undefined;
  if (segments.length === 1) return method === 'POST' ? { kind: 'create' } : undefined;
  if (segments.length !== 3 || !first || third !== undefined) return undefined;
  const identifierType = (query.identifierType ?? 'id') as IdentifierType;
  const kind = actionOf(method, second!);
  return kind ? { kind, identifier: first, identifierType } : undefined;
}

function actionOf(method: string, name: string): Exclude<OpsgenieCallKind, 'create'> | undefined {
  if (method === 'POST' && (name === 'close' || name === 'acknowledge' || name === 'unacknowledge' || name === 'notes')) return name;
  if (method === 'PUT' && (name === 'message' || name === 'description')) return name;
  if (name === 'tags') return method === 'POST' ? 'tags-add' : method === 'DELETE' ? 'tags-remove' : undefined;
  return undefined;
}

/** Field → Opsgenie's message for it; empty when the request may be queued. */
export type CallErrors = Record<string, string>;

const isText = (value: unknown): value is string => typeof value === 'string';

function optionalText(body: Record<string, unknown>, field: string, max: number, errors: CallErrors): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (!isText(value)) errors[field] = `${field} must be a string.`;
  else if (value.length > max) errors[field] = `${field} can not be longer than ${max} characters.`;
}

function requiredText(body: Record<string, unknown>, field: string, max: number, errors: CallErrors, label = field): void {
  const value = body[field];
  if (!isText(value) || value.trim() === '') errors[field] = `${label[0]!.toUpperCase()}${label.slice(1)} can not be empty.`;
  else if (value.length > max) errors[field] = `${label[0]!.toUpperCase()}${label.slice(1)} can not be longer than ${max} characters.`;
}

function stringList(body: Record<string, unknown>, field: string, max: number, errors: CallErrors, required = false): void {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) errors[field] = `${field} can not be empty.`;
    return;
  }
  if (!Array.isArray(value) || value.some((item) => !isText(item))) errors[field] = `${field} must be a list of strings.`;
  else if (required && value.length === 0) errors[field] = `${field} can not be empty.`;
  else if (value.length > max) errors[field] = `${field} can not have more than ${max} items.`;
}

function responderErrors(value: unknown, errors: CallErrors): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    errors.responders = 'responders must be a list.';
    return;
  }
  value.forEach((responder, index) => {
    if (!isJsonObject(responder) || !isText(responder.type) || !RESPONDER_TYPES.has(responder.type)) {
      errors[`responders[${index}].type`] = 'Responder type must be one of team, user, escalation, schedule.';
    } else if (![responder.id, responder.name, responder.username].some((v) => isText(v) && v.trim() !== '')) {
      errors[`responders[${index}]`] = 'Responder must have an id, a name or a username.';
    }
  });
}

/** Opsgenie's checks of a create's body (its field table); the rest is read by the worker. */
function createErrors(body: Record<string, unknown>, errors: CallErrors): void {
  requiredText(body, 'message', OPSGENIE_LIMITS.message, errors);
  optionalText(body, 'alias', OPSGENIE_LIMITS.alias, errors);
  optionalText(body, 'description', OPSGENIE_LIMITS.description, errors);
  optionalText(body, 'entity', OPSGENIE_LIMITS.entity, errors);
  optionalText(body, 'source', OPSGENIE_LIMITS.source, errors);
  optionalText(body, 'user', OPSGENIE_LIMITS.user, errors);
  optionalText(body, 'note', OPSGENIE_LIMITS.note, errors);
  stringList(body, 'tags', OPSGENIE_LIMITS.tags, errors);
  stringList(body, 'actions', OPSGENIE_LIMITS.actions, errors);
  responderErrors(body.responders, errors);
  if (body.details !== undefined && body.details !== null && !isJsonObject(body.details)) errors.details = 'details must be an object.';
  if (body.priority !== undefined && body.priority !== null && !(isText(body.priority) && PRIORITIES.has(body.priority))) {
    errors.priority = 'Priority should be one of these: \'P1\', \'P2\', \'P3\', \'P4\', \'P5\'';
  }
}

/** What Opsgenie refuses before answering 202: an empty object when the call may be queued. */
export function callErrors(call: OpsgenieCall, body: unknown, query: Record<string, string>): CallErrors {
  const errors: CallErrors = {};
  if (call.kind === 'ping') return errors;
  const fields = isJsonObject(body) ? body : {};
  if (call.kind === 'create') {
    createErrors(fields, errors);
    return errors;
  }
  if (!['id', 'alias', 'tiny'].includes(call.identifierType)) errors.identifierType = 'identifierType must be one of id, alias, tiny.';
  else if (call.identifierType === 'tiny' && !/^\d{1,15}$/.test(call.identifier)) errors.identifier = 'A tiny id is a number.';
  else if (call.identifier.length > OPSGENIE_LIMITS.alias) errors.identifier = `identifier can not be longer than ${OPSGENIE_LIMITS.alias} characters.`;
  optionalText(fields, 'user', OPSGENIE_LIMITS.user, errors);
  optionalText(fields, 'source', OPSGENIE_LIMITS.source, errors);
  if (call.kind === 'notes') requiredText(fields, 'note', OPSGENIE_LIMITS.note, errors);
  else optionalText(fields, 'note', OPSGENIE_LIMITS.note, errors);
  if (call.kind === 'message') requiredText(fields, 'message', OPSGENIE_LIMITS.message, errors);
  if (call.kind === 'description') {
    if (!isText(fields.description)) errors.description = 'Description can not be empty.';
    else optionalText(fields, 'description', OPSGENIE_LIMITS.description, errors);
  }
  if (call.kind === 'tags-add') stringList(fields, 'tags', OPSGENIE_LIMITS.tags, errors, true);
  if (call.kind === 'tags-remove' && splitTags(query.tags).length === 0) errors.tags = 'tags can not be empty.';
  return errors;
}

/** DELETE …/tags names its tags in the query, comma-separated (`?tags=a,b`). */
export const splitTags = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
