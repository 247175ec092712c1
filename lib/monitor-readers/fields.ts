// Field readers shared by the monitor readers (docs/ingest.md, "Reading a payload"): text, urgency words, label lists,
// Meta and additional data, each noting what it changed or left out. Pure.
import { MAX_ADDITIONAL_DATA_BYTES, MAX_DESTINATIONS, MAX_META_BYTES, MAX_META_DEPTH, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { INCIDENT_SEVERITIES, URGENCIES, type Urgency } from '../rule-engine/index.ts';
import { jsonBytes, namesOf, storableCopy } from '../storable.ts';
import { isJsonObject } from './wrapper-key.ts';
import type { AdditionalDatumReading } from './types.ts';

export const WEBHOOK_EVENTS = ['create', 'update', 'acknowledge', 'resolve'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

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
export function textOf(value: unknown): string | undefined {
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

/**
 * Each top-level key the reader does not read (`readKeys`, lower-cased), as `{format: "text", label: key as sent, value}`.
 */
export function additionalDataOf(fields: Record<string, unknown>, readKeys: ReadonlySet<string>, notes: string[]): AdditionalDatumReading[] {
  const data: AdditionalDatumReading[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (readKeys.has(key.toLowerCase()) || key.trim() === '') continue;
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
