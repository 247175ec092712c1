// The notification outbox: messages queued for delivery (credentials of new users, invitations), stored as
// OUTBOX entities of the account, in its outbox partitions (lib/outbox/messages.ts reads them), so admins can list them. Delivery channels come later; until then every
// message stays `queued`. Secrets a message must carry (a generated password) are never part of the listable
// record: the body holds a `{{name}}` placeholder and the value is sealed in a separate item that no endpoint
// returns, that delivery takes exactly once, and that expires. Choices: docs/people.md, "The outbox".

import { nowMs } from '../clock.ts';
import { takeItem } from '../db/items.ts';
import { outboxKey, outboxSecretKey } from '../db/keys.ts';
import { allocateTinyIds, newEntityItem, renderCommon, type EntityItem } from '../db/repository.ts';
import { putNew, type TransactItem } from '../db/writes.ts';

/** Pages go out on every channel a person can be paged on (docs/alerts.md, "Notifications"). */
export const OUTBOX_CHANNELS = ['email', 'push', 'sms', 'voice', 'whatsapp', 'slack'] as const;
export const OUTBOX_TEMPLATES = ['user_credentials', 'account_invitation', 'alert_page', 'alert_dropped', 'alert_handoff', 'alert_acknowledged', 'alert_resolved', 'broadcast', 'webhook_disabled', 'schedule_gap'] as const;
export type OutboxTemplate = (typeof OUTBOX_TEMPLATES)[number];
/**
 * Messages are `queued` until delivery marks them `sent`, `failed`, or `suppressed` (no provider for the channel);
 * `held` while their provider is down (docs/decisions/0032-provider-breaker.md), then queued again when it answers.
 * docs/notifications.md. Credentials and invitations are not sent by a channel yet and stay `queued`.
 */
export const OUTBOX_STATUSES = ['queued', 'held', 'sent', 'failed', 'suppressed'] as const;

export interface OutboxData {
  channel: (typeof OUTBOX_CHANNELS)[number];
  /** Recipient address. */
  to: string;
  template: (typeof OUTBOX_TEMPLATES)[number];
  subject: string;
  /** Text body; sealed values appear as `{{name}}` placeholders. */
  body: string;
  /** Names of the placeholders whose values are sealed (delivered only through the channel). */
  sealed_fields: string[];
  status: (typeof OUTBOX_STATUSES)[number];
  /** The person and account user the message is about. */
  user_id: string | null;
  account_user_id: string | null;
  /** Who caused it (the API caller). */
  created_by_account_user_id: string | null;
  sent_at: string | null;
  /** When the sealed values expire (null when there are none). */
  sealed_until: string | null;
  /** Why it is `held`: "email held: provider down since …" (absent on messages never held). */
  reason?: string | null;
}

export type OutboxItem = EntityItem<OutboxData>;

/** Sealed values live this long; a message not delivered by then cannot carry them any more. */
export const SEALED_TTL_SECONDS = 7 * 24 * 3600;

export interface OutboxDraft {
  channel: OutboxData['channel'];
  to: string;
  template: OutboxData['template'];
  subject: string;
  body: string;
  user_id?: string | null;
  account_user_id?: string | null;
  created_by_account_user_id?: string | null;
}

interface SealedItem {
  pk: string;
  sk: string;
  type: 'OUTBOX_SECRET';
  accountId: string;
  messageId: string;
  values: Record<string, string>;
  /** Epoch seconds: DynamoDB TTL removes the item some time after this. */
  ttl: number;
}

const PLACEHOLDER = /\{\{([a-z_]+)\}\}/g;

/** The placeholders a body uses, in order of first use. */
export function placeholdersOf(body: string): string[] {
  return [...new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** The body delivery sends: placeholders replaced by the sealed values (unknown ones stay as they are). */
export function fillSealed(body: string, values: Readonly<Record<string, string>>): string {
  return body.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

/**
 * The tiny ids of `count` outbox messages written together (a step's pages on every channel), taken with ONE counter
 * update instead of one per message (docs/decisions/0023-what-a-page-writes.md).
 */
export const outboxTinyIds = (accountId: string, count: number): Promise<number[]> => allocateTinyIds(accountId, 'OUTBOX', count);

/**
 * A new outbox message and the writes that store it, for the caller's transaction: pass `item` to
 * createEntities with `writes` as extra items. `sealed` holds the values of the body's placeholders; every
 * placeholder must have one. `tinyId`, taken beforehand with outboxTinyIds, saves the message its own counter update.
 */
export async function prepareOutboxMessage(
  accountId: string,
  draft: OutboxDraft,
  sealed: Record<string, string> = {},
  tinyId?: number,
): Promise<{ item: OutboxItem; writes: TransactItem[] }> {
  const fields = placeholdersOf(draft.body);
  const missing = fields.filter((f) => !Object.hasOwn(sealed, f));
  if (missing.length) throw new Error(`Outbox body uses placeholders without sealed values: ${missing.join(', ')}`);
  const hasSealed = fields.length > 0;
  const made = await newEntityItem<OutboxData>('OUTBOX', accountId, {
    channel: draft.channel,
    to: draft.to,
    template: draft.template,
    subject: draft.subject,
    body: draft.body,
    sealed_fields: fields,
    status: 'queued',
    user_id: draft.user_id ?? null,
    account_user_id: draft.account_user_id ?? null,
    created_by_account_user_id: draft.created_by_account_user_id ?? null,
    sent_at: null,
    sealed_until: null,
  }, tinyId === undefined ? {} : { tinyId });
  // Written in its id's shard, not the account partition (docs/decisions/0027-sharded-outbox.md); its alias follows (aliasKeyOf).
  const item: OutboxItem = { ...made, ...outboxKey(accountId, made.id) };
  if (!hasSealed) return { item, writes: [] };
  // Counted from the message's own created_at, so the stored deadline is exactly created_at + TTL.
  const expiresMs = Date.parse(item.createdAt) + SEALED_TTL_SECONDS * 1000;
  item.data.sealed_until = new Date(expiresMs).toISOString();
  const values = Object.fromEntries(fields.map((f) => [f, sealed[f]!]));
  const secret: SealedItem = {
    ...outboxSecretKey(item.id),
    type: 'OUTBOX_SECRET',
    accountId,
    messageId: item.id,
    values,
    ttl: Math.floor(expiresMs / 1000),
  };
  return { item, writes: [putNew(secret)] };
}

/**
 * The sealed values of a message, taken exactly once: the item is deleted as it is read, so a second call (or a
 * second delivery attempt racing the first) gets undefined. Expired values are never returned.
 */
export async function takeSealedValues(accountId: string, messageId: string): Promise<Record<string, string> | undefined> {
  const item = await takeItem<SealedItem>(outboxSecretKey(messageId), { expression: 'accountId = :account', values: { ':account': accountId } });
  if (!item || item.ttl * 1000 <= nowMs()) return undefined;
  return item.values;
}

/** The API object: common attributes and the message fields in a fixed order (sealed values never appear). */
export function renderOutbox(item: OutboxItem): Record<string, unknown> {
  const d = item.data;
  const { id, prefix_id, tiny_id, account_id, meta, created_at, updated_at } = renderCommon(item);
  return {
    id,
    prefix_id,
    tiny_id,
    account_id,
    channel: d.channel,
    to: d.to,
    template: d.template,
    subject: d.subject,
    body: d.body,
    sealed_fields: d.sealed_fields,
    sealed_until: d.sealed_until,
    status: d.status,
    reason: d.reason ?? null,
    user_id: d.user_id,
    account_user_id: d.account_user_id,
    created_by_account_user_id: d.created_by_account_user_id,
    sent_at: d.sent_at,
    meta,
    created_at,
    updated_at,
  };
}
