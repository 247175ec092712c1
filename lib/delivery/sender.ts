// The sender: fires a `delivery` timer by sending its notification record through the channel's adapter, then
// records the outcome in ONE transaction with the timer's fired marker: the record queued → sent (provider and
// its message id) or → failed / suppressed, the outbox message's status with it, a retry timer with backoff, and the
// owner's writes when the record ends failed or suppressed (an alert's log entry, a broadcast's undelivered check).
// The timer carries the message (./send-timer.ts), so a send reads nothing but the timer; the record's state is the
// final transaction's condition. Owner-agnostic: what only the owner knows (its links, its writes) comes through the
// delivery port (./port.ts). Rules: docs/notifications.md, "Sending"; docs/decisions/0023-what-a-page-writes.md.
import { monotonicFactory } from 'ulid';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { getItem, transact } from '../db/items.ts';
import type { Key, TransactItem } from '../db/writes.ts';
import { logger } from '../logger.ts';
import { announceDelivery } from '../activity/notifications.ts';
import { ADAPTER_SERVICES } from './adapter-services.ts';
import { adapterFor, unconfiguredReason } from '../channel-adapters/adapters.ts';
import type { OutgoingMessage, SendResult } from '../channel-adapters/port.ts';
import { isThrottled, type PendingMessage } from '../channel-adapters/throttle.ts';
import { findOutboxMessage } from '../outbox/messages.ts';
import { markTimerFired, sendWakeUps, timerFiredItem, timerOwnerPk, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { showsLinks } from './actions.ts';
import { NO_WRITES, type DeliveryOwners } from './port.ts';
import { DELIVERY_FAILED_LOG_MESSAGE, outboxStatusWrite, recordAttemptWrite, recordHeldWrite, type DeliveryFields, type RecordChange } from './records.ts';
import { nextAttempt } from './retry.ts';
import { isChannel, messageOfRecord, recordOfMessage, sendTimer, type About, type SendMessage, type SendPayload, type SendRecord } from './send-timer.ts';
import { statusRefOf } from './status-callbacks.ts';
import { releaseWrites, settleCovered, throttleStep } from './throttling.ts';

export { SEND_TIMER_KIND, sendTimer, type About, type SendMessage, type SendPayload } from './send-timer.ts';

/** ULIDs that keep their order within one millisecond (retry and hold timer ids). */
const nextId = monotonicFactory();

/** One attempt through the channel's adapter; a throwing adapter is a retryable failure with its message. */
async function attempt(record: SendRecord, message: OutgoingMessage | undefined): Promise<{ provider: string | null; result: SendResult }> {
  if (!message) return { provider: null, result: { status: 'failed', retryable: false, error: 'the outbox message of this notification is gone' } };
  const adapter = adapterFor(message.channel, ADAPTER_SERVICES);
  if (!adapter) return { provider: null, result: { status: 'suppressed', reason: unconfiguredReason(message.channel) } };
  try {
    return { provider: adapter.provider, result: await adapter.send(message) };
  } catch (error) {
    logger.warn('Delivery adapter threw', { notificationId: record.id, provider: adapter.provider, error: error as Error });
    return { provider: adapter.provider, result: { status: 'failed', retryable: true, error: error instanceof Error ? error.message : String(error) } };
  }
}

/** What one firing sends: the record's fields, the attempts it expects the record to hold, and the message (none: the outbox message is gone). */
interface Sending {
  readonly record: SendRecord;
  readonly attempts: number;
  readonly message: SendMessage | undefined;
}

/**
 * The sending a timer names: from its payload, with no read; a timer stored before decision 0023 carries only the
 * record's key, so its record and outbox message are read. undefined: the record is gone or no longer queued.
 */
async function sendingOf(accountId: string, key: Key, payload: SendPayload): Promise<Sending | undefined> {
  if (payload.message && payload.attempts !== undefined) return { record: recordOfMessage(payload.message), attempts: payload.attempts, message: payload.message };
  const record = await getItem<DeliveryFields>(key, { consistent: true });
  if (!record || record.status !== 'queued') return undefined;
  const outbox = record.outbox_id && isChannel(record.channel) ? await findOutboxMessage(accountId, record.outbox_id) : undefined;
  const message: SendMessage | undefined = outbox && messageOfRecord(record, outbox, null);
  return { record, attempts: record.attempts ?? 0, message };
}

/** Whether the record no longer waits for this firing: gone, not queued, or at another attempt. One consistent read. */
async function movedOn(key: Key, attempts: number): Promise<boolean> {
  const record = await getItem<DeliveryFields>(key, { consistent: true });
  return !record || record.status !== 'queued' || (record.attempts ?? 0) !== attempts;
}

/** The message an adapter gets: the timer's address and text, the owner it is about, its action links. */
async function outgoingOf(owners: DeliveryOwners, accountId: string, message: SendMessage, about: About, now: number): Promise<OutgoingMessage> {
  const { channel, account_user_id: accountUserId } = message;
  return {
    notificationId: message.notification_id,
    accountId,
    channel,
    to: message.to,
    accountUserId,
    subject: message.subject,
    text: message.text,
    // The owner says which signed links its message carries (an alert's acknowledge and resolve, a broadcast's answer
    // options); channels that show no links get none, without asking it.
    actions: showsLinks(channel) ? await owners[about.ownerType].messageActions({ accountId, ownerId: about.ownerId, accountUserId, channel, now }) : [],
    about,
  };
}

/** How the adapter's answer changes the record after `attempts` attempts (this one included). */
export function changeOf(result: SendResult, provider: string | null, attempts: number, at: number, timeScale: number): RecordChange {
  const iso = new Date(at).toISOString();
  if (result.status === 'sent') return { kind: 'sent', provider: provider ?? 'unknown', providerMessageId: result.providerMessageId, at: iso };
  if (result.status === 'suppressed') return { kind: 'suppressed', reason: result.reason, provider, at: iso };
  const next = result.retryable && provider !== null ? nextAttempt(attempts) : { retry: false as const };
  if (!next.retry) return { kind: 'failed', provider, error: result.error, at: iso };
  return { kind: 'retry', provider: provider!, error: result.error, at: iso, nextAttemptAt: new Date(at + Math.ceil(next.delayMs / timeScale)).toISOString() };
}

/**
 * The throttle holds the record: it stays queued, no attempt counted, and a new delivery timer (marked `held`: a
 * bundle may send the record before it fires) is due when the contact's slot opens; then it goes out, with whatever
 * else waits, as one bundle.
 */
async function holdRecord(key: Key, sending: Sending, timer: DurableTimer, payload: SendPayload, now: Date, retryAt: number): Promise<void> {
  const next = sendTimer(timer.accountId, { ...payload, message: sending.message, attempts: sending.attempts, held: true }, new Date(retryAt).toISOString(), timer.epoch, nextId(now.getTime()));
  await transact([
    recordHeldWrite(key, sending.attempts, next.dueAt),
    timerFiredItem(key.pk, timer, now),
    ...timerPutItems(timerOwnerPk(timer), [next], nowIso()),
  ]);
  await sendWakeUps([next]);
}

/**
 * The timers worker's handler for `delivery` timers, given the owner registry (lib/wiring/delivery-owners.ts). Reads
 * nothing but the timer (fire.ts read it) unless the record was held by the throttle (a bundle may have sent it: its
 * record is read before a slot is taken). A crash between the provider's answer and the commit leaves the timer
 * pending, so the message is sent again at most once more (the record id is the provider's idempotency key where it
 * has one); a record that moved on meanwhile (the commit's condition fails) only has its timer marked fired.
 */
export async function onDeliveryTimer(owners: DeliveryOwners, timer: DurableTimer, now: Date): Promise<void> {
  const payload = timer.payload as unknown as SendPayload;
  const pk = timerOwnerPk(timer);
  const key: Key = { pk, sk: payload.record_sk };
  const sending = await sendingOf(timer.accountId, key, payload);
  if (!sending) return markTimerFired(timer, now);
  const { record, attempts } = sending;
  const at = now.getTime();
  const adapter = sending.message && adapterFor(sending.message.channel, ADAPTER_SERVICES);
  const throttled = adapter !== undefined && isThrottled(adapter.channel);
  if (throttled && payload.held && payload.message && (await movedOn(key, attempts))) return markTimerFired(timer, now);
  // The provider's status callback finds this record again by the reference (docs/notifications.md, "Record states").
  let message: OutgoingMessage | undefined = sending.message && { ...(await outgoingOf(owners, timer.accountId, sending.message, payload.about, at)), statusRef: statusRefOf(key) };
  let covered: readonly PendingMessage[] = [];
  if (message && throttled) {
    const step = await throttleStep(message, record.notification_type, at);
    if (step.kind === 'wait') return holdRecord(key, sending, timer, payload, now, step.retryAt);
    message = step.message;
    covered = step.covered;
  }
  const { provider, result } = await attempt(record, message);
  const change = changeOf(result, provider, attempts + 1, at, config().timeScale);
  const retryPayload: SendPayload = { ...payload, message: sending.message, attempts: attempts + 1 };
  const retry = change.kind === 'retry' ? sendTimer(timer.accountId, retryPayload, change.nextAttemptAt, timer.epoch, nextId(at)) : undefined;
  // A record that ended failed or suppressed: the owner's writes ride in the same transaction (an alert's log entry,
  // a broadcast's undelivered check, docs/broadcasts.md).
  const ended =
    change.kind === 'failed' || change.kind === 'suppressed'
      ? owners[payload.about.ownerType].endedWrites({ accountId: timer.accountId, about: payload.about, record, change, attempts: attempts + 1, at })
      : NO_WRITES;
  const writes: TransactItem[] = [
    recordAttemptWrite(key, attempts, change),
    timerFiredItem(pk, timer, now),
    ...outboxStatusWrite(timer.accountId, record, change),
    // Its own waiting item (the throttle held it, or ran for it) is forgotten with the record's end, not by a call after.
    ...(message && change.kind !== 'retry' ? releaseWrites(message, throttled || payload.held === true) : []),
    ...ended.writes,
    ...(retry ? timerPutItems(pk, [retry], nowIso()) : []),
    ...(ended.timers.length ? timerPutItems(pk, ended.timers, nowIso()) : []),
  ];
  try {
    await transact(writes);
  } catch (error) {
    if (isConditionFailure(error) && (await movedOn(key, attempts))) return markTimerFired(timer, now);
    throw error;
  }
  await announceDelivery(timer.accountId, payload.about, record, change, attempts + 1, sending.message?.title ?? undefined);
  if (message && change.kind === 'sent' && covered.length > 0) await settleCovered(message, covered, change);
  if (change.kind === 'failed') {
    logger.error(DELIVERY_FAILED_LOG_MESSAGE, { notificationId: record.id, channel: record.channel, provider, attempts: attempts + 1, error: change.error, ownerId: payload.about.ownerId });
  }
  const wakeUps = [...(retry ? [retry] : []), ...ended.timers];
  if (wakeUps.length) await sendWakeUps(wakeUps);
}
