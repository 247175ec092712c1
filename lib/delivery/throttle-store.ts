// The throttle's storage: per contact method (account, channel, address) one item with the instants of its recent
// sends, and one item per message waiting for a slot. Rules: throttle.ts; docs/notifications.md, "The throttle".
//
// How the delivery worker uses it: through `throttleStep` (throttling.ts) before every send. Channels without limits
// (push, chat) send at once; otherwise the contact method's next slot is reserved (`reserveSend`); without one the
// message is kept (`holdPending`) and its timer runs again at `retryAt`; with one and others waiting, ONE message
// stands for all of them (`bundleOutgoing`), and they are forgotten once it went (`releasePending`).
//
// A slot is reserved before the provider is called: a send that then fails has used its slot (the contact was not
// reached, but the next try waits like any other message, which is what a retry with backoff does anyway). A bundle
// whose send failed keeps its messages waiting for the trigger's retry.
import { nowMs } from '../clock.ts';
import { config } from '../config.ts';
import { contactPendingSk, contactPk, CONTACT_PENDING_SK_PREFIX, CONTACT_SENDS_SK } from '../db/keys.ts';
import { deleteItem, getItem, putIfAbsent, queryPrefix, transact } from '../db/items.ts';
import { PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { deleteAny, putNew, versionedPut, type TransactItem } from '../db/writes.ts';
import { conflict } from '../errors.ts';
import type { BundledMessage, DeliveryChannel, MessageAction, OutgoingMessage } from '../channel-adapters/port.ts';
import { bundleMessage, decide, historySpanMs, recordSend, type PendingMessage } from '../channel-adapters/throttle.ts';

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
  // Independent deletes: sent at once, not one after the other.
  await Promise.all(notificationIds.map((id) => deleteItem({ pk, sk: contactPendingSk(id) })));
}

/** The write that forgets one waiting message, for the transaction that records its end (no call of its own). */
export const releasePendingWrite = (contact: Contact, channel: DeliveryChannel, notificationId: string): TransactItem =>
  deleteAny({ pk: contactPk(contact.accountId, channel, contact.address), sk: contactPendingSk(notificationId) });

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

/**
 * The one message sent when a slot opens with messages waiting: the triggering message's address and id, the
 * bundle's text, and the actions given (email shows each bundled alert's links). The phone adapters rebuild the
 * text from `covers` with their reply instruction ("reply 4 to acknowledge all"), which names the reply code.
 */
export function bundleOutgoing(trigger: OutgoingMessage, covers: readonly PendingMessage[], actions = trigger.actions): BundledMessage {
  const { subject, text } = bundleMessage(covers, '');
  return { ...trigger, subject, text, actions, covers };
}

