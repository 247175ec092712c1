// Which webhook events an alert change causes, read from the change's own transaction: the alert item it puts,
// the log entries it writes and the status counters it moves (an exact tally, moved exactly when the status
// changes). Pure, so test/unit/webhooks checks the mapping offline. docs/outgoing-webhooks.md, "Events".
import { renderAlert, statusesEntered } from './items.ts';
import { countOf } from '../db/repository.ts';
import { cachedConfigRead } from '../db/config-reads.ts';
import type { EntityItem, TransactItem } from '../db/writes.ts';
import { changeSequence, webhookEventWrites, type WebhookEventDraft, type WebhookWrites } from '../webhooks/events.ts';
import type { WebhookEventType } from '../webhooks/schema.ts';
import { entriesPut } from './log-items.ts';

/** Log events that are webhook events of their own. */
const LOGGED: Readonly<Record<string, WebhookEventType>> = {
  created: 'alert.created',
  rejected: 'alert.rejected',
  timeout: 'alert.timeout',
  updated: 'alert.updated',
  commented: 'alert.commented',
};

/** Statuses whose arrival is a webhook event. */
const ENTERED: Readonly<Record<string, WebhookEventType>> = {
  open: 'alert.open',
  acknowledged: 'alert.acknowledged',
  resolved: 'alert.resolved',
  dropped: 'alert.dropped',
};

/** The order events of one change are sent in: what happened first, then where the alert stands. */
const ORDER: readonly WebhookEventType[] = [
  'alert.created',
  'alert.updated',
  'alert.rejected',
  'alert.timeout',
  'alert.open',
  'alert.dropped',
  'alert.acknowledged',
  'alert.resolved',
  'alert.commented',
];

interface AlertLike extends EntityItem<{ urgency?: string; destination_team_ids?: string[] }> {
  escalation?: unknown;
}

/** The alert API object a payload carries (the escalation state stays internal, as in GET /alerts/:id). */
export const alertPayload = (alert: AlertLike): Record<string, unknown> => renderAlert(alert);

/**
 * The event writes of one alert transaction, or none: only a transaction that puts exactly one alert item is an
 * alert change (an aggregation's parent is only counted, not changed).
 */
export function alertChangeEvents(items: readonly TransactItem[], now: number): WebhookWrites {
  const puts = items.flatMap((item) => ('Put' in item ? [item.Put.Item] : []));
  const alerts = puts.filter((item) => item.type === 'ALERT') as unknown as AlertLike[];
  if (alerts.length !== 1) return { writes: [], timers: [] };
  const alert = alerts[0]!;
  const types = new Set<WebhookEventType>();
  for (const log of entriesPut(puts, alert.id)) {
    const type = LOGGED[log.event];
    if (type) types.add(type);
  }
  for (const status of statusesEntered(items)) if (ENTERED[status]) types.add(ENTERED[status]);
  const payload = { alert: alertPayload(alert) };
  const drafts: WebhookEventDraft[] = ORDER.filter((t) => types.has(t)).map((type) => ({ type, data: payload }));
  return webhookEventWrites(
    alert.accountId,
    alert.id,
    changeSequence(alert.version, now),
    { team_ids: [...(alert.data.destination_team_ids ?? [])], urgency: alert.data.urgency ?? null },
    drafts,
    now,
  );
}

/** The `alert.commented` event of a comment on `alert`, for the comment's own transaction. */
export function alertCommentedEvents(alert: AlertLike, comment: Record<string, unknown>, now: number): WebhookWrites {
  return webhookEventWrites(
    alert.accountId,
    alert.id,
    changeSequence(alert.version, now),
    { team_ids: [...(alert.data.destination_team_ids ?? [])], urgency: alert.data.urgency ?? null },
    [{ type: 'alert.commented', data: { alert: alertPayload(alert), comment } }],
    now,
  );
}

/** How many outgoing webhooks the account has, from the short configuration cache (docs/outgoing-webhooks.md). */
export const outgoingWebhookCount = (accountId: string): Promise<number> =>
  cachedConfigRead(accountId, 'count\u0000OUTGOING_WEBHOOK', () => countOf(accountId, 'OUTGOING_WEBHOOK'));

/**
 * The event writes of an alert transaction for an account that has outgoing webhooks (one counter read, from the short
 * configuration cache: docs/outgoing-webhooks.md); none for an account without any, so paging pays nothing for a feature it does not use. A subscription created while the
 * change commits may miss it, as one matched at fan-out may (docs/outgoing-webhooks.md, "How a delivery runs").
 */
export async function alertEventsToRecord(items: readonly TransactItem[], now: number): Promise<WebhookWrites> {
  const events = alertChangeEvents(items, now);
  const accountId = (items.find((item) => 'Put' in item && item.Put.Item.type === 'ALERT') as { Put: { Item: { accountId: string } } } | undefined)?.Put.Item.accountId;
  if (events.writes.length === 0 || !accountId || (await outgoingWebhookCount(accountId)) === 0) return { writes: [], timers: [] };
  return events;
}
