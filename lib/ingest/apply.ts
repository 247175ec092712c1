// Applies one accepted webhook request to alerts: maintenance windows first, then the payload's event (create,
// update, acknowledge, resolve) through the alert service. Every change is written in ONE transaction with the
// request's "apply" notes on its log, so a message delivered twice changes alerts once
// (docs/ingest.md, "Exactly-once effects" walks through every crash point).
import { isConditionFailure } from '../db/conditions.ts';
import { findEntity, type EntityItem } from '../db/repository.ts';
import { isDomainError } from '../errors.ts';
import { acknowledgeAlertFrom, resolveAlertFrom } from '../alerts/actions.ts';
import { changeAlertFields, countDuplicate } from '../alerts/change.ts';
import { createAlertFrom, type AlertSource, type StoredCreate } from '../alerts/create.ts';
import { activeAlertOfThirdparty, newestAlertOfThirdparty } from '../alerts/store.ts';
import type { AlertItem } from '../alerts/items.ts';
import { findAlert } from '../alerts/store.ts';
import type { IntegrationData } from '../integrations/schema.ts';
import { activeMaintenanceWindow } from '../maintenance/service.ts';
import type { IngestMessage } from '../queue/ingest.ts';
import { readGenericWebhook } from './readers/webhook.ts';
import type { ReadFields } from './readers/types.ts';
import { alertIdOfRequest, generatedThirdpartyId } from './request-ids.ts';
import { findSourceLogItem, logIdsOf, logNotesWrite, recordLogNotes, type LogNote } from './source-log.ts';
import { trimmedLogWrites } from './trimmed.ts';

/** The worker's step whose notes mark a request as applied (one per request, written with the change). */
export const APPLY_STEP = 'apply';

/** Decisions that lost a race (the alert changed between read and write) are taken again, this many times in all. */
const DECIDE_ATTEMPTS = 5;

/**
 * What applying a request did, for the worker's event line (lib/activity/events.ts, `webhook.applied`): what it became,
 * the note its log got saying so, the alert it made or changed, and the integration as read.
 */
export interface ApplyOutcome {
  result: 'created' | 'deduplicated' | 'updated' | 'acknowledged' | 'resolved' | 'ignored' | 'already-applied';
  note?: LogNote;
  alert?: AlertItem;
  integration?: EntityItem<IntegrationData>;
}

interface Request {
  message: IngestMessage;
  logRef: { accountId: string; logId: string };
  integration: EntityItem<IntegrationData>;
  /** This delivery recorded the log: no earlier delivery got as far as changing an alert. */
  fresh: boolean;
}

const alertName = (alert: Pick<AlertItem, 'prefixId'>) => alert.prefixId;

/** Whether the request's log already carries its apply notes (an earlier delivery applied it). */
async function alreadyApplied(logRef: Request['logRef']): Promise<boolean> {
  const log = await findSourceLogItem(logRef.accountId, logRef.logId);
  return log?.noteSteps?.has(APPLY_STEP) ?? false;
}

/** Notes for a request that changes nothing; written alone, once. */
async function ignore(logRef: Request['logRef'], notes: readonly LogNote[]): Promise<ApplyOutcome> {
  // Notes already there: another delivery of the request, racing this one, ignored it first.
  if (!(await recordLogNotes(logRef, APPLY_STEP, notes))) return { result: 'already-applied' };
  return { result: 'ignored', note: notes.at(-1) };
}

/**
 * Applies the request whose log was just recorded. `fresh` says the log was new (no earlier delivery got as far),
 * so the check for earlier apply notes can be skipped.
 */
export async function applyWebhookRequest(message: IngestMessage, fresh: boolean): Promise<ApplyOutcome> {
  const logRef = { accountId: message.accountId, logId: logIdsOf(message).id };
  if (!fresh && (await alreadyApplied(logRef))) return { result: 'already-applied' };
  // Both reads at once. The window is judged at the request's acceptance, so a redelivery or a backlog decides as the
  // first try would.
  const [integration, window] = await Promise.all([
    findEntity<IntegrationData>('INTEGRATION', message.accountId, message.integrationId),
    activeMaintenanceWindow(message.accountId, message.integrationId, Date.parse(message.receivedAt)),
  ]);
  if (!integration) return ignore(logRef, [{ message: 'Ignored: the integration was deleted before the request was applied; no alert changed' }]);
  if (window) {
    const silenced = {
      message: `Ignored: maintenance window "${window.data.name}" (${window.prefixId}) silences this integration from ${window.data.start_datetime} to ${window.data.end_datetime}; no alert changed`,
      maintenance_window_id: window.id,
    };
    return { ...(await ignore(logRef, [silenced])), integration };
  }

  const read = readGenericWebhook(message.body, {
    wrapperKey: integration.data.options.wrapper_key,
    captureAdditionalData: integration.data.options.capture_additional_data,
    defaultUrgency: integration.data.urgency,
    generateId: () => generatedThirdpartyId(message.requestId),
  });
  const [reading] = read.events;
  const readNotes: LogNote[] = [...read.notes, ...(reading?.notes ?? [])].map((note) => ({ message: note }));
  if (!reading) return { ...(await ignore(logRef, [...readNotes, { message: `Ignored: ${read.ignoredReason}` }])), integration };

  let request: Request = { message, logRef, integration, fresh };
  for (let attempt = 1; ; attempt++) {
    try {
      if (reading.event === 'create') return { ...(await create(request, reading.thirdpartyId, reading.fields, readNotes)), integration };
      if (reading.event === 'update') return { ...(await update(request, reading.thirdpartyId, reading.fields, readNotes)), integration };
      return { ...(await act(request, reading.event, reading.thirdpartyId, readNotes)), integration };
    } catch (error) {
      // A condition failure is a lost race or an earlier delivery that got there first: look again.
      if (!isLostRace(error) || attempt >= DECIDE_ATTEMPTS) throw error;
      if (await alreadyApplied(logRef)) return { result: 'already-applied' };
      // The failed attempt may have got as far as its alert: the next one looks for it.
      request = { ...request, fresh: false };
    }
  }
}

const isLostRace = (error: unknown) => isConditionFailure(error) || isDomainError(error, 'conflict');

const fromText = (request: Request) => `integration ${request.integration.prefixId} (request ${logIdsOf(request.message).prefixId})`;

/**
 * create: the alert this request made on an earlier delivery (its id comes from the request); else the
 * integration's active alert with the Id counts a duplicate; else a new alert to the integration's destinations.
 */
async function create(request: Request, thirdpartyId: string, fields: ReadFields, readNotes: LogNote[]): Promise<ApplyOutcome> {
  const { message, logRef, integration } = request;
  const alertId = alertIdOfRequest(message.requestId, Date.parse(message.receivedAt));
  // Only a redelivery (or a retry after a lost race) can find its alert made; a fresh request's create is the first.
  const made = request.fresh ? undefined : await findAlert(message.accountId, alertId);
  if (made) return createdNotes(logRef, made, readNotes);

  const active = await activeAlertOfThirdparty(message.accountId, integration.id, thirdpartyId);
  if (active) {
    const notes = [...readNotes, { message: `Deduplicated into alert ${alertName(active)} (still ${active.data.status}): dedup_count ${active.data.dedup_count + 1}, nobody paged`, alert_id: active.id }];
    await countDuplicate(active, fromText(request), [logNotesWrite(logRef, APPLY_STEP, notes)]);
    return { result: 'deduplicated', note: notes.at(-1), alert: active };
  }

  const source: AlertSource = { source_type: 'Integration', source_id: integration.id, source_log_id: logRef.logId, thirdparty_id: thirdpartyId };
  const { alert, outcome } = await createAlertFrom(
    message.accountId,
    source,
    {
      title: fields.title!,
      description: fields.description ?? null,
      urgency: fields.urgency ?? integration.data.urgency,
      tags: fields.tag_list,
      meta: fields.meta,
      dedup_keys: fields.dedup_keys,
      additional_data: fields.additional_data,
      destination_team_ids: integration.data.team_ids,
      destination_router_ids: integration.data.router_ids,
      destination_account_user_ids: integration.data.account_user_ids,
    },
    // The notes go in the create's own transaction: the alert (or the dedup count) and the mark land together.
    // What the reader trimmed to fit is noted in the new alert's own log too, in the same transaction.
    {
      alertId,
      absentChecked: true,
      markStored: (stored) => [logNotesWrite(logRef, APPLY_STEP, [...readNotes, storedNote(stored)]), ...(stored.outcome === 'created' ? trimmedLogWrites(stored.alert, readNotes) : [])],
    },
  );
  // Stored by an earlier delivery: its notes came with it (or, for an alert stored before notes rode along, now).
  if (outcome === 'existing') return createdNotes(logRef, alert, readNotes);
  return { result: outcome, note: storedNote({ alert, outcome }), alert };
}

/** The note of a create: the alert made (or the router's aggregation of it), or the alert a dedup key folded it into. */
function storedNote(stored: StoredCreate): LogNote {
  const { alert } = stored;
  if (stored.outcome === 'deduplicated') {
    return { message: `Deduplicated into alert ${alertName(alert)} by a dedup key (still ${alert.data.status}): dedup_count ${alert.data.dedup_count + 1}, nobody paged`, alert_id: alert.id };
  }
  const message = alert.data.parent_id
    ? `Created alert ${alertName(alert)}, aggregated into alert ${alert.data.parent_id} by a router`
    : `Created alert ${alertName(alert)} (${alert.data.status})`;
  return { message, alert_id: alert.id };
}

async function createdNotes(logRef: Request['logRef'], alert: AlertItem, readNotes: LogNote[]): Promise<ApplyOutcome> {
  const note = storedNote({ alert, outcome: 'created' });
  // Notes already there: the delivery that stored the alert wrote them with it, and told of it.
  if (!(await recordLogNotes(logRef, APPLY_STEP, [...readNotes, note]))) return { result: 'already-applied' };
  return { result: 'created', note, alert };
}

const unknownId = (event: string, thirdpartyId: string): LogNote => ({
  message: `Ignored: no alert of this integration has Id "${thirdpartyId}", so there is nothing to ${event}`,
});

/** update: the integration's newest alert with the Id gets the fields the payload carries; the rest stay. */
async function update(request: Request, thirdpartyId: string, fields: ReadFields, readNotes: LogNote[]): Promise<ApplyOutcome> {
  const { message, logRef, integration } = request;
  const newest = await newestAlertOfThirdparty(message.accountId, integration.id, thirdpartyId);
  if (!newest) return ignore(logRef, [...readNotes, unknownId('update', thirdpartyId)]);
  const input = {
    ...(fields.title !== undefined ? { title: fields.title } : {}),
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    ...(fields.urgency !== undefined ? { urgency: fields.urgency } : {}),
    ...(fields.tag_list !== undefined ? { tag_list: fields.tag_list } : {}),
    ...(fields.meta !== undefined ? { meta: fields.meta } : {}),
    ...(fields.dedup_keys !== undefined ? { dedup_keys: fields.dedup_keys } : {}),
  };
  const present = Object.keys(input);
  if (present.length === 0) return ignore(logRef, [...readNotes, { message: `Ignored: the update names no field to change on alert ${alertName(newest)}`, alert_id: newest.id }]);
  // The notes are built before the write, so they name the fields sent; a field sent with its current value is not a change.
  const notes = [...readNotes, { message: `Updated alert ${alertName(newest)}: ${present.join(', ')}`, alert_id: newest.id }];
  const marks = [logNotesWrite(logRef, APPLY_STEP, notes), ...trimmedLogWrites(newest, readNotes)];
  const { changed } = await changeAlertFields(message.accountId, newest.id, input, { by: fromText(request) }, marks);
  if (changed.length === 0) {
    return { ...(await ignore(logRef, [...readNotes, { message: `Ignored: alert ${alertName(newest)} already has the values sent (${present.join(', ')})`, alert_id: newest.id }])), alert: newest };
  }
  return { result: 'updated', note: notes.at(-1), alert: newest };
}

/** acknowledge / resolve: the integration's newest alert with the Id, by the API's transitions. */
async function act(request: Request, event: 'acknowledge' | 'resolve', thirdpartyId: string, readNotes: LogNote[]): Promise<ApplyOutcome> {
  const { message, logRef, integration } = request;
  const newest = await newestAlertOfThirdparty(message.accountId, integration.id, thirdpartyId);
  if (!newest) return ignore(logRef, [...readNotes, unknownId(event, thirdpartyId)]);
  const done = event === 'acknowledge' ? 'Acknowledged' : 'Resolved';
  const notes = [...readNotes, { message: `${done} alert ${alertName(newest)}`, alert_id: newest.id }];
  const source = { source_type: 'Integration' as const, source_id: integration.id };
  const marker = [logNotesWrite(logRef, APPLY_STEP, notes)];
  try {
    if (event === 'acknowledge') await acknowledgeAlertFrom(message.accountId, newest.id, source, marker);
    else await resolveAlertFrom(message.accountId, newest.id, source, marker);
    return { result: event === 'acknowledge' ? 'acknowledged' : 'resolved', note: notes.at(-1), alert: newest };
  } catch (error) {
    // Deleted meanwhile: as unknown as an Id never seen.
    if (isDomainError(error, 'not_found')) return ignore(logRef, [...readNotes, unknownId(event, thirdpartyId)]);
    if (!isDomainError(error, 'invalid')) throw error;
    // A transition the alert's status does not allow (resolve a resolved alert): never an error the monitor sees.
    return { ...(await ignore(logRef, [...readNotes, { message: `Ignored: alert ${alertName(newest)} was not ${done.toLowerCase()}: ${error.message}`, alert_id: newest.id }])), alert: newest };
  }
}
