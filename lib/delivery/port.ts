// The delivery port, upward half: what delivery asks of the owner a message is about (an alert, a broadcast, later
// others). Delivery knows no owner: each owner folder implements a DeliveryOwner, and the composition module
// (lib/wiring/delivery-owners.ts) registers one per owner type and hands the registry to the functions that send, show
// a link, take a reply or a Slack click. Rules: docs/architecture.md, "The delivery port"; docs/notifications.md,
// "Acting from a message".
import type { TransactItem } from '../db/writes.ts';
import type { PageView } from '../channel-adapters/action-page.ts';
import type { DeliveryChannel, MessageAction, OutgoingMessage } from '../channel-adapters/port.ts';
import type { DurableTimer } from '../timers/index.ts';
import type { ActionClaims, LinkOwnerType } from './links.ts';
import type { DeliveryFields, RecordChange } from './records.ts';

/** The actions a reply code, a key press or a chat button can ask for (reply digits 4 and 6, docs/notifications.md). */
export const MESSAGE_ACTIONS = ['acknowledge', 'resolve'] as const;
export type MessageActionName = (typeof MESSAGE_ACTIONS)[number];

export const isMessageAction = (value: string): value is MessageActionName => (MESSAGE_ACTIONS as readonly string[]).includes(value);

/** An action a message offers: its id and the label its link or button shows. */
export interface ActionChoice {
  readonly action: string;
  readonly label: string;
}

/** A confirmation or result page of a signed link, and its status. */
export interface LinkPage {
  readonly status: number;
  readonly view: PageView;
}

/** One person acting on one owner from a message (a reply, a key press, a chat button). */
export interface ActRequest {
  readonly accountId: string;
  readonly ownerType: LinkOwnerType;
  readonly ownerId: string;
  readonly accountUserId: string;
  readonly action: MessageActionName;
  /** Where the action came from; null when the link did not say (logged as "a message"). */
  readonly channel: DeliveryChannel | null;
}

/**
 * What acting did, worded by the owner for the person (`text`, the same on every channel):
 * - `done`: applied now; `unchanged`: the owner already was where the action leads; `refused`: its state does not
 *   allow it. `remaining` lists the actions still possible, for the buttons a chat message keeps;
 * - `gone`: the owner was deleted; `not_member`: the person does not belong to the account (or has not joined it).
 */
export type ActOutcome =
  | { readonly outcome: 'done' | 'unchanged' | 'refused'; readonly action: MessageActionName; readonly text: string; readonly remaining: readonly ActionChoice[] }
  | { readonly outcome: 'gone' | 'not_member'; readonly action: MessageActionName; readonly text: string };

/** The person and channel whose message the sender is building, for the owner's signed links. */
export interface MessageActionsRequest {
  readonly accountId: string;
  readonly ownerId: string;
  readonly accountUserId: string;
  readonly channel: DeliveryChannel;
  readonly now: number;
}

/** A record that ended failed or suppressed: its last change and how many attempts it took. */
export interface EndedRecord {
  readonly accountId: string;
  readonly about: OutgoingMessage['about'];
  readonly record: Pick<DeliveryFields, 'id' | 'account_user_id' | 'channel' | 'notification_type' | 'outbox_id'>;
  readonly change: Extract<RecordChange, { kind: 'failed' | 'suppressed' }>;
  readonly attempts: number;
  readonly at: number;
}

/** A record held while its provider is down (docs/decisions/0032-provider-breaker.md), with the reason it shows. */
export interface HeldRecord {
  readonly accountId: string;
  readonly about: OutgoingMessage['about'];
  readonly record: Pick<DeliveryFields, 'id' | 'account_user_id' | 'channel' | 'notification_type'>;
  /** "email held: provider down since …". */
  readonly reason: string;
  readonly at: number;
}

/** Writes an owner adds to the record's own transaction, and timers stored there too (in the record's partition). */
export interface OwnerWrites {
  readonly writes: readonly TransactItem[];
  readonly timers: readonly DurableTimer[];
}

export const NO_WRITES: OwnerWrites = { writes: [], timers: [] };

/** How delivery reaches one owner type. */
export interface DeliveryOwner {
  /** The signed links a message to one person carries, on channels that show links (the sender asks at send time). */
  messageActions(request: MessageActionsRequest): Promise<MessageAction[]>;
  /** GET of a signed link: what it would do, or why acting would change nothing. Never acts. */
  confirm(claims: ActionClaims): Promise<LinkPage>;
  /** POST of a signed link: acts, then the page saying what happened. */
  actOnLink(claims: ActionClaims): Promise<LinkPage>;
  /** Acting from a reply, a key press or a chat button; absent: this owner is not acted on that way (yet). */
  act?(request: ActRequest): Promise<ActOutcome>;
  /** The owner's writes when one of its records ends failed or suppressed (its log, a check of its own). */
  endedWrites(ended: EndedRecord): OwnerWrites;
  /** The owner's writes when one of its records is held because its provider is down (an alert's timeline). */
  heldWrites?(held: HeldRecord): OwnerWrites;
}

/** One DeliveryOwner per owner type a link, a reply code or a record can name: a missing entry does not typecheck. */
export type DeliveryOwners = Readonly<Record<LinkOwnerType, DeliveryOwner>>;
