// The transactional outbox of outgoing webhooks: a change that causes events records them in ITS OWN transaction
// (one event item holding the change's events, and one `fanout` timer due now), so an event exists exactly when
// the change that caused it committed. Fan-out and sending happen later (./worker.ts). Any domain emits events
// through `webhookEventWrites`; docs/outgoing-webhooks.md, "For other domains".
import { monotonicFactory } from 'ulid';
import { webhookEventSk, webhookPk } from '../db/keys.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
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

/** One change's events, in the subject's webhook partition, sorted by `sequence`. */
export interface WebhookChangeItem {
  pk: string;
  sk: string;
  type: 'WEBHOOK_CHANGE';
  accountId: string;
  subjectId: string;
  sequence: string;
  scope: WebhookScope;
  events: WebhookEvent[];
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
  const item: WebhookChangeItem = {
    pk,
    sk: webhookEventSk(sequence),
    type: 'WEBHOOK_CHANGE',
    accountId,
    subjectId,
    sequence,
    scope,
    events: events.map((e) => ({ id: `msg_${nextId(now)}`, type: e.type, timestamp: at, data: e.data })),
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
