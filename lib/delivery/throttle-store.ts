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
import { deleteItem, getItem, putIfAbsent, queryPrefix, updateIf } from '../db/items.ts';
import { deleteAny, type TransactItem } from '../db/writes.ts';
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

/** A bundle about to go claims the waiting messages it names (`claimed_by`, its trigger's id) until `claimed_until`. */
interface Claim {
  claimed_by?: string;
  claimed_until?: number;
}

type PendingItem = PendingMessage & Claim & { pk: string; sk: string; ttl: number };

/** A waiting message and who claimed it for a bundle about to go, if anyone did. */
export type WaitingMessage = PendingMessage & { readonly claimedBy?: string; readonly claimedUntil?: number };

/**
 * How long a bundle's claim keeps its messages out of other bundles: longer than any send and its commit take (the
 * timers function's timeout is 60 s). Real time, not scaled: it bounds a process, not a product wait. A sender that
 * died after claiming only delays the claimed messages this long; their own timers then send them.
 */
export const BUNDLE_CLAIM_MS = 120_000;

/** A waiting message is dropped by TTL after a week (its alert's own timers long since gave up on it). */
const PENDING_RETENTION_SECONDS = 7 * 24 * 3600;

const sendsKey = (contact: Contact, channel: DeliveryChannel) => ({ pk: contactPk(contact.accountId, channel, contact.address), sk: CONTACT_SENDS_SK });

export type Reservation = { readonly ok: true } | { readonly ok: false; readonly retryAt: number };

/** After losing a race for the slot, the message waits this long (scaled) and then goes in the bundle of what waits. */
const LOST_RACE_WAIT_MS = 1_000;

/**
 * Takes the contact method's next slot at `now` if the throttle allows it: one read of the send history and, when a
 * slot is free, ONE conditional UpdateItem (outside any transaction, so concurrent writers of this hot item queue up
 * instead of cancelling each other) on the version read. Never retried: a writer that lost the race is told to wait
 * (its message is held and goes out in the bundle the winner's next slot sends). docs/decisions/0032-provider-breaker.md.
 */
export async function reserveSend(contact: Contact, channel: DeliveryChannel, now: number = nowMs()): Promise<Reservation> {
  const scale = config().timeScale;
  const key = sendsKey(contact, channel);
  const stored = await getItem<SendsItem>(key);
  const decision = decide(stored?.sends ?? [], channel, now, scale);
  if (!decision.send) return { ok: false, retryAt: decision.until };
  const sends = recordSend(stored?.sends ?? [], channel, now, scale);
  const won = await updateIf({
    Update: {
      Key: key,
      UpdateExpression: 'SET sends = :sends, version = :next, #ttl = :ttl',
      ConditionExpression: stored ? 'version = :read' : 'attribute_not_exists(pk)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':sends': sends,
        ':next': (stored?.version ?? 0) + 1,
        ':ttl': Math.ceil((now + historySpanMs(channel, scale)) / 1000) + 3600,
        ...(stored ? { ':read': stored.version } : {}),
      },
    },
  });
  if (won) return { ok: true };
  // Someone took a slot meanwhile: at the earliest when the history with that send would allow the next.
  const after = decide(sends, channel, now, scale);
  return { ok: false, retryAt: after.send ? now + Math.max(1, Math.ceil(LOST_RACE_WAIT_MS / scale)) : after.until };
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

/**
 * The write that keeps a waiting message, for a transaction: a message already waiting keeps what it was stored with
 * (its `heldAt` above all, the order its bundle lists it in), as holdPending does.
 */
export function holdPendingWrite(contact: Contact, channel: DeliveryChannel, message: PendingMessage): TransactItem {
  const fields: Record<string, unknown> = { ...message, ttl: Math.ceil(message.heldAt / 1000) + PENDING_RETENTION_SECONDS };
  const names = Object.keys(fields);
  return {
    Update: {
      Key: { pk: contactPk(contact.accountId, channel, contact.address), sk: contactPendingSk(message.notificationId) },
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = if_not_exists(#f${i}, :v${i})`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, fields[name]])),
    },
  };
}

/** Everything waiting for the contact method, oldest first, with the claims of bundles about to go. */
export async function waitingFor(contact: Contact, channel: DeliveryChannel): Promise<WaitingMessage[]> {
  const items = await queryPrefix<PendingItem>(contactPk(contact.accountId, channel, contact.address), CONTACT_PENDING_SK_PREFIX);
  return items
    .map(({ pk: _pk, sk: _sk, ttl: _ttl, claimed_by: claimedBy, claimed_until: claimedUntil, ...message }) => ({ ...message, ...(claimedBy ? { claimedBy, claimedUntil } : {}) }))
    .sort((a, b) => a.heldAt - b.heldAt || a.notificationId.localeCompare(b.notificationId));
}

/** Everything waiting for the contact method, oldest first (claimed or not). */
export async function pendingFor(contact: Contact, channel: DeliveryChannel): Promise<PendingMessage[]> {
  return (await waitingFor(contact, channel)).map(({ claimedBy: _by, claimedUntil: _until, ...message }) => message);
}

/** Whether another bundle than `claimer`'s holds a live claim on the waiting message at `now`. */
export const claimedByOther = (message: WaitingMessage, claimer: string, now: number): boolean =>
  message.claimedBy !== undefined && message.claimedBy !== claimer && (message.claimedUntil ?? 0) > now;

/**
 * Claims waiting messages for the bundle `claimer` is about to send: one conditional UpdateItem each, at once; a
 * message claimed (live) by another bundle, or no longer waiting, is not won. Answers the ids won. Two bundles never
 * name the same message, so a message is sent once even when a bundle's commit lags behind the next slot.
 */
export async function claimPending(contact: Contact, channel: DeliveryChannel, notificationIds: readonly string[], claimer: string, now: number = nowMs()): Promise<string[]> {
  const pk = contactPk(contact.accountId, channel, contact.address);
  const won = await Promise.all(
    notificationIds.map((id) =>
      updateIf({
        Update: {
          Key: { pk, sk: contactPendingSk(id) },
          UpdateExpression: 'SET claimed_by = :me, claimed_until = :until',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimed_by) OR claimed_by = :me OR claimed_until < :now)',
          ExpressionAttributeValues: { ':me': claimer, ':until': now + BUNDLE_CLAIM_MS, ':now': now },
        },
      }),
    ),
  );
  return notificationIds.filter((_, i) => won[i]);
}

/** Gives back the claims of a bundle that did not go (its send failed): the messages wait for the next slot again. */
export async function unclaimPending(contact: Contact, channel: DeliveryChannel, notificationIds: readonly string[], claimer: string): Promise<void> {
  const pk = contactPk(contact.accountId, channel, contact.address);
  await Promise.all(
    notificationIds.map((id) =>
      updateIf({ Update: { Key: { pk, sk: contactPendingSk(id) }, UpdateExpression: 'REMOVE claimed_by, claimed_until', ConditionExpression: 'claimed_by = :me', ExpressionAttributeValues: { ':me': claimer } } }),
    ),
  );
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

