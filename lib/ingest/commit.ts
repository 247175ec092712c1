// Carries out one event's decision (lib/ingest/decide.ts): the alert change through the alert service with the
// event's notes riding as extra writes of its transaction, or the notes alone when it changes nothing. The notes'
// writes mark the event's step on the request's log (or, on a first delivery, store the log with them: ./mark.ts) and
// apply once, so a redelivered request changes nothing twice (docs/ingest.md, "Exactly-once effects").
import { acknowledgeAlertFrom, resolveAlertFrom } from '../alerts/actions.ts';
import { changeAlertFields, countDuplicate } from '../alerts/change.ts';
import { integrationNoteWrites } from '../alerts/comments.ts';
import { createAlertFrom, type AlertSource } from '../alerts/create.ts';
import type { AlertItem } from '../alerts/items.ts';
import type { EntityItem } from '../db/repository.ts';
import { transact } from '../db/items.ts';
import { isDomainError } from '../errors.ts';
import { NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { cutText } from '../monitor-readers/fields.ts';
import type { IntegrationData } from '../integrations/schema.ts';
import { notAllowedNote, sameValuesNote, storedNote, unknownIdNote, type Decision } from './decide.ts';
import { logIdsOf } from './request-ids.ts';
import { LogAlreadyKept, markWrites, stopIfLogKept, writeNotesAlone, type MarkTarget } from './mark.ts';
import { logExisted, type LogNote } from './source-log.ts';
import { trimmedLogWrites } from './trimmed.ts';

/**
 * What applying one event did, for the worker's event line (lib/activity/events.ts, `webhook.applied`): what it became,
 * the note its log got saying so, the alert it made or changed, and the integration as read.
 */
export interface ApplyOutcome {
  result: 'created' | 'deduplicated' | 'updated' | 'acknowledged' | 'resolved' | 'commented' | 'ignored' | 'already-applied';
  note?: LogNote;
  alert?: AlertItem;
  integration?: EntityItem<IntegrationData>;
}

/** Where an event's notes go (./mark.ts), its integration as read, and the event's request-derived alert id. */
export interface EventTarget extends MarkTarget {
  integration: EntityItem<IntegrationData>;
  /** The id of the alert a create makes (lib/ingest/request-ids.ts). */
  alertId: string;
}

/** Notes for something that changes nothing; written alone, once. */
export async function commitIgnore(target: MarkTarget, notes: readonly LogNote[], alert?: AlertItem): Promise<ApplyOutcome> {
  // Notes already there: another delivery of the request, racing this one, wrote them first.
  if (!(await writeNotesAlone(target, notes))) return { result: 'already-applied' };
  return { result: 'ignored', note: notes.at(-1), ...(alert ? { alert } : {}) };
}

const fromText = (target: EventTarget) => `integration ${target.integration.prefixId} (request ${logIdsOf(target.message).prefixId})`;

/** Makes the decision's writes. A lost race (a condition failure) is thrown for the applier to decide again. */
export async function commitDecision(decision: Decision, target: EventTarget): Promise<ApplyOutcome> {
  const { logRef } = target;
  const notesWrites = (notes: readonly LogNote[]) => markWrites(target, notes);
  switch (decision.kind) {
    case 'ignore':
      return commitIgnore(target, decision.notes, decision.alert);
    case 'made':
      return commitMade(target, decision.alert, decision.notes);
    case 'dedup':
      await countDuplicate(decision.target, fromText(target), notesWrites(decision.notes));
      return { result: 'deduplicated', note: decision.notes.at(-1), alert: decision.target };
    case 'create':
      return commitCreate(decision, target);
    case 'update': {
      const { target: alert, input, fields, notes } = decision;
      const readNotes = notes.slice(0, -1);
      const { changed } = await changeAlertFields(logRef.accountId, alert.id, input, { by: fromText(target) }, [...notesWrites(notes), ...trimmedLogWrites(alert, readNotes)], alert);
      if (changed.length === 0) return commitIgnore(target, [...readNotes, sameValuesNote(alert, fields)], alert);
      return { result: 'updated', note: notes.at(-1), alert };
    }
    case 'act':
      return commitAct(decision, target);
    case 'comment':
      return commitComment(decision, target);
  }
}

/**
 * A note on the alert's timeline with the event's notes, in one transaction (the log's mark first, so a first delivery
 * finding its log kept is told apart). The alert gone meanwhile fails the check: the applier decides again.
 */
async function commitComment(decision: Extract<Decision, { kind: 'comment' }>, target: EventTarget): Promise<ApplyOutcome> {
  const { target: alert, body, notes } = decision;
  const by = cutText(`Integration ${target.integration.data.name} (${target.integration.prefixId})`, NAME_LENGTH);
  try {
    await transact([...markWrites(target, notes), ...integrationNoteWrites(target.logRef.accountId, alert.id, by, cutText(body, TEXT_LENGTH))]);
  } catch (error) {
    if (!target.logKept && logExisted(error)) throw new LogAlreadyKept();
    throw error;
  }
  return { result: 'commented', note: notes.at(-1), alert };
}

/** create: the alert with its notes (and, in the new alert's own log, what the reader trimmed) in one transaction. */
async function commitCreate(decision: Extract<Decision, { kind: 'create' }>, target: EventTarget): Promise<ApplyOutcome> {
  const { message, logRef, integration, alertId } = target;
  const readNotes = decision.notes;
  const source: AlertSource = { source_type: 'Integration', source_id: integration.id, source_log_id: logRef.logId, thirdparty_id: decision.thirdpartyId };
  const { alert, outcome } = await createAlertFrom(message.accountId, source, decision.input, {
    alertId,
    // The applier looked for it (or, on a fresh request, nothing could have stored it).
    absentChecked: true,
    afterLostRace: () => stopIfLogKept(target),
    markStored: (stored) => [
      ...markWrites(target, [...readNotes, storedNote(stored.alert, stored.outcome)]),
      ...(stored.outcome === 'created' ? trimmedLogWrites(stored.alert, readNotes) : []),
    ],
  });
  // Stored by an earlier delivery: its notes came with it (or, for an alert stored before notes rode along, now).
  if (outcome === 'existing') return commitMade(target, alert, readNotes);
  return { result: outcome, note: storedNote(alert, outcome), alert };
}

async function commitMade(target: EventTarget, alert: AlertItem, readNotes: readonly LogNote[]): Promise<ApplyOutcome> {
  const note = storedNote(alert, 'created');
  // Notes already there: the delivery that stored the alert wrote them with it, and told of it.
  if (!(await writeNotesAlone(target, [...readNotes, note]))) return { result: 'already-applied' };
  return { result: 'created', note, alert };
}

/** acknowledge / resolve by the API's transitions; a transition the status does not allow, or a deleted alert, is a note. */
async function commitAct(decision: Extract<Decision, { kind: 'act' }>, target: EventTarget): Promise<ApplyOutcome> {
  const { action, target: alert, notes } = decision;
  const { logRef, integration } = target;
  const readNotes = notes.slice(0, -1);
  const source = { source_type: 'Integration' as const, source_id: integration.id };
  const marker = markWrites(target, notes);
  try {
    // The alert as the decision read it serves the action's first attempt (its write is conditioned on the version).
    if (action === 'acknowledge') await acknowledgeAlertFrom(logRef.accountId, alert.id, source, marker, alert);
    else await resolveAlertFrom(logRef.accountId, alert.id, source, marker, alert);
    return { result: action === 'acknowledge' ? 'acknowledged' : 'resolved', note: notes.at(-1), alert };
  } catch (error) {
    // Deleted meanwhile: as unknown as an Id never seen.
    if (isDomainError(error, 'not_found')) return commitIgnore(target, [...readNotes, unknownIdNote(action, alert.data.thirdparty_id ?? '')]);
    if (!isDomainError(error, 'invalid')) throw error;
    return commitIgnore(target, [...readNotes, notAllowedNote(alert, action, error.message)], alert);
  }
}
