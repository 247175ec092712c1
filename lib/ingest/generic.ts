// The generic webhook adapter: how one payload is read into an event and the alert fields it carries
// (docs/ingest.md, "Reading a payload"). Pure: the worker applies the reading; nothing here touches storage.
import { randomUUID } from 'node:crypto';
import { MAX_ADDITIONAL_DATA_BYTES, MAX_ALERT_KEY_LENGTH, MAX_DESTINATIONS, MAX_META_BYTES, MAX_META_DEPTH, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { INCIDENT_SEVERITIES, URGENCIES, type Urgency } from '../rule-engine/index.ts';
import { jsonBytes, namesOf, storableCopy } from '../storable.ts';
import { alertKeyOf, lowerCaseKeys } from './webhook.ts';
import { isJsonObject, unwrapPayload } from './wrapper-key.ts';

export const WEBHOOK_EVENTS = ['create', 'update', 'acknowledge', 'resolve'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface AdditionalDatumReading {
  format: 'text';
  label: string;
  value: string;
}

/** The alert fields a payload carries, in the alert API's names. Absent = the payload did not set it. */
export interface ReadFields {
  title?: string;
  description?: string | null;
  urgency?: Urgency;
  tag_list?: string[];
  meta?: Record<string, unknown>;
  dedup_keys?: string[];
  additional_data?: AdditionalDatumReading[];
}

export type GenericReading =
  | {
      event: WebhookEvent;
      /** The alert's thirdparty_id: the payload's Id, or a generated one for a create without it. */
      thirdpartyId: string;
      idGenerated: boolean;
      fields: ReadFields;
      /** What the reader changed or left out, in words for the request's log (those about a storage limit marked, isTrimmedNote). */
      notes: string[];
    }
  | { event: 'ignored'; reason: string; notes: string[] };

export interface GenericReadOptions {
  /** The integration's wrapper key (a JMESPath expression), or null. */
  wrapperKey: string | null;
  /** The integration's capture_additional_data option. */
  captureAdditionalData: boolean;
  /** The integration's urgency: a create whose payload names none gets it. */
  defaultUrgency: Urgency;
  /**
   * Makes the Id of a create that sends none. The worker derives it from the request id, so a redelivered
   * request reads the same Id; defaults to a random UUID.
   */
  generateId?: () => string;
}

/** Top-level keys the adapter reads itself; the others are the "additional data" (lower-cased). */
const READ_KEYS: ReadonlySet<string> = new Set(['id', 'title', 'description', 'urgency', 'tags', 'meta', 'event_type', 'dedup_keys']);
const INCIDENT_KEYS = ['incident', 'incident_severity', 'incident_message'] as const;
const URGENCY_WORD = new RegExp(`(${URGENCIES.join('|')})`);

/** At most `max` UTF-16 units, never splitting a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** A string or a finite number as text; undefined for anything else. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** event_type trimmed and case-insensitive; undefined when it is none of the four. */
export function eventOf(value: unknown): WebhookEvent | undefined {
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return (WEBHOOK_EVENTS as readonly string[]).includes(word) ? (word as WebhookEvent) : undefined;
}

/** The first urgency word found in the lower-cased text (`"HIGH!"` → high); undefined when there is none. */
export function urgencyIn(value: unknown): Urgency | undefined {
  const text = textOf(value);
  if (text === undefined) return undefined;
  const match = URGENCY_WORD.exec(text.toLowerCase());
  return match ? (match[1] as Urgency) : undefined;
}

/**
 * A list of labels (tags, dedup keys): one string counts as a list of one; numbers and booleans become text;
 * blanks, nulls and nested values are dropped; each is trimmed; repeats are dropped, first order kept.
 */
export function labelList(value: unknown, field: string, notes: string[]): string[] {
  const items = Array.isArray(value) ? value : [value];
  const out = new Set<string>();
  let dropped = 0;
  for (const item of items) {
    if (item === null || item === undefined) continue;
    const text = typeof item === 'string' ? item : typeof item === 'number' || typeof item === 'boolean' ? String(item) : undefined;
    if (text === undefined || text.trim().length > NAME_LENGTH) {
      dropped++;
      continue;
    }
    if (text.trim() !== '') out.add(text.trim());
  }
  if (dropped > 0) notes.push(`${field}: dropped ${dropped} value(s) that are not text of at most ${NAME_LENGTH} characters`);
  const list = [...out];
  if (list.length > MAX_DESTINATIONS) {
    notes.push(`${field}: kept the first ${MAX_DESTINATIONS} of ${list.length}`);
    return list.slice(0, MAX_DESTINATIONS);
  }
  return list;
}

/**
 * Meta: `incident` is true unless false or null, the severity is upper-cased (one of SEV-1..SEV-5, SEV-UNKNOWN;
 * anything else, or none on an incident, becomes SEV-UNKNOWN), the message is text; other keys are kept as sent.
 */
export function metaOf(value: unknown, notes: string[]): Record<string, unknown> | undefined {
  if (!isJsonObject(value)) {
    if (value !== null && value !== undefined) notes.push('Meta is not an object; ignored it');
    return undefined;
  }
  const meta: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!(INCIDENT_KEYS as readonly string[]).includes(key)) meta[key] = item;
  if (Object.hasOwn(value, 'incident')) meta.incident = value.incident !== false && value.incident !== null;
  const severityText = textOf(value.incident_severity);
  if (severityText !== undefined) {
    const severity = severityText.trim().toUpperCase();
    if ((INCIDENT_SEVERITIES as readonly string[]).includes(severity)) meta.incident_severity = severity;
    else {
      meta.incident_severity = 'SEV-UNKNOWN';
      notes.push(`Meta.incident_severity "${severityText}" is not one of ${INCIDENT_SEVERITIES.join(', ')}; used SEV-UNKNOWN`);
    }
  } else if (meta.incident === true) {
    meta.incident_severity = 'SEV-UNKNOWN';
    notes.push('Meta.incident is set without an incident_severity; used SEV-UNKNOWN');
  }
  if (Object.hasOwn(value, 'incident_message')) {
    const message = value.incident_message;
    const text = textOf(message);
    if (text !== undefined) meta.incident_message = cutText(text, TEXT_LENGTH);
    else if (message === null) meta.incident_message = null;
    else notes.push('Meta.incident_message is not text; ignored it');
  }
  return storable(meta, notes);
}

/**
 * Meta as Hark can store it (lib/storable.ts): deeper values as JSON text, numbers beyond what DynamoDB holds as text,
 * no empty keys, and its first keys within MAX_META_BYTES. What changed is noted, marked so the alert's log says it too.
 */
function storable(meta: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const copy = storableCopy(meta, 'Meta', { maxDepth: MAX_META_DEPTH, maxBytes: MAX_META_BYTES });
  notes.push(...copy.notes.map(trimmedNote));
  return copy.value;
}

/** Notes about a storage limit start with this mark, so the worker also writes them into the alert's log. */
const TRIMMED = 'Trimmed to fit: ';
const trimmedNote = (note: string) => `${TRIMMED}${note}`;
export const isTrimmedNote = (note: string) => note.startsWith(TRIMMED);

/** Each top-level key the adapter does not read, as `{format: "text", label: key as sent, value}`. */
export function additionalDataOf(fields: Record<string, unknown>, notes: string[]): AdditionalDatumReading[] {
  const data: AdditionalDatumReading[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (READ_KEYS.has(key.toLowerCase()) || key.trim() === '') continue;
    const text = typeof value === 'string' ? value : value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    data.push({ format: 'text', label: cutText(key.trim(), NAME_LENGTH), value: cutText(text, TEXT_LENGTH) });
  }
  if (data.length > MAX_DESTINATIONS) notes.push(`additional data: kept the first ${MAX_DESTINATIONS} of ${data.length} fields`);
  return withinBytes(data.slice(0, MAX_DESTINATIONS), notes);
}

/** The first entries whose JSON fits in MAX_ADDITIONAL_DATA_BYTES, so the alert item stays below DynamoDB's 400 KB. */
function withinBytes(data: AdditionalDatumReading[], notes: string[]): AdditionalDatumReading[] {
  let size = 2; // []
  const kept = data.findIndex((datum, i) => (size += jsonBytes(datum) + (i > 0 ? 1 : 0)) > MAX_ADDITIONAL_DATA_BYTES);
  if (kept === -1) return data;
  const dropped = data.slice(kept).map((d) => d.label);
  notes.push(trimmedNote(`additional data: larger than ${MAX_ADDITIONAL_DATA_BYTES} bytes as JSON; kept the first ${kept} of ${data.length} fields and dropped ${namesOf(dropped)}`));
  return data.slice(0, kept);
}

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
function describe(value: unknown): string {
  return typeof value === 'string' ? `"${cutText(value, 64)}"` : cutText(JSON.stringify(value) ?? String(value), 64);
}

/** Reads one webhook payload by the generic adapter's rules (docs/ingest.md, "Reading a payload"). */
export function readGenericWebhook(payload: unknown, options: GenericReadOptions): GenericReading {
  const notes: string[] = [];
  if (!isJsonObject(payload)) return { event: 'ignored', reason: 'The payload is not a JSON object', notes };
  const unwrapped = unwrapPayload(payload, options.wrapperKey);
  if (unwrapped.overBudget !== undefined) return { event: 'ignored', reason: `${unwrapped.overBudget}; the payload was not read`, notes };
  if (unwrapped.note) notes.push(unwrapped.note);
  const fields = lowerCaseKeys(unwrapped.fields);

  const event = eventOf(fields.event_type);
  if (!event) {
    const reason =
      fields.event_type === undefined
        ? `No event_type; expected one of ${WEBHOOK_EVENTS.join(', ')}`
        : `event_type ${describe(fields.event_type)} is not one of ${WEBHOOK_EVENTS.join(', ')}`;
    return { event: 'ignored', reason, notes };
  }

  const id = alertKeyOf(fields);
  if (id !== undefined && id.length > MAX_ALERT_KEY_LENGTH) {
    return { event: 'ignored', reason: `Id is longer than ${MAX_ALERT_KEY_LENGTH} characters`, notes };
  }
  if (id === undefined && fields.id !== undefined && fields.id !== null) notes.push(`Id ${describe(fields.id)} is not a non-blank string or number; ignored it`);
  if (id === undefined && event !== 'create') return { event: 'ignored', reason: `No Id: ${event} names the alert by its Id`, notes };
  // Acknowledge and resolve only name the alert: whatever else the monitor sends (Uptime Kuma and LibreNMS send a
  // title with them) changes nothing.
  if (id !== undefined && (event === 'acknowledge' || event === 'resolve')) return { event, thirdpartyId: id, idGenerated: false, fields: {}, notes };

  const read: ReadFields = {};
  const title = titleOf(fields.title, notes);
  if (title !== undefined) read.title = title;
  else if (event === 'create') return { event: 'ignored', reason: 'No Title: a create needs a non-blank Title; no alert was created', notes };

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
  if (event === 'create' && options.captureAdditionalData) read.additional_data = additionalDataOf(unwrapped.fields, notes);

  if (id !== undefined) return { event, thirdpartyId: id, idGenerated: false, fields: read, notes };
  const generated = (options.generateId ?? randomUUID)();
  notes.push(`No Id; generated ${generated}`);
  return { event, thirdpartyId: generated, idGenerated: true, fields: read, notes };
}
