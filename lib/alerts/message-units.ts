// The writes of decided messages, for alerts and broadcasts alike: per message its notification records, per
// addressed channel the outbox message and its alias, and one delivery timer that carries them all to the sender;
// the `notified` log entry that tells it. What each of them holds: docs/decisions/0023-what-a-page-writes.md.
import { monotonicFactory } from 'ulid';
import { aliasCreate, putNew, type TransactItem } from '../db/writes.ts';
import { outboxTinyIds, prepareOutboxMessage, type OutboxDraft } from '../outbox/outbox.ts';
import type { Channel, NotificationAction, NotificationType } from '../rule-engine/index.ts';
import { timerPutItems, type DurableTimer } from '../timers/index.ts';
import type { CyclePosition } from '../delivery/cycle.ts';
import { sendTimer, type MessageSend } from '../delivery/sender.ts';
import { messageOfRecord } from '../delivery/send-timer.ts';
import { addressFor, type PersonContact } from './channels.ts';
import { notificationSk, type AlertNotificationItem, type LogEntry } from './items.ts';

/** ULIDs that keep their order within one millisecond, so a step's log entries read back in the order written. */
export const nextId = monotonicFactory();

/** One message to send: to whom, why, and on which layer and pass (null for messages outside an escalation). */
export interface Message {
  account_user_id: string;
  type: NotificationType;
  layer: number | null;
  pass: number | null;
  /** What the message says beyond the alert itself. */
  why: string;
  /** The escalation that paged (pages only): the person's notification cycle follows that workflow. */
  escalation?: number;
}

/** A page's notification cycle going on after this message: the matched rule's actions and the next step. */
export interface CycleNext {
  actions: readonly NotificationAction[];
  position: CyclePosition;
  delayMs: number;
}

/** How one message goes out: to nobody (the person is gone, or their rule ignores it), or by these channels. */
export type MessageDecision =
  | { message: Message; kind: 'no_contact'; reason: string }
  | { message: Message; kind: 'ignored' }
  | { message: Message; kind: 'channels'; contact: PersonContact; via: 'rule' | 'defaults'; channels: Channel[]; cycle?: CycleNext };

/**
 * Writes one message needs besides its log entry: a record per channel, per addressed channel its outbox message and
 * alias, one delivery timer for all the addressed channels; one more for the timer of the cycle's next step.
 */
export function messageWriteCount(decision: MessageDecision): number {
  if (decision.kind !== 'channels') return 1;
  const addressed = decision.channels.filter((channel) => addressFor(decision.contact, channel).ok).length;
  return decision.channels.length + 2 * addressed + (addressed > 0 ? 1 : 0) + (decision.cycle ? 1 : 0);
}

/**
 * Whose notification records a message's writes are: the partition they go in, the fields naming the owner on
 * each record, and the outbox message a channel sends. Alerts and broadcasts write records of the same shape.
 */
export interface MessageOwner {
  accountId: string;
  pk: string;
  recordType: 'ALERT_NOTIFICATION' | 'BROADCAST_NOTIFICATION';
  /** `{alertId}` on an alert's records, `{broadcastId}` on a broadcast's. */
  recordFields: Readonly<Record<string, string>>;
  /** What a notification rule's `ignore` ignores, in the record's reason: `alert`, `broadcast`. */
  noun: string;
  draft(contact: PersonContact, channel: Channel, to: string, message: Message): OutboxDraft;
  /** What the sent message is about (adapters act on replies with it), and the epoch its delivery timers carry. */
  about: { ownerType: 'alert' | 'broadcast'; ownerId: string; prefixId: string };
  /** The owner's title, carried by each delivery timer for its event line (the sender reads no owner). */
  title: string;
  epoch: number;
  /** The timer of a page's next cycle step (alerts only: other messages have no cycle). */
  cycleTimer?: (message: Message, cycle: CycleNext, now: number) => DurableTimer;
}

/** One message's writes (its notification records, outbox messages and timers) with the `notified` log entry that tells it. */
export interface MessageUnit {
  writes: TransactItem[];
  log: LogEntry;
  /** Timers `writes` stores (a delivery timer per queued record, the cycle's next step): woken after the commit. */
  timers: DurableTimer[];
}

/** The notification records and outbox messages of each decided message, and its `notified` log entry. */
export async function messageUnits(owner: MessageOwner, decisions: readonly MessageDecision[], now: number): Promise<MessageUnit[]> {
  const at = new Date(now).toISOString();
  const outboxes = await prepareOutboxes(owner, decisions);
  const units: MessageUnit[] = [];
  for (const decision of decisions) {
    const { message } = decision;
    const record = (channel: Channel | null, status: AlertNotificationItem['status'], outboxId: string | null, reason: string | null): AlertNotificationItem => {
      const id = nextId(now);
      return {
        pk: owner.pk,
        sk: notificationSk(id),
        // Broadcast records have the same shape with their own type and `broadcastId` (docs/broadcasts.md).
        type: owner.recordType as AlertNotificationItem['type'],
        accountId: owner.accountId,
        ...(owner.recordFields as { alertId: string }),
        id,
        account_user_id: message.account_user_id,
        channel,
        notification_type: message.type,
        status,
        layer: message.layer,
        pass: message.pass,
        outbox_id: outboxId,
        // Its outbox message is in a shard; records written before sharding lack this (docs/decisions/0027-sharded-outbox.md).
        ...(outboxId === null ? {} : { outbox_sharded: true }),
        reason,
        created_at: at,
        sent_at: null,
      };
    };
    if (decision.kind === 'no_contact') {
      units.push({ timers: [], writes: [putNew(record(null, 'failed', null, decision.reason))], log: notifiedEntry(decision, owner.noun) });
      continue;
    }
    if (decision.kind === 'ignored') {
      units.push({ timers: [], writes: [putNew(record(null, 'suppressed', null, `the notification rule of the account user ignores this ${owner.noun}`))], log: notifiedEntry(decision, owner.noun) });
      continue;
    }
    const { contact } = decision;
    const writes: TransactItem[] = [];
    const timers: DurableTimer[] = [];
    const queued: string[] = [];
    const sends: MessageSend[] = [];
    for (const channel of decision.channels) {
      const address = addressFor(contact, channel);
      if (!address.ok) {
        writes.push(putNew(record(channel, 'failed', null, address.reason)));
        continue;
      }
      const outbox = outboxes.get(decision)!.get(channel)!;
      const queuedRecord = record(channel, 'queued', outbox.item.id, null);
      // Page messages are not capped like configuration: the outbox count is left alone (docs/alerts.md, "Notifications").
      writes.push(putNew(outbox.item), aliasCreate(outbox.item), ...outbox.writes, putNew(queuedRecord));
      sends.push({ record_sk: queuedRecord.sk, message: messageOfRecord(queuedRecord, outbox.item, owner.title), attempts: 0 });
      queued.push(channel);
    }
    if (sends.length > 0) {
      // ONE delivery timer for every channel of the message, written with the records, so a queued message is always
      // sent; it carries the messages, so the sender reads nothing else (docs/decisions/0023-what-a-page-writes.md,
      // docs/decisions/0029-one-timer-per-message.md).
      const send = sendTimer(owner.accountId, { about: owner.about, sends }, at, owner.epoch, nextId(now));
      writes.push(...timerPutItems(owner.pk, [send], at));
      timers.push(send);
    }
    if (decision.cycle && owner.cycleTimer) {
      const next = owner.cycleTimer(message, decision.cycle, now);
      writes.push(...timerPutItems(owner.pk, [next], at));
      timers.push(next);
    }
    units.push({ writes, timers, log: notifiedEntry(decision, owner.noun, queued) });
  }
  return units;
}

/**
 * The `notified` entry telling how a decided message goes out, `queued` the channels with an address: known before
 * anything is written, so a step's transaction budget counts its log exactly (./effects.ts).
 */
export function notifiedEntry(decision: MessageDecision, noun: string, queued: readonly string[] = addressedChannels(decision)): LogEntry {
  const { message } = decision;
  const where = { account_user_id: message.account_user_id, layer: message.layer ?? undefined, pass: message.pass ?? undefined };
  const who = `Account user ${message.account_user_id}`;
  if (decision.kind === 'no_contact') return { event: 'notified', message: `${who} could not be notified (${message.type}): ${decision.reason}.`, ...where };
  if (decision.kind === 'ignored') return { event: 'notified', message: `${who} is not notified (${message.type}): their notification rule ignores this ${noun}.`, ...where };
  const how = decision.via === 'rule' ? 'their notification rule' : 'their default channels';
  return {
    event: 'notified',
    message:
      queued.length > 0
        ? `${who} is notified (${message.type}) by ${queued.join(', ')} (${how}).`
        : `${who} could not be notified (${message.type}): no channel of ${how} has an address.`,
    ...where,
  };
}

/** The channels of a decision that have an address: those its message is queued on. */
const addressedChannels = (decision: MessageDecision): string[] =>
  decision.kind === 'channels' ? decision.channels.filter((channel) => addressFor(decision.contact, channel).ok) : [];

type PreparedOutbox = Awaited<ReturnType<typeof prepareOutboxMessage>>;

/**
 * The outbox message of every addressed channel of every message, their tiny ids taken with ONE counter update for
 * the whole step (10 people on two channels: one call, not twenty).
 */
async function prepareOutboxes(owner: MessageOwner, decisions: readonly MessageDecision[]): Promise<Map<MessageDecision, Map<Channel, PreparedOutbox>>> {
  const addressed = decisions.flatMap((decision) =>
    decision.kind === 'channels' ? decision.channels.flatMap((channel) => (addressFor(decision.contact, channel).ok ? [{ decision, channel }] : [])) : [],
  );
  const tinyIds = await outboxTinyIds(owner.accountId, addressed.length);
  const prepared = new Map<MessageDecision, Map<Channel, PreparedOutbox>>();
  for (const [index, { decision, channel }] of addressed.entries()) {
    if (decision.kind !== 'channels') continue;
    const address = addressFor(decision.contact, channel);
    if (!address.ok) continue;
    const byChannel = prepared.get(decision) ?? new Map<Channel, PreparedOutbox>();
    byChannel.set(channel, await prepareOutboxMessage(owner.accountId, owner.draft(decision.contact, channel, address.to, decision.message), {}, tinyIds[index]));
    prepared.set(decision, byChannel);
  }
  return prepared;
}
