// The events a person running Hark wants to see, one function per kind, each one structured log record of the one
// logger: `{event: 'alert.created', alert_prefix_id, title, …}`. On AWS they are JSON lines (CloudWatch Logs
// Insights filters on `event`); `npm start` renders the same records as one human line each (lib/local/terminal.ts).
// Which event is logged where, and every field: docs/configuration.md, "What npm start prints".
import { logger } from '../logger.ts';

/** What every alert event names. */
export interface AlertRef {
  alert_id: string;
  alert_prefix_id: string;
  title: string;
}

/** Who acted: a person (their account user and name) or an integration (its id and name). */
export interface ActorRef {
  by_type: 'account_user' | 'integration';
  by_id: string;
  by_name: string;
}

export interface WebhookApplied {
  integration_id: string;
  integration_prefix_id: string | null;
  integration_name: string | null;
  /** The request's log (`GET /logs/:id`), the `log_id` the webhook answered with. */
  log_id: string;
  result: 'created' | 'deduplicated' | 'updated' | 'acknowledged' | 'resolved' | 'commented' | 'ignored';
  /** The log's note saying what the request became (`Created alert alt_… (open)`, `Ignored: …`). */
  note: string;
  alert_prefix_id: string | null;
  title: string | null;
}

export interface WebhookRefused {
  /** The id in the path, as sent. */
  integration: string;
  status: number;
  reason: string;
}

export interface AlertCreated extends AlertRef, ActorRef {
  urgency: string;
  status: string;
}

export interface AlertEscalated extends AlertRef {
  /** null for a person paged directly. */
  team_id: string | null;
  team_name: string | null;
  layer: number | null;
  pass: number | null;
  /** Why this layer was entered: the alert is new, the previous layer timed out or rejected, a new pass, a hand-off, a router's delay. */
  reason: 'new' | 'timeout' | 'rejected' | 'repeat' | 'reassigned' | 'delayed';
  account_user_ids: string[];
  people: string[];
}

export interface AlertDropped extends AlertRef {
  /** Why, in words (ids replaced by names). */
  reasons: string[];
}

export interface AlertActedOn extends AlertRef, ActorRef {
  /** Where the action came from: `api`, `webhook`, or the message's channel (`email`, `sms`, `slack`, …). */
  channel: string;
}

export interface NotificationOutcome {
  outcome: 'sent' | 'suppressed' | 'failed' | 'retrying';
  owner_type: 'alert' | 'broadcast';
  owner_prefix_id: string;
  title: string | null;
  /** `alert.open` for a page, `alert.acknowledged`, `broadcast.sent`, … */
  notification_type: string;
  notification_id: string;
  account_user_id: string;
  person: string;
  channel: string;
  provider: string | null;
  attempt: number;
  /** Why it was not sent (suppressed, failed or retrying); null when sent. */
  reason: string | null;
  next_attempt_at: string | null;
}

export interface BroadcastRef {
  broadcast_id: string;
  broadcast_prefix_id: string;
  title: string;
}

export interface BroadcastSent extends BroadcastRef {
  status: string;
  recipients: number;
  reached: number;
}

export interface BroadcastAnswered extends BroadcastRef {
  account_user_id: string;
  person: string;
  answer: string;
  channel: string;
}

export interface OutgoingWebhookAttempt {
  outcome: 'delivered' | 'retrying' | 'failed' | 'disabled';
  webhook_id: string;
  webhook_prefix_id: string | null;
  webhook_name: string | null;
  event_type: string;
  /** The alert or broadcast the event is about, from its payload; null for a test event. */
  subject_prefix_id: string | null;
  title: string | null;
  attempt: number;
  status_code: number | null;
  /** Why it was not delivered (the error, the final reason, why Hark disabled the webhook); null when delivered. */
  reason: string | null;
  next_attempt_at: string | null;
}

/** Every record the functions below log, by its `event`. */
export type ActivityRecord =
  | ({ event: 'webhook.applied' } & WebhookApplied)
  | ({ event: 'webhook.refused' } & WebhookRefused)
  | ({ event: 'alert.created' } & AlertCreated)
  | ({ event: 'alert.escalated' } & AlertEscalated)
  | ({ event: 'alert.dropped' } & AlertDropped)
  | ({ event: 'alert.acknowledged' | 'alert.resolved' } & AlertActedOn)
  | ({ event: `notification.${NotificationOutcome['outcome']}` } & NotificationOutcome)
  | ({ event: 'broadcast.sent' } & BroadcastSent)
  | ({ event: 'broadcast.answered' } & BroadcastAnswered)
  | ({ event: `outgoing_webhook.${OutgoingWebhookAttempt['outcome']}` } & OutgoingWebhookAttempt);

export type ActivityEvent = ActivityRecord['event'];

export const webhookApplied = (fields: WebhookApplied) => logger.info('Webhook request applied', { event: 'webhook.applied', ...fields });

export const webhookRefused = (fields: WebhookRefused) => logger.info('Webhook request refused', { event: 'webhook.refused', ...fields });

export const alertCreated = (fields: AlertCreated) => logger.info('Alert created', { event: 'alert.created', ...fields });

export const alertEscalated = (fields: AlertEscalated) => logger.info('Alert escalated', { event: 'alert.escalated', ...fields });

/** A warning: an alert nobody is paged for any more. */
export const alertDropped = (fields: AlertDropped) => logger.warn('Alert dropped', { event: 'alert.dropped', ...fields });

export const alertAcknowledged = (fields: AlertActedOn) => logger.info('Alert acknowledged', { event: 'alert.acknowledged', ...fields });

export const alertResolved = (fields: AlertActedOn) => logger.info('Alert resolved', { event: 'alert.resolved', ...fields });

/** Sent and suppressed (no provider for the channel) are information; failed and retrying are warnings. */
export function notificationOutcome(fields: NotificationOutcome): void {
  const record = { event: `notification.${fields.outcome}`, ...fields };
  if (fields.outcome === 'failed' || fields.outcome === 'retrying') logger.warn('Notification not delivered', record);
  else logger.info(fields.outcome === 'sent' ? 'Notification sent' : 'Notification suppressed', record);
}

export const broadcastSent = (fields: BroadcastSent) => logger.info('Broadcast sent', { event: 'broadcast.sent', ...fields });

export const broadcastAnswered = (fields: BroadcastAnswered) => logger.info('Broadcast answered', { event: 'broadcast.answered', ...fields });

/** Delivered is information; a retry, a failure for good and a webhook Hark disabled are warnings. */
export function outgoingWebhookAttempt(fields: OutgoingWebhookAttempt): void {
  const record = { event: `outgoing_webhook.${fields.outcome}`, ...fields };
  if (fields.outcome === 'delivered') logger.info('Outgoing webhook delivered', record);
  else logger.warn('Outgoing webhook not delivered', record);
}
