// The throttle's storage: per contact method (account, channel, address) one item with the instants of its recent
// sends, and one item per message waiting for a slot. Rules: throttle.ts; docs/notifications.md, "The throttle".
//
// How the delivery worker uses it: call `sendThrottled(adapter, message, notificationType, now)` instead of
// `adapter.send(message)` for every message. It
//   - sends at once on channels without limits (push, chat);
//   - otherwise reserves the contact method's next slot (`reserveSend`). When the throttle says wait, it keeps the
//     message (`holdPending`) and answers `{ outcome: 'held', retryAt }`: leave the record queued (reason
//     "throttled until …") and run its delivery timer again at `retryAt`;
//   - when the slot is free and nothing else waits, sends the message as it is;
//   - when others wait, sends ONE message standing for all of them (`bundleOutgoing`), forgets them once it went
//     (`releasePending`) and answers them in `bundled` (notification id, owner): mark those records sent with
//     the bundle's provider id. Their own timers, firing later, find the records sent and do nothing.
// A held message's timer firing at `retryAt` calls sendThrottled again with the same message.
//
// A slot is reserved before the provider is called: a send that then fails has used its slot (the contact was not
// reached, but the next try waits like any other message, which is what a retry with backoff does anyway). A bundle
// whose send failed keeps its messages waiting for the trigger's retry.
import { nowMs } from '../clock.ts';
import { config } from '../config.ts';
import { contactPendingSk, contactPk, CONTACT_PENDING_SK_PREFIX, CONTACT_SENDS_SK } from '../db/keys.ts';
import { deleteItem, getItem, putIfAbsent, queryPrefix, transact } from '../db/items.ts';
import { PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { putNew, versionedPut } from '../db/writes.ts';
import { conflict } from '../errors.ts';
import type { BundledMessage, ChannelAdapter, DeliveryChannel, MessageAction, OutgoingMessage, SendResult } from '../notify/port.ts';
import { bundleMessage, decide, historySpanMs, isThrottled, recordSend, type PendingMessage } from '../notify/throttle.ts';

/** Whom a message goes to: the throttle counts per account, channel and address (an E.164 number, an email). */
export interface Contact {
  readonly accountId: string;
  readonly address: string;
}

interface SendsItem {
  pk: string;
  sk: string;
  /** Epoch ms of the sends still inside some window of the channel. */
  sends: number[];
  version: number;
  ttl: number;
}

type PendingItem = PendingMessage & { pk: string; sk: string; ttl: number };

/** A waiting message is dropped by TTL after a week (its alert's own timers long since gave up on it). */
const PENDING_RETENTION_SECONDS = 7 * 24 * 3600;

const sendsKey = (contact: Contact, channel: DeliveryChannel) => ({ pk: contactPk(contact.accountId, channel, contact.address), sk: CONTACT_SENDS_SK });

export type Reservation = { readonly ok: true } | { readonly ok: false; readonly retryAt: number };

/**
 * Takes the contact method's next slot at `now` if the throttle allows it: one conditional write of the send history
 * (on the version read, or on the item not existing yet). A writer that lost the race reads again, and then usually
 * finds the slot taken and answers `retryAt`. Never blocks: a full window answers when it opens.
 */
export async function reserveSend(contact: Contact, channel: DeliveryChannel, now: number = nowMs()): Promise<Reservation> {
  const scale = config().timeScale;
  const key = sendsKey(contact, channel);
  return retryOnConflict(
    async () => {
      const stored = await getItem<SendsItem>(key);
      const decision = decide(stored?.sends ?? [], channel, now, scale);
      if (!decision.send) return { ok: false, retryAt: decision.until };
      const next: SendsItem = {
        ...key,
        sends: recordSend(stored?.sends ?? [], channel, now, scale),
        version: (stored?.version ?? 0) + 1,
        ttl: Math.ceil((now + historySpanMs(channel, scale)) / 1000) + 3600,
      };
      await transact([stored ? versionedPut(next, stored.version) : putNew(next)]);
      return { ok: true };
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: () => conflict(`the send history of ${channel} ${contact.address} kept changing; retry`) },
  );
}

/** Keeps a message that has to wait for the contact's next slot; holding the same notification again changes nothing. */
export async function holdPending(contact: Contact, channel: DeliveryChannel, message: PendingMessage): Promise<void> {
  const item: PendingItem = {
    ...message,
    pk: contactPk(contact.accountId, channel, contact.address),
    sk: contactPendingSk(message.notificationId),
    ttl: Math.ceil(message.heldAt / 1000) + PENDING_RETENTION_SECONDS,
  };
  await putIfAbsent(item);
}

/** Everything waiting for the contact method, oldest first. */
export async function pendingFor(contact: Contact, channel: DeliveryChannel): Promise<PendingMessage[]> {
  const items = await queryPrefix<PendingItem>(contactPk(contact.accountId, channel, contact.address), CONTACT_PENDING_SK_PREFIX);
  return items
    .map(({ pk: _pk, sk: _sk, ttl: _ttl, ...message }) => message)
    .sort((a, b) => a.heldAt - b.heldAt || a.notificationId.localeCompare(b.notificationId));
}

/** Forgets the waiting messages that went out (in a bundle); ids that are not waiting are ignored. */
export async function releasePending(contact: Contact, channel: DeliveryChannel, notificationIds: readonly string[]): Promise<void> {
  const pk = contactPk(contact.accountId, channel, contact.address);
  for (const id of notificationIds) await deleteItem({ pk, sk: contactPendingSk(id) });
}

/** The pending form of a message about to be held (its signed links kept for an email bundle). */
export function pendingOf(message: OutgoingMessage, notificationType: string, heldAt: number): PendingMessage {
  return {
    notificationId: message.notificationId,
    accountUserId: message.accountUserId,
    ownerType: message.about.ownerType,
    ownerId: message.about.ownerId,
    prefixId: message.about.prefixId,
    subject: message.subject,
    notificationType,
    heldAt,
    actions: message.actions,
  };
}

/** The links of every bundled message, each labelled with its alert ("Acknowledge alt_…"), each alert once. Pure. */
export function bundleActions(covers: readonly PendingMessage[]): MessageAction[] {
  const seen = new Set<string>();
  const actions: MessageAction[] = [];
  for (const cover of covers) {
    if (seen.has(cover.ownerId)) continue;
    seen.add(cover.ownerId);
    for (const action of cover.actions ?? []) actions.push({ ...action, label: `${action.label} ${cover.prefixId}` });
  }
  return actions;
}

export type ThrottledSend =
  | { readonly outcome: 'held'; readonly retryAt: number }
  /** `bundled`: the other messages the bundle stood for (their alerts name the partitions of their records). */
  | { readonly outcome: 'sent'; readonly result: SendResult; readonly bundled: readonly PendingMessage[] };

/** Sends a message through the throttle: at once, held for a later slot, or as a bundle with what waited. */
export async function sendThrottled(adapter: ChannelAdapter, message: OutgoingMessage, notificationType: string, now: number = nowMs()): Promise<ThrottledSend> {
  const channel = message.channel;
  if (!isThrottled(channel)) return { outcome: 'sent', result: await adapter.send(message), bundled: [] };
  const contact: Contact = { accountId: message.accountId, address: message.to };
  const slot = await reserveSend(contact, channel, now);
  if (!slot.ok) {
    await holdPending(contact, channel, pendingOf(message, notificationType, now));
    return { outcome: 'held', retryAt: slot.retryAt };
  }
  const waiting = await pendingFor(contact, channel);
  const others = waiting.filter((p) => p.notificationId !== message.notificationId);
  if (others.length === 0) {
    const result = await adapter.send(message);
    if (waiting.length > 0 && result.status === 'sent') await releasePending(contact, channel, [message.notificationId]);
    return { outcome: 'sent', result, bundled: [] };
  }
  const own = waiting.find((p) => p.notificationId === message.notificationId) ?? pendingOf(message, notificationType, now);
  const covers = [own, ...others].sort((a, b) => a.heldAt - b.heldAt || a.notificationId.localeCompare(b.notificationId));
  const result = await adapter.send(bundleOutgoing(message, covers, bundleActions(covers)));
  if (result.status !== 'sent') return { outcome: 'sent', result, bundled: [] };
  await releasePending(contact, channel, covers.map((c) => c.notificationId));
  return { outcome: 'sent', result, bundled: others };
}

/**
 * The one message sent when a slot opens with messages waiting: the triggering message's address and id, the
 * bundle's text, and the actions given (email shows each bundled alert's links). The phone adapters rebuild the
 * text from `covers` with their reply instruction ("reply 4 to acknowledge all"), which names the reply code.
 */
export function bundleOutgoing(trigger: OutgoingMessage, covers: readonly PendingMessage[], actions = trigger.actions): BundledMessage {
  const { subject, text } = bundleMessage(covers, '');
  return { ...trigger, subject, text, actions, covers };
}

