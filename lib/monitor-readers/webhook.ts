// The generic webhook reader: how one JSON payload is read into one event and the alert fields it carries
// (docs/ingest.md, "Reading a payload"). Pure: the applier (lib/ingest/apply.ts) applies the reading.
import { z } from 'zod';
import { MAX_ALERT_KEY_LENGTH, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { URGENCIES } from '../rule-engine/index.ts';
import { alertKeyOf, lowerCaseKeys } from './alert-key.ts';
import { isJsonObject, unwrapPayload } from './wrapper-key.ts';
import { additionalDataOf, cutText, eventOf, labelList, metaOf, textOf, urgencyIn, WEBHOOK_EVENTS } from './fields.ts';
import type { IntegrationReader, ReadEvent, ReaderOptions, ReaderRequest, ReadFields, Reading } from './types.ts';

/** Top-level keys the reader reads itself; the others are the "additional data" (lower-cased). */
const READ_KEYS: ReadonlySet<string> = new Set(['id', 'title', 'description', 'urgency', 'tags', 'meta', 'event_type', 'dedup_keys']);

function titleOf(value: unknown, notes: string[]): string | undefined {
  const text = textOf(value)?.trim();
  if (text === undefined || text === '') {
    if (value !== undefined && value !== null) notes.push('Title is blank or not text; ignored it');
    return undefined;
  }
  if (text.length > NAME_LENGTH) notes.push(`Title cut to ${NAME_LENGTH} characters`);
  return cutText(text, NAME_LENGTH);
}

function descriptionOf(value: unknown, notes: string[]): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const text = textOf(value);
  if (text === undefined) {
    notes.push('Description is not text; ignored it');
    return undefined;
  }
  if (text.trim() === '') return null;
  if (text.length > TEXT_LENGTH) notes.push(`Description cut to ${TEXT_LENGTH} characters`);
  return cutText(text, TEXT_LENGTH);
}

/** A value as a note quotes it: short, whatever the payload sent. */
export function describe(value: unknown): string {
  return typeof value === 'string' ? `"${cutText(value, 64)}"` : cutText(JSON.stringify(value) ?? String(value), 64);
}

/** Reads one webhook payload by the generic reader's rules (docs/ingest.md, "Reading a payload"): one event, or none and why. */
export function readGenericWebhook(payload: unknown, options: Omit<ReaderOptions, 'options'>): Reading {
  const notes: string[] = [];
  const ignored = (reason: string): Reading => ({ events: [], ignoredReason: reason, notes });
  const one = (event: ReadEvent): Reading => ({ events: [event], notes: [] });
  if (!isJsonObject(payload)) return ignored('The payload is not a JSON object');
  const unwrapped = unwrapPayload(payload, options.wrapperKey);
  if (unwrapped.overBudget !== undefined) return ignored(`${unwrapped.overBudget}; the payload was not read`);
  if (unwrapped.note) notes.push(unwrapped.note);
  const fields = lowerCaseKeys(unwrapped.fields);

  const event = eventOf(fields.event_type);
  if (!event) {
    return ignored(
      fields.event_type === undefined
        ? `No event_type; expected one of ${WEBHOOK_EVENTS.join(', ')}`
        : `event_type ${describe(fields.event_type)} is not one of ${WEBHOOK_EVENTS.join(', ')}`,
    );
  }

  const id = alertKeyOf(fields);
  if (id !== undefined && id.length > MAX_ALERT_KEY_LENGTH) return ignored(`Id is longer than ${MAX_ALERT_KEY_LENGTH} characters`);
  if (id === undefined && fields.id !== undefined && fields.id !== null) notes.push(`Id ${describe(fields.id)} is not a non-blank string or number; ignored it`);
  if (id === undefined && event !== 'create') return ignored(`No Id: ${event} names the alert by its Id`);
  // Acknowledge and resolve only name the alert: whatever else the monitor sends (Uptime Kuma and LibreNMS send a
  // title with them) changes nothing.
  if (id !== undefined && (event === 'acknowledge' || event === 'resolve')) return one({ event, thirdpartyId: id, idGenerated: false, fields: {}, notes });

  const read: ReadFields = {};
  const title = titleOf(fields.title, notes);
  if (title !== undefined) read.title = title;
  else if (event === 'create') return ignored('No Title: a create needs a non-blank Title; no alert was created');

  const description = descriptionOf(fields.description, notes);
  if (description !== undefined) read.description = description;

  const urgency = urgencyIn(fields.urgency);
  if (urgency) read.urgency = urgency;
  else {
    if (fields.urgency !== undefined && fields.urgency !== null) {
      notes.push(`Urgency ${describe(fields.urgency)} names none of ${URGENCIES.join(', ')}${event === 'create' ? `; used the integration's ${options.defaultUrgency}` : '; left unchanged'}`);
    }
    if (event === 'create') read.urgency = options.defaultUrgency;
  }

  if (fields.tags !== undefined) read.tag_list = labelList(fields.tags, 'Tags', notes);
  const meta = metaOf(fields.meta, notes);
  if (meta) read.meta = meta;
  if (fields.dedup_keys !== undefined) read.dedup_keys = labelList(fields.dedup_keys, 'dedup_keys', notes);
  if (event === 'create' && options.captureAdditionalData) read.additional_data = additionalDataOf(unwrapped.fields, READ_KEYS, notes);

  if (id !== undefined) return one({ event, thirdpartyId: id, idGenerated: false, fields: read, notes });
  const generated = options.generateId(0);
  notes.push(`No Id; generated ${generated}`);
  return one({ event, thirdpartyId: generated, idGenerated: true, fields: read, notes });
}

/** The generic JSON webhook: `POST /integration/<prefix_id>` with Hark's own fields. */
export const webhookReader: IntegrationReader = {
  id: 'webhook',
  name: 'webhook',
  description: 'Generic JSON webhook: POST /integration/<prefix_id>',
  docs: 'docs/ingest.md#the-generic-webhook',
  options: z.object({}),
  read: (request: ReaderRequest, options: ReaderOptions): Reading => readGenericWebhook(request.body, options),
};
