// What Hark answers in Opsgenie's words (docs/migrating.md, "From Opsgenie"): its 202 for a queued call, its error
// bodies, the heartbeat's PONG, an alert as Opsgenie's Alert API shows one, and a request's record. Pure.
import type { AlertItem } from '../../alerts/items.ts';
import { OPSGENIE_ACTIONS, opsgenieCallOf } from '../../monitor-readers/opsgenie-calls.ts';
import type { Urgency } from '../../rule-engine/index.ts';

/** An answer: its status and the JSON body (every Opsgenie body carries `took` in seconds and a `requestId`). */
export interface OpsgenieAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Opsgenie's errors: `{message, took, requestId}`, with `errors` by field for a 422. */
export class OpsgenieError extends Error {
  override name = 'OpsgenieError';
  readonly status: number;
  readonly errors: Record<string, string> | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, errors?: Record<string, string>, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

/** An unknown key, a key of another type, or none: Opsgenie's 401, the same whatever was wrong. */
export const notAuthenticated = () => new OpsgenieError(401, 'Could not authenticate');

/** 422 as Opsgenie gives it for a body it cannot process. */
export const unprocessable = (errors: Record<string, string>) => new OpsgenieError(422, 'Request body is not processable. Please check the errors.', errors);

export const answerOf = (status: number, body: Record<string, unknown>, took: number, requestId: string): OpsgenieAnswer => ({
  status,
  body: { ...body, took, requestId },
});

export function errorAnswer(error: OpsgenieError, took: number, requestId: string): OpsgenieAnswer {
  return { status: error.status, body: { message: error.message, ...(error.errors ? { errors: error.errors } : {}), took, requestId }, ...(Object.keys(error.headers).length ? { headers: error.headers } : {}) };
}

/** Hark's urgency as Opsgenie's priority (the inverse of the reader's map: low reads back as P4). */
export const PRIORITY_OF_URGENCY: Readonly<Record<Urgency, string>> = { critical: 'P1', high: 'P2', medium: 'P3', low: 'P4' };

/** The labels of additional data the reader made from a create's own fields, shown back as those fields. */
const FIELD_LABELS: Readonly<Record<string, string>> = { Source: 'source', Entity: 'entity', User: 'owner' };

/**
 * A Hark alert as Opsgenie's Get Alert shows one: `status` open or closed with `acknowledged` beside it, `count`
 * the creates counted, the alias its key, `count` the creates (the first and its duplicates). `full` adds the description and details (a list leaves them out, as
 * Opsgenie's does).
 */
export function opsgenieAlert(alert: AlertItem, full: boolean): Record<string, unknown> {
  const { data } = alert;
  const fields: Record<string, string> = {};
  const details: Record<string, string> = {};
  for (const datum of data.additional_data) {
    const field = FIELD_LABELS[datum.label];
    if (field !== undefined && datum.format === 'text') fields[field] = datum.value;
    else if (datum.label !== 'Actions') details[datum.label] = datum.value;
  }
  return {
    id: alert.id,
    tinyId: String(alert.tinyId),
    alias: data.thirdparty_id ?? alert.id,
    message: data.title,
    status: data.status === 'resolved' ? 'closed' : 'open',
    acknowledged: data.acknowledged_at !== null,
    isSeen: data.acknowledged_at !== null,
    tags: [...data.tag_list],
    snoozed: false,
    // Opsgenie counts the first create too; Hark counts the duplicates.
    count: data.dedup_count + 1,
    lastOccurredAt: alert.updatedAt,
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt,
    source: fields.source ?? '',
    owner: fields.owner ?? '',
    priority: PRIORITY_OF_URGENCY[data.urgency as Urgency] ?? 'P3',
    responders: [
      ...data.destination_team_ids.map((id) => ({ id, type: 'team' })),
      ...data.destination_account_user_ids.map((id) => ({ id, type: 'user' })),
    ],
    integration: { id: data.source_id, type: data.source_type === 'Integration' ? 'Hark integration' : 'Hark API' },
    entity: fields.entity ?? '',
    hark: { id: alert.id, prefix_id: alert.prefixId, status: data.status },
    ...(full ? { description: data.description ?? '', details } : {}),
  };
}

/** A stored request as its log keeps it: what the Opsgenie request record is made from. */
export interface RecordedRequest {
  integrationId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  notes: readonly { message: string; alert_id?: string; created_at: string }[];
}

/** What the applier's notes say a request did, in Opsgenie's status words; the first such note is the call's own. */
const OUTCOMES: readonly [pattern: RegExp, status: string][] = [
  [/^Created alert /, 'Created alert'],
  [/^Deduplicated into alert /, 'Alert deduplicated'],
  [/^Resolved alert /, 'Closed alert'],
  [/^Acknowledged alert /, 'Acknowledged alert'],
  [/^Noted on alert /, 'Added note'],
  [/^Tags added to alert /, 'Added tags'],
  [/^Tags removed from alert /, 'Removed tags'],
  [/^Updated alert /, 'Updated alert'],
  // An update to the values the alert has (Alertmanager's update_alerts repeats its message on every notification):
  // nothing to change, which is what the sender asked for.
  [/^Ignored: alert \S+ already has the values sent/, 'Alert already has the values sent'],
];

/**
 * Opsgenie's request record (`GET /v2/alerts/requests/{requestId}`) of a request Hark applied: the call's action, and
 * from the first note of the applier whether it succeeded, its status, and the alert with its alias.
 */
export function requestRecord(request: RecordedRequest, integrationPrefixId: string, alertsById: ReadonlyMap<string, AlertItem>): Record<string, unknown> {
  const call = opsgenieCallOf(request.method, request.path, request.query);
  const action = call && call.kind !== 'ping' ? OPSGENIE_ACTIONS[call.kind] : call?.kind === 'ping' ? 'Ping' : 'Unknown';
  const outcome = request.notes.find((note) => note.message.startsWith('Ignored: ') || OUTCOMES.some(([pattern]) => pattern.test(note.message)));
  const known = outcome && OUTCOMES.find(([pattern]) => pattern.test(outcome.message));
  const ignored = outcome !== undefined && !known;
  const status = !outcome ? 'Request is processed' : known ? known[1] : outcome.message.slice('Ignored: '.length);
  const alert = outcome?.alert_id ? alertsById.get(outcome.alert_id) : undefined;
  const success = outcome !== undefined && !ignored;
  return {
    success,
    action,
    processedAt: outcome?.created_at ?? request.notes.at(-1)?.created_at ?? null,
    integrationId: integrationPrefixId,
    isSuccess: success,
    status,
    alertId: alert?.id ?? '',
    alias: alert ? (alert.data.thirdparty_id ?? alert.id) : '',
  };
}
