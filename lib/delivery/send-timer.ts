// What a delivery timer carries: everything the sender needs to send its notification record, so firing it reads
// the timer and nothing else (docs/decisions/0023-what-a-page-writes.md; docs/notifications.md, "Sending").
import { monotonicFactory } from 'ulid';
import type { DeliveryChannel, OutgoingMessage } from '../channel-adapters/port.ts';
import { CHANNELS } from '../rule-engine/index.ts';
import type { DurableTimer } from '../timers/index.ts';
import type { OutboxItem } from '../outbox/outbox.ts';
import type { DeliveryFields } from './records.ts';

/** ULIDs that keep their order within one millisecond (timer ids). */
const nextId = monotonicFactory();

/** The kind of every delivery timer: send (or retry sending) one record. */
export const SEND_TIMER_KIND = 'send';

/** What a message is about: the owner whose partition holds the record, as adapters see it. */
export type About = OutgoingMessage['about'];

/** The message itself, as the record's outbox message holds it, and the record fields the sender and its line need. */
export interface SendMessage {
  notification_id: string;
  account_user_id: string;
  notification_type: string;
  channel: DeliveryChannel;
  to: string;
  subject: string;
  text: string;
  outbox_id: string;
  /** true when the outbox message is in an outbox shard (docs/decisions/0027-sharded-outbox.md); absent before. */
  outbox_sharded?: boolean;
  /** The owner's title when the message was written (an alert's, a broadcast's), for the event line. */
  title: string | null;
}

/**
 * A delivery timer's payload: the record's sort key in the timer's partition and what the message is about; since
 * decision 0023 also the message, the record's attempt count this firing expects (the final transaction's condition),
 * and whether the throttle held the record (a bundle may then have sent it). Timers stored before carry only the
 * first two: the sender reads the record and the outbox message for them.
 */
export interface SendPayload {
  record_sk: string;
  about: About;
  message?: SendMessage;
  attempts?: number;
  held?: boolean;
}

/** One record a message timer sends: its sort key, the message it carries and the attempts its record holds. */
export interface MessageSend {
  record_sk: string;
  message: SendMessage;
  attempts: number;
}

/**
 * A message timer's payload: the first attempt of every channel of one message to one person, fired as one unit (one
 * read of the timer, one transaction for all the records; docs/decisions/0029-one-timer-per-message.md).
 */
export interface MessagePayload {
  about: About;
  sends: MessageSend[];
}

/** Whether a delivery timer's payload is a message timer's (several records) rather than one record's. */
export const isMessagePayload = (payload: SendPayload | MessagePayload): payload is MessagePayload => Array.isArray((payload as MessagePayload).sends);

/** The partition key of an owner's records within its account (`timerOwnerPk` of a delivery timer). */
const recordPartitionOf = (about: Pick<About, 'ownerType' | 'ownerId'>): string => (about.ownerType === 'alert' ? `AL#${about.ownerId}` : `BR#${about.ownerId}`);

/** The delivery timer that sends what `payload` names at `dueAt`: one record, or every channel of one message. */
export function sendTimer(accountId: string, payload: SendPayload | MessagePayload, dueAt: string, epoch: number, timerId: string = nextId()): DurableTimer {
  return { accountId, ownerType: 'delivery', ownerId: recordPartitionOf(payload.about), timerId, kind: SEND_TIMER_KIND, dueAt, epoch, payload: payload as unknown as Record<string, unknown> };
}

export const isChannel = (value: string | null): value is DeliveryChannel => CHANNELS.some((c) => c === value);

/** The record fields the sender works with, from a new payload's message (no read) or from the record read (an older timer). */
export type SendRecord = Pick<DeliveryFields, 'id' | 'account_user_id' | 'channel' | 'notification_type' | 'outbox_id' | 'outbox_sharded'>;

export const recordOfMessage = (message: SendMessage): SendRecord => ({
  id: message.notification_id,
  account_user_id: message.account_user_id,
  channel: message.channel,
  notification_type: message.notification_type,
  outbox_id: message.outbox_id,
  ...(message.outbox_sharded === true ? { outbox_sharded: true } : {}),
});

/** The message a record's delivery sends, as its outbox message holds it; `title` is the owner's title when known. */
export const messageOfRecord = (record: SendRecord, outbox: Pick<OutboxItem, 'id' | 'data'>, title: string | null): SendMessage => ({
  notification_id: record.id,
  account_user_id: record.account_user_id,
  notification_type: record.notification_type,
  channel: outbox.data.channel,
  to: outbox.data.to,
  subject: outbox.data.subject,
  text: outbox.data.body,
  outbox_id: outbox.id,
  ...(record.outbox_sharded === true ? { outbox_sharded: true } : {}),
  title,
});
