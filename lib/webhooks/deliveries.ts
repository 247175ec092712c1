// Deliveries: one per (subscription, event), in the lane of that subscription inside the subject's webhook
// partition, so a lane read in key order is the subject's event order. Pure builders and the API view.
// States and lanes: docs/outgoing-webhooks.md, "Order".
import { subscriptionDeliveriesGsi, webhookDeliverySk, webhookPk } from '../db/keys.ts';
import type { TransactItem } from '../db/writes.ts';
import { timerPutItems, type DurableTimer } from '../timers/index.ts';
import { WEBHOOK_DELIVERY_RETENTION_DAYS } from '../limits.ts';
import { ATTEMPT_TIMER_KIND, type WebhookEvent } from './events.ts';
import type { ErrorKind } from './outcome.ts';

/**
 * `waiting`: behind an earlier delivery of its lane; `pending`: an attempt is scheduled (the first or a retry);
 * `paused`: its subscription is disabled, resumed when re-enabled; `delivered`, `failed`: final.
 */
export const DELIVERY_STATES = ['waiting', 'pending', 'paused', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** Still holding its lane: later deliveries of the lane wait behind it. */
export const LANE_HOLDING: readonly DeliveryState[] = ['waiting', 'pending', 'paused'];
/** `scheduled`: the event's own delivery and its retries; `manual`: a replay or a test, one attempt outside the lane. */
export type DeliveryTrigger = 'scheduled' | 'manual';

export interface AttemptRecord {
  attempt: number;
  trigger: DeliveryTrigger;
  at: string;
  url: string;
  request_headers: Record<string, string>;
  response_status: number | null;
  /** Kept only from a receiver on a public address (lib/webhooks/send.ts). */
  response_body: string | null;
  /** Bytes of the answer's body read (at most WEBHOOK_RESPONSE_BODY_BYTES); absent in attempts logged before it was kept. */
  response_bytes?: number | null;
  duration_ms: number;
  error_kind: ErrorKind | null;
  error: string | null;
}

export interface DeliveryItem {
  pk: string;
  sk: string;
  type: 'WEBHOOK_DELIVERY';
  accountId: string;
  subscriptionId: string;
  subjectId: string;
  id: string;
  version: number;
  event_id: string;
  event_type: string;
  /** The alert the event is about; null for a test event. */
  alert_id: string | null;
  /** The request body, exactly as signed and sent on every attempt. */
  body: string;
  state: DeliveryState;
  trigger: DeliveryTrigger;
  attempts: AttemptRecord[];
  next_attempt_at: string | null;
  final_reason: string | null;
  /** While an attempt is being sent: until when it holds the delivery (a duplicate wake-up does not send again). */
  lease_until?: string;
  created_at: string;
  updated_at: string;
  gsi1pk: string;
  gsi1sk: string;
  ttl?: number;
}

/** The payload of every attempt: `{type, timestamp, data}` (Standard Webhooks). */
export const payloadOf = (event: WebhookEvent): string => JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });

export function newDelivery(
  input: { accountId: string; subscriptionId: string; subjectId: string; sequence: string; index: number; event: WebhookEvent; alertId: string | null },
  id: string,
  state: DeliveryState,
  trigger: DeliveryTrigger,
  now: string,
): DeliveryItem {
  return {
    pk: webhookPk(input.accountId, input.subjectId),
    sk: webhookDeliverySk(input.subscriptionId, input.sequence, input.index),
    type: 'WEBHOOK_DELIVERY',
    accountId: input.accountId,
    subscriptionId: input.subscriptionId,
    subjectId: input.subjectId,
    id,
    version: 1,
    event_id: input.event.id,
    event_type: input.event.type,
    alert_id: input.alertId,
    body: payloadOf(input.event),
    state,
    trigger,
    attempts: [],
    next_attempt_at: state === 'pending' ? now : null,
    final_reason: null,
    created_at: now,
    updated_at: now,
    gsi1pk: subscriptionDeliveriesGsi(input.accountId, input.subscriptionId),
    gsi1sk: id,
  };
}

/** The attempt timer of a delivery, due at `dueAt`. */
export const attemptTimer = (delivery: Pick<DeliveryItem, 'accountId' | 'subjectId' | 'sk'>, timerId: string, dueAt: string): DurableTimer => ({
  accountId: delivery.accountId,
  ownerType: 'webhook',
  ownerId: delivery.subjectId,
  timerId,
  kind: ATTEMPT_TIMER_KIND,
  dueAt,
  epoch: 0,
  payload: { delivery_sk: delivery.sk },
});

export const attemptTimerPut = (delivery: Pick<DeliveryItem, 'pk' | 'accountId' | 'subjectId' | 'sk'>, timer: DurableTimer, now: string): TransactItem =>
  timerPutItems(delivery.pk, [timer], now)[0]!;

/** The next version of a delivery, written only over the version read. */
export const deliveryWrite = (previous: DeliveryItem, next: DeliveryItem): TransactItem => ({
  Put: { Item: { ...next, version: previous.version + 1 }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } },
});

/** A final delivery leaves the log after the retention (DynamoDB TTL). */
export const retentionTtl = (nowMs: number): number => Math.floor(nowMs / 1000) + WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400;

/** The delivery log's view: the latest attempt's fields at the top, every attempt in `attempts`. */
export function renderDelivery(item: DeliveryItem): Record<string, unknown> {
  const last = item.attempts[item.attempts.length - 1];
  return {
    id: item.id,
    outgoing_webhook_id: item.subscriptionId,
    event_id: item.event_id,
    event_type: item.event_type,
    alert_id: item.alert_id,
    state: item.state,
    trigger: item.trigger,
    attempt: last?.attempt ?? 0,
    url: last?.url ?? null,
    request_headers: last?.request_headers ?? null,
    response_status: last?.response_status ?? null,
    response_body: last?.response_body ?? null,
    response_bytes: last?.response_bytes ?? null,
    duration_ms: last?.duration_ms ?? null,
    error_kind: last?.error_kind ?? null,
    error: last?.error ?? null,
    next_attempt_at: item.next_attempt_at,
    final_reason: item.final_reason,
    attempts: item.attempts.map((attempt) => ({ ...attempt, response_bytes: attempt.response_bytes ?? null })),
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}
