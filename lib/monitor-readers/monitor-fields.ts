// Pieces the monitor readers (prometheus, grafana, datadog, sentry, azure_monitor, stackdriver) share: plain reads of
// a sender's JSON, the title/description/link rules, keys kept within MAX_ALERT_KEY_LENGTH and the captured data.
// Pure. The rules are written in docs/monitors.md ("What every monitor reader shares").
import { createHash } from 'node:crypto';
import { MAX_ADDITIONAL_DATA_BYTES, MAX_ALERT_KEY_LENGTH, MAX_DESTINATIONS, MAX_MONITOR_LINKS, MONITOR_LINK_LENGTH, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';
import { jsonBytes } from '../storable.ts';
import type { Urgency } from '../rule-engine/index.ts';
import { isJsonObject } from './wrapper-key.ts';
import { additionalDataOf, cutText } from './fields.ts';
import type { AdditionalDatumReading, ReadEvent, ReaderOptions, Reading } from './types.ts';

/** A non-blank string (trimmed) or a finite number as text; undefined for anything else. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The object at `value`, or an empty one: senders' optional sections read as absent, never as an error. */
export const record = (value: unknown): Record<string, unknown> => (isJsonObject(value) ? value : {});

/** The objects of a list; anything else in it (or a list that is not one) is left out. */
export const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);

/** A request the reader makes nothing of, and why (GET /logs shows the reason). */
export const ignoredReading = (reason: string, notes: string[] = []): Reading => ({ events: [], ignoredReason: reason, notes });

/** A title within NAME_LENGTH, noted when cut. */
export function titleWithin(title: string, notes: string[]): string {
  if (title.length > NAME_LENGTH) notes.push(`Title cut to ${NAME_LENGTH} characters`);
  return cutText(title, NAME_LENGTH);
}

/** A description within TEXT_LENGTH (null when empty), noted when cut. */
export function descriptionWithin(description: string, notes: string[]): string | null {
  if (description.trim() === '') return null;
  if (description.length > TEXT_LENGTH) notes.push(`Description cut to ${TEXT_LENGTH} characters`);
  return cutText(description, TEXT_LENGTH);
}

/**
 * An alert key as the alert's thirdparty_id: kept as sent up to MAX_ALERT_KEY_LENGTH; a longer one (an Alertmanager
 * group key of many labels) becomes `sha256:<hex>` of it, so the same group always finds the same alert (noted).
 */
export function alertKey(key: string, notes: string[]): string {
  if (key.length <= MAX_ALERT_KEY_LENGTH) return key;
  const hashed = `sha256:${createHash('sha256').update(key).digest('hex')}`;
  notes.push(`The key is longer than ${MAX_ALERT_KEY_LENGTH} characters; used ${hashed}`);
  return hashed;
}

/** A key the sender did not give: generated from the request (so a redelivery reads the same), noted. */
export function generatedKey(options: ReaderOptions, index: number, what: string, notes: string[]): { thirdpartyId: string; idGenerated: true } {
  const thirdpartyId = options.generateId(index);
  notes.push(`No ${what}; generated ${thirdpartyId}`);
  return { thirdpartyId, idGenerated: true };
}

/**
 * The sender's links as `link` entries of the alert's additional data, in order, repeats dropped. Only http and
 * https URLs are kept (a `javascript:` link must never reach a console); others are noted and left out.
 */
export function linkData(links: readonly [label: string, url: unknown][], notes: string[]): AdditionalDatumReading[] {
  const seen = new Set<string>();
  const out: AdditionalDatumReading[] = [];
  for (const [label, url] of links) {
    const value = text(url);
    if (value === undefined || seen.has(value)) continue;
    if (!/^https?:\/\//i.test(value) || value.length > MONITOR_LINK_LENGTH) {
      notes.push(`${label}: not an http(s) URL of at most ${MONITOR_LINK_LENGTH} characters; left out`);
      continue;
    }
    if (out.length >= MAX_MONITOR_LINKS) {
      notes.push(`Links: kept the first ${MAX_MONITOR_LINKS}`);
      break;
    }
    seen.add(value);
    out.push({ format: 'link', label: cutText(label, NAME_LENGTH), value });
  }
  return out;
}

/**
 * What a create carries besides its fields: the links, then (with Capture Additional Data) every top-level field the
 * reader did not read, by the generic webhook's rules. Undefined when there is nothing.
 */
export function createData(
  links: AdditionalDatumReading[],
  payload: Record<string, unknown>,
  readKeys: ReadonlySet<string>,
  options: ReaderOptions,
  notes: string[],
): AdditionalDatumReading[] | undefined {
  const captured = options.captureAdditionalData ? additionalDataOf(payload, readKeys, notes) : [];
  const data = [...links, ...captured];
  // The links come first and are few and short; captured fields make room for them within the alert's bounds.
  let kept = Math.min(data.length, MAX_DESTINATIONS);
  while (kept > links.length && jsonBytes(data.slice(0, kept)) > MAX_ADDITIONAL_DATA_BYTES) kept--;
  if (kept < data.length) notes.push(`Trimmed to fit: additional data: kept the links and the first ${kept - links.length} of ${captured.length} captured fields`);
  return kept > 0 ? data.slice(0, kept) : undefined;
}

/** The urgency a word of the sender maps to by `table` (lower-cased, trimmed); undefined when it maps to none. */
export function mappedUrgency(word: unknown, table: Readonly<Record<string, Urgency>>): Urgency | undefined {
  const value = text(word)?.toLowerCase();
  return value !== undefined && Object.hasOwn(table, value) ? table[value] : undefined;
}

/** The urgency of a create: the mapped one, else the integration's, noting which word was not understood. */
export function urgencyOr(mapped: Urgency | undefined, word: unknown, field: string, options: ReaderOptions, notes: string[]): Urgency {
  if (mapped) return mapped;
  const value = text(word);
  if (value !== undefined) notes.push(`${field} "${cutText(value, 64)}" maps to no urgency; used the integration's ${options.defaultUrgency}`);
  return options.defaultUrgency;
}

/** `key=value, …` of a label set, in the sender's order. */
export const labelText = (labels: Record<string, unknown>): string =>
  Object.entries(labels)
    .map(([key, value]) => `${key}=${text(value) ?? ''}`)
    .join(', ');

/** A resolve (or acknowledge) names only the alert. */
export const actOn = (event: 'resolve' | 'acknowledge', key: { thirdpartyId: string; idGenerated: boolean }, notes: string[]): ReadEvent => ({
  event,
  ...key,
  fields: {},
  notes,
});
