// The transactional outbox of outgoing webhooks: a change that causes events records them in ITS OWN transaction
// (one event item holding the change's events, and one `fanout` timer due now), so an event exists exactly when
// the change that caused it committed. Fan-out and sending happen later (./worker.ts). Any domain emits events
// through `webhookEventWrites`; docs/outgoing-webhooks.md, "For other domains".
import { monotonicFactory } from 'ulid';
import { webhookEventSk, webhookPk } from '../db/keys.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import { WEBHOOK_EVENT_DATA_BYTES } from '../limits.ts';
import { jsonBytes } from '../storable.ts';
import { timerPutItems, type DurableTimer } from '../timers/index.ts';

const nextId = monotonicFactory();

/** The items one change adds to its transaction: the event item and its fan-out timer. */
export const WEBHOOK_CHANGE_WRITES = 2;
export const FANOUT_TIMER_KIND = 'fanout';
export const ATTEMPT_TIMER_KIND = 'attempt';

/** One event as a change describes it. */
export interface WebhookEventDraft {
  type: string;
  /** The payload's `data` (for alert events `{alert}`; for alert.commented also `{comment}`). */
  data: Record<string, unknown>;
}

/** What subscription filters match on. */
export interface WebhookScope {
  team_ids: string[];
  urgency: string | null;
}

export interface WebhookEvent extends WebhookEventDraft {
  /** `msg_<ULID>`: the `webhook-id` of every attempt and replay of this event. */
  id: string;
  /** ISO instant of the change. */
  timestamp: string;
}

/** An event as its change item holds it: without `data` when the item's `data` holds it for every event of the change. */
export type StoredWebhookEvent = Omit<WebhookEvent, 'data'> & { data?: Record<string, unknown> };

/** One change's events, in the subject's webhook partition, sorted by `sequence`. */
export interface WebhookChangeItem {
  pk: string;
  sk: string;
  type: 'WEBHOOK_CHANGE';
  accountId: string;
  subjectId: string;
  sequence: string;
  scope: WebhookScope;
  events: StoredWebhookEvent[];
  /** The `data` of every event of the change, stored once when they share it (an alert's events carry the same alert). */
  data?: Record<string, unknown>;
  created_at: string;
  /** Set once every event has its deliveries; then DynamoDB TTL removes the item. */
  fanned_out_at?: string;
  ttl?: number;
}

export interface WebhookWrites {
  writes: TransactItem[];
  /** Timers stored by `writes`: wake them after the commit (wakeWebhookTimers). */
  timers: DurableTimer[];
}

/**
 * The order of a subject's changes as a sort key: the subject's version (each change of an alert raises it by
 * one, under a condition on the version read), then a ULID for changes that do not raise it (a comment).
 */
export const changeSequence = (version: number, now: number): string => `${String(version).padStart(10, '0')}#${nextId(now)}`;

/** The change's events, each with its `data` (kept on the event, or once on the item for all). */
export const eventsOf = (change: Pick<WebhookChangeItem, 'events' | 'data'>): WebhookEvent[] =>
  change.events.map((event) => ({ ...event, data: event.data ?? change.data ?? {} }));

const emptied = (value: unknown): unknown => (Array.isArray(value) ? [] : value !== null && typeof value === 'object' ? {} : null);

/**
 * `data` within `maxBytes` as JSON: while it is larger, the largest field of the objects it carries (an alert's
 * `additional_data`, its `meta`, a broadcast's answers) is emptied ([] , {} or null) and its path named in
 * `data.omitted`, so a receiver knows to read the whole object through the API. Pure.
 */
export function boundedEventData(data: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  if (jsonBytes(data) <= maxBytes) return data;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) copy[key] = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : value;
  const omitted: string[] = [];
  while (jsonBytes({ ...copy, omitted }) > maxBytes) {
    let largest: { holder: Record<string, unknown>; field: string; path: string; size: number } | undefined;
    for (const [key, value] of Object.entries(copy)) {
      const fields: [Record<string, unknown>, string, string][] =
        value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).map((f) => [value as Record<string, unknown>, f, `${key}.${f}`]) : [[copy, key, key]];
      for (const [holder, field, path] of fields) {
        if (omitted.includes(path)) continue;
        const size = jsonBytes(holder[field]);
        if (!largest || size > largest.size) largest = { holder, field, path, size };
      }
    }
    if (!largest) return { omitted: Object.keys(data) };
    largest.holder[largest.field] = emptied(largest.holder[largest.field]);
    omitted.push(largest.path);
  }
  return { ...copy, omitted };
}

/**
 * The writes recording `events` of one change of `subjectId` (an alert id; a broadcast id) at `now`, for the
 * caller's own transaction: exactly WEBHOOK_CHANGE_WRITES items, or none when there are no events. After the
 * commit the caller sends the timers' wake-ups.
 */
export function webhookEventWrites(
  accountId: string,
  subjectId: string,
  sequence: string,
  scope: WebhookScope,
  events: readonly WebhookEventDraft[],
  now: number,
): WebhookWrites {
  if (events.length === 0) return { writes: [], timers: [] };
  const at = new Date(now).toISOString();
  const pk = webhookPk(accountId, subjectId);
  // The item and every delivery must stay within DynamoDB's 400 KB: shared data is stored once, and the data of one
  // change is at most WEBHOOK_EVENT_DATA_BYTES in all (docs/outgoing-webhooks.md, "Payload").
  const texts = events.map((e) => JSON.stringify(e.data));
  const shared = events.length > 1 && texts.every((text) => text === texts[0]);
  const budget = shared ? WEBHOOK_EVENT_DATA_BYTES : Math.floor(WEBHOOK_EVENT_DATA_BYTES / events.length);
  const item: WebhookChangeItem = {
    pk,
    sk: webhookEventSk(sequence),
    type: 'WEBHOOK_CHANGE',
    accountId,
    subjectId,
    sequence,
    scope,
    events: events.map((e) => ({ id: `msg_${nextId(now)}`, type: e.type, timestamp: at, ...(shared ? {} : { data: boundedEventData(e.data, budget) }) })),
    ...(shared ? { data: boundedEventData(events[0]!.data, budget) } : {}),
    created_at: at,
  };
  const timer: DurableTimer = {
    accountId,
    ownerType: 'webhook',
    ownerId: subjectId,
    timerId: nextId(now),
    kind: FANOUT_TIMER_KIND,
    dueAt: at,
    epoch: 0,
    payload: { sequence },
  };
  return { writes: [putNew(item), ...timerPutItems(pk, [timer], at)], timers: [timer] };
}
