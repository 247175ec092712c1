// A notification record's life and the pure builders of its writes: queued → sent → delivered, or → failed /
// suppressed. Records live in their owner's partition (an alert's today); nothing here knows the owner.
// Rules: docs/notifications.md, "Record states".
import type { Key, TransactItem } from '../db/writes.ts';
import { outboxKeyOf } from '../db/keys.ts';
import type { DeliveryChannel } from '../channel-adapters/port.ts';
import type { Channel } from '../rule-engine/index.ts';

// The port spells the channels out (adapters import no domain folder); this fails to compile if they drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const channelsAgree: Same<DeliveryChannel, Channel> = true;
void channelsAgree;

/** The log line of a record that failed for good: the stack's failed-deliveries metric counts these lines. */
export const DELIVERY_FAILED_LOG_MESSAGE = 'Notification delivery failed';

export const DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'suppressed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The fields every notification record has, whatever its owner. */
export interface DeliveryFields {
  id: string;
  account_user_id: string;
  /** null when nothing was sent (the person's rule ignores it, or the person is gone). */
  channel: string | null;
  notification_type: string;
  status: DeliveryStatus;
  /** The outbox message carrying it; null when none was queued. */
  outbox_id: string | null;
  /** true when that message is in an outbox shard; absent on records written before sharding (docs/decisions/0027-sharded-outbox.md). */
  outbox_sharded?: boolean;
  /** Why nothing was sent (failed before any attempt, or suppressed); null otherwise. */
  reason: string | null;
  created_at: string;
  sent_at: string | null;
  /** Sending attempts made so far (0 while the first is pending). */
  attempts?: number;
  /** The provider that took the message (smtp, ses, twilio, …); null before. */
  provider?: string | null;
  provider_message_id?: string | null;
  /** The last attempt's error, when it failed. */
  error?: string | null;
  delivered_at?: string | null;
  /** When the next attempt is due while a retry waits; null otherwise. */
  next_attempt_at?: string | null;
}

/** How an attempt ends for the record. */
export type RecordChange =
  | { kind: 'sent'; provider: string; providerMessageId: string | null; at: string }
  | { kind: 'suppressed'; reason: string; provider: string | null; at: string }
  | { kind: 'failed'; provider: string | null; error: string; at: string }
  | { kind: 'retry'; provider: string; error: string; at: string; nextAttemptAt: string };

/** The outbox status that goes with a record's status. */
function outboxStatusOf(change: RecordChange): 'sent' | 'failed' | 'suppressed' | 'queued' {
  return change.kind === 'retry' ? 'queued' : change.kind;
}

const base = (attempts: number) => ({
  condition: '#status = :queued AND ' + (attempts === 0 ? '(attribute_not_exists(attempts) OR attempts = :attempts)' : 'attempts = :attempts'),
  values: { ':queued': 'queued', ':attempts': attempts, ':next': attempts + 1 },
});

/**
 * The one write that records an attempt on a `queued` record read with `attempts`: conditioned on it still being
 * queued with that many attempts, so two firings of one delivery cannot both record.
 */
export function recordAttemptWrite(key: Key, attempts: number, change: RecordChange): TransactItem {
  const { condition, values } = base(attempts);
  const names: Record<string, string> = { '#status': 'status', '#error': 'error' };
  const set = ['#status = :status', 'attempts = :next', 'provider = :provider', 'last_attempt_at = :at'];
  const extra: Record<string, unknown> = { ':at': change.at, ':provider': change.provider };
  switch (change.kind) {
    case 'sent':
      set.push('sent_at = :at', 'provider_message_id = :pmid', '#error = :null', 'next_attempt_at = :null');
      Object.assign(extra, { ':status': 'sent', ':pmid': change.providerMessageId, ':null': null });
      break;
    case 'suppressed':
      set.push('reason = :reason', '#error = :null', 'next_attempt_at = :null');
      Object.assign(extra, { ':status': 'suppressed', ':reason': change.reason, ':null': null });
      break;
    case 'failed':
      set.push('#error = :err', 'reason = :err', 'next_attempt_at = :null');
      Object.assign(extra, { ':status': 'failed', ':err': change.error, ':null': null });
      break;
    case 'retry':
      set.push('#error = :err', 'next_attempt_at = :nextAt');
      Object.assign(extra, { ':status': 'queued', ':err': change.error, ':nextAt': change.nextAttemptAt });
      break;
  }
  // DynamoDB refuses a name the expressions do not use.
  if (!set.some((part) => part.includes('#error'))) delete names['#error'];
  return {
    Update: {
      Key: key,
      UpdateExpression: `SET ${set.join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ...extra },
    },
  };
}

/** The throttle holds a queued record: it stays queued (no attempt counted) until `nextAttemptAt`. */
export function recordHeldWrite(key: Key, attempts: number, nextAttemptAt: string): TransactItem {
  const { condition, values } = base(attempts);
  return {
    Update: {
      Key: key,
      UpdateExpression: 'SET next_attempt_at = :nextAt, held = :held',
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':queued': values[':queued'], ':attempts': values[':attempts'], ':nextAt': nextAttemptAt, ':held': true },
    },
  };
}

/**
 * The outbox message follows its record: status (and sent_at when sent), as a new version of the message; in its shard,
 * or in the account partition for a record written before sharding (`outbox_sharded` absent).
 */
export function outboxStatusWrite(accountId: string, record: Pick<DeliveryFields, 'outbox_id' | 'outbox_sharded'>, change: RecordChange): TransactItem[] {
  if (!record.outbox_id) return [];
  const status = outboxStatusOf(change);
  return [{
    Update: {
      Key: outboxKeyOf(accountId, record.outbox_id, record.outbox_sharded === true),
      UpdateExpression: 'SET #data.#status = :status, #data.sent_at = :sentAt, #data.reason = :reason, updatedAt = :at ADD version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#data': 'data', '#status': 'status' },
      // A reason shows only while the message is held (docs/decisions/0032-provider-breaker.md).
      ExpressionAttributeValues: { ':status': status, ':sentAt': change.kind === 'sent' ? change.at : null, ':reason': null, ':at': change.at, ':one': 1 },
    },
  }];
}
