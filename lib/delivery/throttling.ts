// The throttle around one send (docs/notifications.md, "The throttle"): on a throttled channel the contact method's
// slot is reserved first; without a slot the message waits (held, never dropped) until the slot opens, and the
// message that gets a slot carries everything waiting for that contact as one bundle.
import { isConditionFailure } from '../db/conditions.ts';
import { getItems, transact } from '../db/items.ts';
import { accountPk } from '../db/keys.ts';
import { nowMs } from '../clock.ts';
import { bundleActions, bundleOutgoing, holdPending, pendingFor, pendingOf, releasePending, releasePendingWrite, reserveSend, type Contact } from './throttle-store.ts';
import type { TransactItem } from '../db/writes.ts';
import { isThrottled, type PendingMessage } from '../channel-adapters/throttle.ts';
import type { ChannelAdapter, OutgoingMessage, SendResult } from '../channel-adapters/port.ts';
import { outboxStatusWrite, type DeliveryFields, type RecordChange } from './records.ts';

export type ThrottleStep =
  /** Send `message` now; it stands for `covered` too (other waiting messages), which are recorded sent with it. */
  | { readonly kind: 'send'; readonly message: OutgoingMessage; readonly covered: readonly PendingMessage[] }
  /** No slot: the message was held; try again at `retryAt`. */
  | { readonly kind: 'wait'; readonly retryAt: number };

const contactOf = (message: OutgoingMessage): Contact => ({ accountId: message.accountId, address: message.to });

/** Reserves the contact's slot for `message` at `now`, or holds it; with others waiting, the message becomes their bundle. */
export async function throttleStep(message: OutgoingMessage, notificationType: string, now: number): Promise<ThrottleStep> {
  if (!isThrottled(message.channel)) return { kind: 'send', message, covered: [] };
  const contact = contactOf(message);
  const reservation = await reserveSend(contact, message.channel, now);
  if (!reservation.ok) {
    await holdPending(contact, message.channel, pendingOf(message, notificationType, now));
    return { kind: 'wait', retryAt: reservation.retryAt };
  }
  const waiting = await pendingFor(contact, message.channel);
  const covered = waiting.filter((p) => p.notificationId !== message.notificationId);
  if (covered.length === 0) return { kind: 'send', message, covered: [] };
  const self = waiting.find((p) => p.notificationId === message.notificationId) ?? pendingOf(message, notificationType, now);
  const covers = [...covered, self].sort((a, b) => a.heldAt - b.heldAt || a.notificationId.localeCompare(b.notificationId));
  return { kind: 'send', message: bundleOutgoing(message, covers, bundleActions(covers)), covered };
}

export type ThrottledSend =
  | { readonly outcome: 'held'; readonly retryAt: number }
  /** `bundled`: the other messages the bundle stood for (their alerts name the partitions of their records). */
  | { readonly outcome: 'sent'; readonly result: SendResult; readonly bundled: readonly PendingMessage[] };

/**
 * One send through the throttle, with the adapter called here: at once, held for a later slot, or as the bundle
 * of what waited (forgotten once it went). The delivery worker takes the same steps around its own records.
 */
export async function sendThrottled(adapter: ChannelAdapter, message: OutgoingMessage, notificationType: string, now: number = nowMs()): Promise<ThrottledSend> {
  const step = await throttleStep(message, notificationType, now);
  if (step.kind === 'wait') return { outcome: 'held', retryAt: step.retryAt };
  const result = await adapter.send(step.message);
  if (result.status !== 'sent') return { outcome: 'sent', result, bundled: [] };
  await releaseAll(message, step.covered.map((p) => p.notificationId));
  return { outcome: 'sent', result, bundled: step.covered };
}

/**
 * After the bundle's own record committed (its own waiting message forgotten in that transaction, releaseWrites):
 * every covered record still queued is recorded sent with the bundle's provider id (each with its outbox message,
 * conditioned on it still being queued: one its own timer sent meanwhile is left alone), then the covered waiting
 * messages are forgotten. Their own delivery timers (marked `held`) read their records and find them sent.
 */
export async function settleCovered(message: OutgoingMessage, covered: readonly PendingMessage[], change: Extract<RecordChange, { kind: 'sent' }>): Promise<void> {
  const keyOf = (pending: PendingMessage) => ({ pk: `${accountPk(message.accountId)}#AL#${pending.ownerId}`, sk: `NOTIF#${pending.notificationId}` });
  // Every covered record read at once (one strongly consistent BatchGetItem), each then recorded on its own.
  const alertCovered = covered.filter((pending) => pending.ownerType === 'alert');
  const records = new Map((await getItems<DeliveryFields & { pk: string; sk: string }>(alertCovered.map(keyOf))).map((r) => [`${r.pk}\u0000${r.sk}`, r]));
  for (const pending of alertCovered) {
    const key = keyOf(pending);
    const record = records.get(`${key.pk}\u0000${key.sk}`);
    if (!record || record.status !== 'queued') continue;
    try {
      await transact([
        {
          Update: {
            Key: key,
            UpdateExpression: 'SET #status = :sent, sent_at = :at, provider = :provider, provider_message_id = :pmid, bundled_in = :bundle, next_attempt_at = :null',
            ConditionExpression: '#status = :queued',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':sent': 'sent',
              ':queued': 'queued',
              ':at': change.at,
              ':provider': change.provider,
              ':pmid': change.providerMessageId,
              ':bundle': message.notificationId,
              ':null': null,
            },
          },
        },
        ...outboxStatusWrite(message.accountId, record, change),
      ]);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  if (covered.length > 0) await releasePending(contactOf(message), message.channel, covered.map((p) => p.notificationId));
}

/**
 * The write forgetting the message's own waiting item, for the transaction recording how it ended: on a throttled
 * channel when it may be waiting (`mayWait`: it was held, or the throttle ran for it); none otherwise.
 */
export const releaseWrites = (message: Pick<OutgoingMessage, 'accountId' | 'to' | 'channel' | 'notificationId'>, mayWait: boolean): TransactItem[] =>
  mayWait && isThrottled(message.channel) ? [releasePendingWrite({ accountId: message.accountId, address: message.to }, message.channel, message.notificationId)] : [];

/** Forgets waiting messages of the contact (the sent bundle's, or one that reached a final state on its own). */
export async function releaseAll(message: OutgoingMessage, notificationIds: readonly string[]): Promise<void> {
  if (!isThrottled(message.channel)) return;
  await releasePending(contactOf(message), message.channel, [...notificationIds, message.notificationId]);
}
