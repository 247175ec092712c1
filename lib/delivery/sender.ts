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
import { announceDelivery } from './activity.ts';
import { ADAPTER_SERVICES } from './adapter-services.ts';
import { adapterFor, unconfiguredReason } from '../channel-adapters/adapters.ts';
import type { OutgoingMessage, SendResult } from '../channel-adapters/port.ts';
import { isThrottled, type PendingMessage } from '../channel-adapters/throttle.ts';
import { isProviderFailure } from '../channel-adapters/breaker.ts';
import { breakerOf, countAttempt, heldWrites, type BreakerItem } from './breaker.ts';
import { findOutboxMessage } from '../outbox/messages.ts';
import { markTimerFired, sendWakeUps, timerFiredItem, timerOwnerPk, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { showsLinks } from './actions.ts';
import { NO_WRITES, type DeliveryOwners } from './port.ts';
import { DELIVERY_FAILED_LOG_MESSAGE, outboxStatusWrite, recordAttemptWrite, recordHeldWrite, type DeliveryFields, type RecordChange } from './records.ts';
import { nextAttempt } from './retry.ts';
import { isChannel, isMessagePayload, messageOfRecord, recordOfMessage, sendTimer, type About, type MessagePayload, type SendMessage, type SendPayload, type SendRecord } from './send-timer.ts';
import { statusRefOf } from './status-callbacks.ts';
import { giveBackClaims, releaseWrites, settleCovered, throttleStep } from './throttling.ts';

export { SEND_TIMER_KIND, sendTimer, type About, type MessagePayload, type MessageSend, type SendMessage, type SendPayload } from './send-timer.ts';

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
 * What one record's firing comes to before its commit: nothing (it moved on: a held record a bundle sent), held by the
 * throttle (a new held timer), or attempted (the record's outcome). `writes` go in the firing's transaction with the
 * timer's fired marker; `after` runs once it committed, then `wakeUps` are sent.
 */
type RecordOutcome =
  | { readonly kind: 'moved-on' }
  | { readonly kind: 'held' | 'attempted'; readonly writes: TransactItem[]; readonly wakeUps: DurableTimer[]; readonly after: () => Promise<void> };

/** An outcome with writes for the firing's transaction. */
type Committed = Exclude<RecordOutcome, { kind: 'moved-on' }>;

const NOTHING_AFTER = async () => {};

/**
 * The throttle holds the record: it stays queued, no attempt counted, and a new delivery timer (marked `held`: a
 * bundle may send the record before it fires) is due when the contact's slot opens; then it goes out, with whatever
 * else waits, as one bundle.
 */
function holdRecord(key: Key, sending: Sending, timer: DurableTimer, payload: SendPayload, now: Date, retryAt: number): RecordOutcome {
  const next = sendTimer(timer.accountId, { ...payload, message: sending.message, attempts: sending.attempts, held: true }, new Date(retryAt).toISOString(), timer.epoch, nextId(now.getTime()));
  return { kind: 'held', writes: [recordHeldWrite(key, sending.attempts, next.dueAt), ...timerPutItems(timerOwnerPk(timer), [next], nowIso())], wakeUps: [next], after: NOTHING_AFTER };
}

/**
 * Its provider is down: the record is held once, with the reason (docs/decisions/0032-provider-breaker.md), and no
 * timer of its own; the provider's probe sends it again when the provider answers.
 */
function holdForProvider(owners: DeliveryOwners, timer: DurableTimer, key: Key, sending: Sending, payload: SendPayload, message: OutgoingMessage, breaker: BreakerItem, at: number): RecordOutcome {
  const { record, attempts } = sending;
  const held = heldWrites({ accountId: timer.accountId, key, record, attempts, message, notificationType: record.notification_type, payload: { ...payload, message: sending.message }, timer, breaker, at });
  const owner = owners[payload.about.ownerType].heldWrites?.({ accountId: timer.accountId, about: payload.about, record, reason: held.reason, at }) ?? NO_WRITES;
  const after = async () => logger.debug('Notification held: its provider is down', { notificationId: record.id, reason: held.reason });
  return { kind: 'held', writes: [...held.writes, ...owner.writes, ...(owner.timers.length ? timerPutItems(key.pk, owner.timers, nowIso()) : [])], wakeUps: [...owner.timers], after };
}

/** Sends one record (through the throttle on a throttled channel) and answers the writes recording how it went. */
async function sendRecord(owners: DeliveryOwners, timer: DurableTimer, key: Key, sending: Sending, payload: SendPayload, now: Date): Promise<RecordOutcome> {
  const { record, attempts } = sending;
  const at = now.getTime();
  const adapter = sending.message && adapterFor(sending.message.channel, ADAPTER_SERVICES);
  const throttled = adapter !== undefined && isThrottled(adapter.channel);
  // A held record (by the throttle, or sent again after its provider was down) may have gone out meanwhile: read first.
  if (payload.held && payload.message && (await movedOn(key, attempts))) return { kind: 'moved-on' };
  // The provider's status callback finds this record again by the reference (docs/notifications.md, "Record states").
  let message: OutgoingMessage | undefined = sending.message && { ...(await outgoingOf(owners, timer.accountId, sending.message, payload.about, at)), statusRef: statusRefOf(key) };
  const own = message;
  // Its provider is down: held, not attempted (no throttle slot taken either).
  const breaker = own && adapter ? await breakerOf(adapter) : undefined;
  if (own && breaker?.open) return holdForProvider(owners, timer, key, sending, payload, own, breaker.item, at);
  let covered: readonly PendingMessage[] = [];
  let claimed: readonly string[] = [];
  if (message && throttled) {
    const step = await throttleStep(message, record.notification_type, at);
    if (step.kind === 'wait') return holdRecord(key, sending, timer, payload, now, step.retryAt);
    message = step.message;
    covered = step.covered;
    claimed = step.claimed;
  }
  const { provider, result } = await attempt(record, message);
  // A bundle that did not go gives its messages back to the next slot; one that went keeps them until settled.
  if (message && result.status !== 'sent') await giveBackClaims(message, claimed);
  if (own && adapter) {
    // This failure may be the one that opens the breaker: then the message is held with the others, not retried alone.
    const counted = await countAttempt(adapter, result, at);
    if (counted.open && isProviderFailure(result)) return holdForProvider(owners, timer, key, sending, payload, own, counted.item, at);
  }
  const change = changeOf(result, provider, attempts + 1, at, config().timeScale);
  const retryPayload: SendPayload = { ...payload, message: sending.message, attempts: attempts + 1 };
  const retry = change.kind === 'retry' ? sendTimer(timer.accountId, retryPayload, change.nextAttemptAt, timer.epoch, nextId(at)) : undefined;
  // A record that ended failed or suppressed: the owner's writes ride in the same transaction (an alert's log entry,
  // a broadcast's undelivered check, docs/broadcasts.md).
  const ended =
    change.kind === 'failed' || change.kind === 'suppressed'
      ? owners[payload.about.ownerType].endedWrites({ accountId: timer.accountId, about: payload.about, record, change, attempts: attempts + 1, at })
      : NO_WRITES;
  const pk = key.pk;
  const writes: TransactItem[] = [
    recordAttemptWrite(key, attempts, change),
    ...outboxStatusWrite(timer.accountId, record, change),
    // Its own waiting item (the throttle held it, or ran for it) is forgotten with the record's end, not by a call after.
    ...(message && change.kind !== 'retry' ? releaseWrites(message, throttled || payload.held === true) : []),
    ...ended.writes,
    ...(retry ? timerPutItems(pk, [retry], nowIso()) : []),
    ...(ended.timers.length ? timerPutItems(pk, ended.timers, nowIso()) : []),
  ];
  const after = async () => {
    await announceDelivery(timer.accountId, payload.about, record, change, attempts + 1, sending.message?.title ?? undefined);
    if (message && change.kind === 'sent' && covered.length > 0) await settleCovered(message, covered, change);
    if (change.kind === 'failed') {
      logger.error(DELIVERY_FAILED_LOG_MESSAGE, { notificationId: record.id, channel: record.channel, provider, attempts: attempts + 1, error: change.error, ownerId: payload.about.ownerId });
    }
  };
  return { kind: 'attempted', writes, wakeUps: [...(retry ? [retry] : []), ...ended.timers], after };
}

/** After the firing's transaction: each record's follow-ups, then the wake-ups of the timers it stored. */
async function settle(outcomes: readonly RecordOutcome[]): Promise<void> {
  const wakeUps: DurableTimer[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === 'moved-on') continue;
    await outcome.after();
    wakeUps.push(...outcome.wakeUps);
  }
  if (wakeUps.length) await sendWakeUps(wakeUps);
}

/**
 * The timers worker's handler for `delivery` timers, given the owner registry (lib/wiring/delivery-owners.ts). Reads
 * nothing but the timer (fire.ts read it) unless the record was held by the throttle (a bundle may have sent it: its
 * record is read before a slot is taken). A crash between the provider's answer and the commit leaves the timer
 * pending, so the message is sent again at most once more (the record id is the provider's idempotency key where it
 * has one); a record that moved on meanwhile (the commit's condition fails) only has its timer marked fired.
 * A message timer (several records) is sent by onMessageTimer.
 */
export async function onDeliveryTimer(owners: DeliveryOwners, timer: DurableTimer, now: Date): Promise<void> {
  const payload = timer.payload as unknown as SendPayload | MessagePayload;
  if (isMessagePayload(payload)) return onMessageTimer(owners, timer, payload, now);
  const key: Key = { pk: timerOwnerPk(timer), sk: payload.record_sk };
  const sending = await sendingOf(timer.accountId, key, payload);
  if (!sending) return markTimerFired(timer, now);
  const outcome = await sendRecord(owners, timer, key, sending, payload, now);
  if (outcome.kind === 'moved-on') return markTimerFired(timer, now);
  try {
    await transact([...outcome.writes, timerFiredItem(key.pk, timer, now)]);
  } catch (error) {
    if (outcome.kind === 'attempted' && isConditionFailure(error) && (await movedOn(key, sending.attempts))) return markTimerFired(timer, now);
    throw error;
  }
  await settle([outcome]);
}

/**
 * A message timer: every channel of one message sent at once, and all their records recorded in ONE transaction with
 * the timer's fired marker (docs/decisions/0029-one-timer-per-message.md). A record whose send could not be made at
 * all (its owner's links or the throttle's store failed) gets a timer of its own, due at once, so the others are not
 * sent again for it. A record that moved on meanwhile is left out of the commit, as one record's firing would be.
 */
async function onMessageTimer(owners: DeliveryOwners, timer: DurableTimer, payload: MessagePayload, now: Date): Promise<void> {
  const pk = timerOwnerPk(timer);
  const parts = payload.sends.map((send) => {
    const key: Key = { pk, sk: send.record_sk };
    const sending: Sending = { record: recordOfMessage(send.message), attempts: send.attempts, message: send.message };
    const single: SendPayload = { record_sk: send.record_sk, about: payload.about, message: send.message, attempts: send.attempts };
    return { key, sending, single };
  });
  const settled = await Promise.allSettled(parts.map((part) => sendRecord(owners, timer, part.key, part.sending, part.single, now)));
  let live = parts.flatMap((part, i) => {
    const result = settled[i]!;
    if (result.status === 'fulfilled') return result.value.kind === 'moved-on' ? [] : [{ ...part, outcome: result.value }];
    logger.warn('Delivery could not be attempted; its record gets a timer of its own', { notificationId: part.sending.record.id, error: result.reason as Error });
    const own = sendTimer(timer.accountId, part.single, now.toISOString(), timer.epoch, nextId(now.getTime()));
    const outcome: Committed = { kind: 'held', writes: timerPutItems(pk, [own], nowIso()), wakeUps: [own], after: NOTHING_AFTER };
    return [{ ...part, outcome }];
  });
  const commit = () => transact([...live.flatMap((part) => part.outcome.writes), timerFiredItem(pk, timer, now)]);
  try {
    await commit();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Which records moved on (a bundle recorded them, the owner was deleted): the rest are committed without them.
    const moved = await Promise.all(live.map((part) => movedOn(part.key, part.sending.attempts)));
    if (!moved.includes(true)) throw error;
    live = live.filter((_, i) => !moved[i]);
    await commit();
  }
  await settle(live.map((part) => part.outcome));
}
