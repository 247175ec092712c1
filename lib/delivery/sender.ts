// The sender: fires a `delivery` timer by sending its notification record through the channel's adapter, then
// records the outcome in ONE transaction with the timer's fired marker: the record queued → sent (provider and
// its message id) or → failed / suppressed, the outbox message's status with it, a retry timer with backoff, and the
// owner's writes when the record ends failed or suppressed (an alert's log entry, a broadcast's undelivered check).
// Owner-agnostic: the timer payload names the record's key and what the message is about, and what only the owner
// knows (its links, its writes) comes through the delivery port (./port.ts). Rules: docs/notifications.md, "Sending".
import { monotonicFactory } from 'ulid';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { getItem, transact } from '../db/items.ts';
import { findEntity } from '../db/repository.ts';
import type { Key, TransactItem } from '../db/writes.ts';
import { logger } from '../logger.ts';
import { announceDelivery } from '../activity/notifications.ts';
import { ADAPTER_SERVICES } from './adapter-services.ts';
import { adapterFor, unconfiguredReason } from '../channel-adapters/adapters.ts';
import type { DeliveryChannel, OutgoingMessage, SendResult } from '../channel-adapters/port.ts';
import type { PendingMessage } from '../channel-adapters/throttle.ts';
import type { OutboxData } from '../outbox/outbox.ts';
import { CHANNELS } from '../rule-engine/index.ts';
import { markTimerFired, sendWakeUps, timerFiredItem, timerOwnerPk, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { showsLinks } from './actions.ts';
import { NO_WRITES, type DeliveryOwners } from './port.ts';
import { DELIVERY_FAILED_LOG_MESSAGE, outboxStatusWrite, recordAttemptWrite, recordHeldWrite, type DeliveryFields, type RecordChange } from './records.ts';
import { nextAttempt } from './retry.ts';
import { statusRefOf } from './status-callbacks.ts';
import { releaseAll, settleCovered, throttleStep } from './throttling.ts';

/** ULIDs that keep their order within one millisecond (timer ids, log entry ids). */
const nextId = monotonicFactory();

/** The kind of every delivery timer: send (or retry sending) one record. */
export const SEND_TIMER_KIND = 'send';

/** What a message is about: the owner whose partition holds the record, as adapters see it. */
export type About = OutgoingMessage['about'];

/** A delivery timer's payload: the record's sort key in the timer's partition, and what the message is about. */
export interface SendPayload {
  record_sk: string;
  about: About;
}

/** The partition key of an owner's records within its account (`timerOwnerPk` of a delivery timer). */
const recordPartitionOf = (about: Pick<About, 'ownerType' | 'ownerId'>): string => (about.ownerType === 'alert' ? `AL#${about.ownerId}` : `BR#${about.ownerId}`);

/** The delivery timer that sends the record `recordSk` of `about`'s partition at `dueAt`. */
export function sendTimer(accountId: string, about: About, recordSk: string, dueAt: string, epoch: number, timerId: string = nextId()): DurableTimer {
  const payload: SendPayload = { record_sk: recordSk, about };
  return { accountId, ownerType: 'delivery', ownerId: recordPartitionOf(about), timerId, kind: SEND_TIMER_KIND, dueAt, epoch, payload: payload as unknown as Record<string, unknown> };
}

const isChannel = (value: string | null): value is DeliveryChannel => CHANNELS.some((c) => c === value);

/** One attempt through the channel's adapter; a throwing adapter is a retryable failure with its message. */
async function attempt(record: DeliveryFields, message: OutgoingMessage | undefined): Promise<{ provider: string | null; result: SendResult }> {
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

/** The message an adapter gets: the outbox message's address and text, the owner it is about, its action links. */
async function outgoingOf(owners: DeliveryOwners, accountId: string, record: DeliveryFields, about: About, now: number): Promise<OutgoingMessage | undefined> {
  if (!record.outbox_id || !isChannel(record.channel)) return undefined;
  const outbox = await findEntity<OutboxData>('OUTBOX', accountId, record.outbox_id);
  if (!outbox) return undefined;
  const channel = record.channel;
  return {
    notificationId: record.id,
    accountId,
    channel,
    to: outbox.data.to,
    accountUserId: record.account_user_id,
    subject: outbox.data.subject,
    text: outbox.data.body,
    // The owner says which signed links its message carries (an alert's acknowledge and resolve, a broadcast's answer
    // options); channels that show no links get none, without asking it.
    actions: showsLinks(channel) ? await owners[about.ownerType].messageActions({ accountId, ownerId: about.ownerId, accountUserId: record.account_user_id, channel, now }) : [],
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
 * The throttle holds the record: it stays queued, no attempt counted, and a new delivery timer is due when the
 * contact's slot opens (then it goes out, with whatever else waits, as one bundle).
 */
async function holdRecord(key: Key, attempts: number, timer: DurableTimer, payload: SendPayload, now: Date, retryAt: number): Promise<void> {
  const next = sendTimer(timer.accountId, payload.about, payload.record_sk, new Date(retryAt).toISOString(), timer.epoch, nextId(now.getTime()));
  await transact([
    recordHeldWrite(key, attempts, next.dueAt),
    timerFiredItem(key.pk, timer, now),
    ...timerPutItems(timerOwnerPk(timer), [next], nowIso()),
  ]);
  await sendWakeUps([next]);
}

/**
 * The timers worker's handler for `delivery` timers, given the owner registry (lib/wiring/delivery-owners.ts). A crash
 * between the provider's answer and the commit leaves the timer pending, so the message is sent again at most once
 * more (the record id is the provider's idempotency key where it has one).
 */
export async function onDeliveryTimer(owners: DeliveryOwners, timer: DurableTimer, now: Date): Promise<void> {
  const payload = timer.payload as unknown as SendPayload;
  const pk = timerOwnerPk(timer);
  const key: Key = { pk, sk: payload.record_sk };
  const record = await getItem<DeliveryFields>(key, { consistent: true });
  if (!record || record.status !== 'queued') return markTimerFired(timer, now);
  const attempts = record.attempts ?? 0;
  const at = now.getTime();
  const found = await outgoingOf(owners, timer.accountId, record, payload.about, at);
  // The provider's status callback finds this record again by the reference (docs/notifications.md, "Record states").
  let message: OutgoingMessage | undefined = found && { ...found, statusRef: statusRefOf(key) };
  let covered: readonly PendingMessage[] = [];
  if (message && adapterFor(message.channel, ADAPTER_SERVICES)) {
    const step = await throttleStep(message, record.notification_type, at);
    if (step.kind === 'wait') return holdRecord(key, attempts, timer, payload, now, step.retryAt);
    message = step.message;
    covered = step.covered;
  }
  const { provider, result } = await attempt(record, message);
  const change = changeOf(result, provider, attempts + 1, at, config().timeScale);
  const retry = change.kind === 'retry' ? sendTimer(timer.accountId, payload.about, payload.record_sk, change.nextAttemptAt, timer.epoch, nextId(at)) : undefined;
  // A record that ended failed or suppressed: the owner's writes ride in the same transaction (an alert's log entry,
  // a broadcast's undelivered check, docs/broadcasts.md).
  const ended =
    change.kind === 'failed' || change.kind === 'suppressed'
      ? owners[payload.about.ownerType].endedWrites({ accountId: timer.accountId, about: payload.about, record, change, attempts: attempts + 1, at })
      : NO_WRITES;
  const writes: TransactItem[] = [
    recordAttemptWrite(key, attempts, change),
    timerFiredItem(pk, timer, now),
    ...(record.outbox_id ? [outboxStatusWrite(timer.accountId, record.outbox_id, change)] : []),
    ...ended.writes,
    ...(retry ? timerPutItems(pk, [retry], nowIso()) : []),
    ...(ended.timers.length ? timerPutItems(pk, ended.timers, nowIso()) : []),
  ];
  await transact(writes);
  await announceDelivery(timer.accountId, payload.about, record, change, attempts + 1);
  if (message && change.kind === 'sent') await settleCovered(message, covered, change);
  else if (message && change.kind !== 'retry') await releaseAll(message, []);
  if (change.kind === 'failed') {
    logger.error(DELIVERY_FAILED_LOG_MESSAGE, { notificationId: record.id, channel: record.channel, provider, attempts: attempts + 1, error: change.error, ownerId: payload.about.ownerId });
  }
  const wakeUps = [...(retry ? [retry] : []), ...ended.timers];
  if (wakeUps.length) await sendWakeUps(wakeUps);
}
