// The throttle around one send (docs/notifications.md, "The throttle"): on a throttled channel the contact method's
// slot is reserved first; without a slot the message waits (held, never dropped) until the slot opens, and the
// message that gets a slot carries everything waiting for that contact as one bundle.
import { isConditionFailure } from '../db/conditions.ts';
import { getItems, transact } from '../db/items.ts';
import { accountPk } from '../db/keys.ts';
import { nowMs } from '../clock.ts';
import { bundleActions, bundleOutgoing, claimedByOther, claimPending, holdPending, pendingOf, releasePending, releasePendingWrite, reserveSend, unclaimPending, waitingFor, type Contact, type WaitingMessage } from './throttle-store.ts';
import type { TransactItem } from '../db/writes.ts';
import { isThrottled, type PendingMessage } from '../channel-adapters/throttle.ts';
import type { ChannelAdapter, OutgoingMessage, SendResult } from '../channel-adapters/port.ts';
import { outboxStatusWrite, type DeliveryFields, type RecordChange } from './records.ts';

export type ThrottleStep =
  /**
   * Send `message` now; it stands for `covered` too (other waiting messages), which are recorded sent with it.
   * `claimed`: the waiting messages this send claimed (its own among them when it waited), given back if it fails.
   */
  | { readonly kind: 'send'; readonly message: OutgoingMessage; readonly covered: readonly PendingMessage[]; readonly claimed: readonly string[] }
  /** No slot, or another bundle about to go names it: the message was held; try again at `retryAt`. */
  | { readonly kind: 'wait'; readonly retryAt: number };

const contactOf = (message: OutgoingMessage): Contact => ({ accountId: message.accountId, address: message.to });

/** A message another bundle claimed looks again this long after (real time): by then that bundle went, or gave it back. */
const CLAIMED_RETRY_MS = 1_000;

const withoutClaim = ({ claimedBy: _by, claimedUntil: _until, ...message }: WaitingMessage): PendingMessage => message;

/**
 * Reserves the contact's slot for `message` at `now`, or holds it; with others waiting, the message becomes their
 * bundle. Every waiting message the bundle names (its own too) is claimed first, so no other bundle names it while
 * this one is sent and committed (docs/notifications.md, "The throttle").
 */
export async function throttleStep(message: OutgoingMessage, notificationType: string, now: number): Promise<ThrottleStep> {
  if (!isThrottled(message.channel)) return { kind: 'send', message, covered: [], claimed: [] };
  const contact = contactOf(message);
  const reservation = await reserveSend(contact, message.channel, now);
  if (!reservation.ok) {
    await holdPending(contact, message.channel, pendingOf(message, notificationType, now));
    return { kind: 'wait', retryAt: reservation.retryAt };
  }
  const me = message.notificationId;
  const all = await waitingFor(contact, message.channel);
  const own = all.find((p) => p.notificationId === me);
  const waiting = all.filter((p) => !claimedByOther(p, me, now));
  const claimed = own && claimedByOther(own, me, now) ? [] : waiting.length > 0 ? await claimPending(contact, message.channel, waiting.map((p) => p.notificationId), me, now) : [];
  // Another bundle claimed this message: it goes out in that one (its own timer then finds its record sent).
  if (own && !claimed.includes(me)) {
    await unclaimPending(contact, message.channel, claimed, me);
    return { kind: 'wait', retryAt: now + CLAIMED_RETRY_MS };
  }
  const won = waiting.filter((p) => claimed.includes(p.notificationId)).map(withoutClaim);
  const covered = won.filter((p) => p.notificationId !== me);
  if (covered.length === 0) return { kind: 'send', message, covered: [], claimed };
  const self = won.find((p) => p.notificationId === me) ?? pendingOf(message, notificationType, now);
  const covers = [...covered, self].sort((a, b) => a.heldAt - b.heldAt || a.notificationId.localeCompare(b.notificationId));
  return { kind: 'send', message: bundleOutgoing(message, covers, bundleActions(covers)), covered, claimed };
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
  if (result.status !== 'sent') {
    await giveBackClaims(message, step.claimed);
    return { outcome: 'sent', result, bundled: [] };
  }
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

/** A send that did not go gives back what it claimed: those messages wait for the next slot (or its retry) again. */
export async function giveBackClaims(message: OutgoingMessage, claimed: readonly string[]): Promise<void> {
  if (claimed.length > 0) await unclaimPending(contactOf(message), message.channel, claimed, message.notificationId);
}

/** Forgets waiting messages of the contact (the sent bundle's, or one that reached a final state on its own). */
export async function releaseAll(message: OutgoingMessage, notificationIds: readonly string[]): Promise<void> {
  if (!isThrottled(message.channel)) return;
  await releasePending(contactOf(message), message.channel, [...notificationIds, message.notificationId]);
}
