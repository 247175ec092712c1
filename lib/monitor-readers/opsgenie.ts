// Opsgenie's Alert API v2 (docs/migrating.md, "From Opsgenie"): a create keyed by its alias, and the calls that
// close, acknowledge, note, retitle, describe and tag an alert named by alias, id or tiny id. The intake has checked
// the call (./opsgenie-calls.ts) before answering 202; this reads the call into events. Pure.
import { z } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';
import { isJsonObject } from './wrapper-key.ts';
import { additionalDataOf, labelList } from './fields.ts';
import { alertKey, descriptionWithin, generatedKey, ignoredReading, mappedUrgency, record, records, text, titleWithin, urgencyOr } from './monitor-fields.ts';
import { OPSGENIE_ACTIONS, opsgenieCallOf, splitTags, type OpsgenieCall } from './opsgenie-calls.ts';
import type { AdditionalDatumReading, IntegrationReader, ReadEvent, ReaderOptions, ReaderRequest, Reading, ResponderReading } from './types.ts';

/** Opsgenie's priority → Hark's urgency. No priority: the integration's urgency (Opsgenie's own default is P3). */
export const OPSGENIE_PRIORITY: Readonly<Record<string, Urgency>> = { p1: 'critical', p2: 'high', p3: 'medium', p4: 'low', p5: 'low' };

export const opsgenieOptions = z
  .object({
    /** Lets this integration's key create, change and delete the account's heartbeat integrations (docs/migrating.md). */
    allow_heartbeat_admin: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict();

/** The create's fields the reader maps; `details` and the rest are kept as the alert's additional data. */
const DATA_FIELDS: readonly [field: string, label: string][] = [
  ['entity', 'Entity'],
  ['source', 'Source'],
  ['user', 'User'],
];

function responderOf(value: Record<string, unknown>): ResponderReading {
  const type = value.type as ResponderReading['type'];
  const id = text(value.id);
  const name = text(value.name) ?? text(value.username);
  return { type, ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}) };
}

function createData(body: Record<string, unknown>, notes: string[]): AdditionalDatumReading[] {
  const data: AdditionalDatumReading[] = [];
  for (const [field, label] of DATA_FIELDS) {
    const value = text(body[field]);
    if (value !== undefined) data.push({ format: 'text', label, value });
  }
  const actions = Array.isArray(body.actions) ? body.actions.filter((a): a is string => typeof a === 'string') : [];
  if (actions.length) {
    data.push({ format: 'text', label: 'Actions', value: actions.join(', ') });
    notes.push('Custom actions are kept as text: Hark has no custom alert actions');
  }
  // Details keep their keys; values of any JSON type become text (numbers and booleans as written, the rest as JSON).
  data.push(...additionalDataOf(record(body.details), new Set(), notes));
  return data;
}

function readCreate(body: Record<string, unknown>, options: ReaderOptions): Reading {
  const notes: string[] = [];
  const message = text(body.message);
  if (message === undefined) return ignoredReading('No message: an Opsgenie create needs one; no alert was created');
  const alias = text(body.alias);
  const key = alias !== undefined ? { thirdpartyId: alertKey(alias, notes), idGenerated: false } : generatedKey(options, 0, 'alias', notes);
  const priority = text(body.priority);
  const description = typeof body.description === 'string' ? descriptionWithin(body.description, notes) : null;
  const create: ReadEvent = {
    event: 'create',
    ...key,
    fields: {
      title: titleWithin(message, notes),
      description,
      urgency: urgencyOr(mappedUrgency(priority, OPSGENIE_PRIORITY), priority, 'priority', options, notes),
    },
    notes,
  };
  if (priority !== undefined) notes.push(`Priority ${priority} → urgency ${create.fields.urgency}`);
  if (body.tags !== undefined) create.fields.tag_list = labelList(body.tags, 'tags', notes);
  const responders = records(body.responders).map(responderOf);
  if (responders.length) create.fields.responders = responders;
  if (body.visibleTo !== undefined) notes.push('visibleTo is not read: every member of the account sees its alerts');
  const data = createData(body, notes);
  if (data.length) create.fields.additional_data = data;
  return { events: [create, ...noteEvent(body, key, 'create')], notes: [] };
}

/** A call's `note` (and who sent it) as a comment on the alert after the call's own event. */
function noteEvent(body: Record<string, unknown>, key: Pick<ReadEvent, 'thirdpartyId' | 'idGenerated' | 'alertRef'>, call: string): ReadEvent[] {
  const note = text(body.note);
  if (note === undefined) return [];
  const user = text(body.user);
  return [{ event: 'comment', ...key, fields: { comment: user ? `${user}: ${note}` : note }, notes: [`Note sent with the ${call}`] }];
}

/** The alert an action names: by alias its key; by id or tiny id the alert itself (ReadEvent.alertRef). */
function targetOf(call: Extract<OpsgenieCall, { identifier: string }>, notes: string[]): Pick<ReadEvent, 'thirdpartyId' | 'idGenerated' | 'alertRef'> {
  if (call.identifierType === 'alias') return { thirdpartyId: alertKey(call.identifier, notes), idGenerated: false };
  return { thirdpartyId: call.identifier, idGenerated: false, alertRef: { by: call.identifierType, value: call.identifier } };
}

function readAction(call: Extract<OpsgenieCall, { identifier: string }>, body: Record<string, unknown>, query: Record<string, string>): Reading {
  const notes: string[] = [`${OPSGENIE_ACTIONS[call.kind]} of the alert with ${call.identifierType} ${call.identifier}`];
  const user = text(body.user);
  if (user !== undefined) notes.push(`By ${user}`);
  if (call.kind === 'unacknowledge') {
    return ignoredReading('UnAcknowledge is not supported: in Hark an acknowledged alert leaves acknowledged only when it is resolved', notes);
  }
  const eventNotes: string[] = [];
  const target = targetOf(call, eventNotes);
  const event = (kind: ReadEvent['event'], fields: ReadEvent['fields'] = {}): ReadEvent => ({ event: kind, ...target, fields, notes: eventNotes });
  switch (call.kind) {
    case 'close':
      return { events: [event('resolve'), ...noteEvent(body, target, 'close')], notes };
    case 'acknowledge':
      return { events: [event('acknowledge'), ...noteEvent(body, target, 'acknowledge')], notes };
    case 'notes': {
      const note = text(body.note);
      if (note === undefined) return ignoredReading('No note: AddNote needs one', notes);
      return { events: [event('comment', { comment: user ? `${user}: ${note}` : note })], notes };
    }
    case 'message': {
      const message = text(body.message);
      if (message === undefined) return ignoredReading('No message: UpdateMessage needs one', notes);
      return { events: [event('update', { title: titleWithin(message, eventNotes) })], notes };
    }
    case 'description':
      return { events: [event('update', { description: typeof body.description === 'string' ? descriptionWithin(body.description, eventNotes) : null })], notes };
    case 'tags-add':
      return { events: [event('tag', { tag_list: labelList(body.tags, 'tags', eventNotes) })], notes };
    case 'tags-remove':
      return { events: [event('untag', { tag_list: labelList(splitTags(query.tags), 'tags', eventNotes) })], notes };
  }
}

export function readOpsgenie(request: ReaderRequest, options: ReaderOptions): Reading {
  const call = opsgenieCallOf(request.method, request.path ?? '', request.query);
  if (!call) return ignoredReading(`${request.method} ${request.path ?? '(no path)'} is no Opsgenie alert call Hark serves`);
  const body = isJsonObject(request.body) ? request.body : {};
  if (call.kind === 'ping') {
    // A ping the intake could not give to a heartbeat integration is kept here, so its sender's admin can see it.
    return ignoredReading(`The heartbeat ping for "${call.name}" pinged no heartbeat integration`);
  }
  if (call.kind === 'create') return readCreate(body, options);
  return readAction(call, body, request.query);
}

export const opsgenieReader: IntegrationReader = {
  id: 'opsgenie',
  name: 'Opsgenie',
  description:
    "Opsgenie's Alert API v2 and heartbeat pings: senders that page Opsgenie (Alertmanager's opsgenie_configs, Grafana's Opsgenie contact point, scripts) page Hark by changing the URL and the key",
  docs: 'docs/migrating.md#from-opsgenie',
  options: opsgenieOptions,
  // The GenieKey: generated, shown to admins, rotatable (docs/integrations.md, "Sender keys").
  senderKey: { option: 'api_key' },
  read: readOpsgenie,
};
