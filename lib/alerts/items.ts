// The items of an alert's partition and the pure builders of their writes: the alert item (with its list index
// keys), log entries (./log-items.ts), notification records, team index items, the prefix-id alias and the exact counters.
// No I/O here. Layout: docs/storage.md, "Alerts".
import type { AlertEscalation, AlertStatus } from '../escalation-engine/index.ts';
import {
  ALERT_SK,
  accountAlertsGsi,
  accountPk,
  alertAliasKey,
  alertListSk,
  alertNotificationSk,
  alertPk,
  alertStatusCounterSk,
  alertTeamCounterSk,
  alertTeamSk,
  ALERT_THIRDPARTY_SK,
  alertThirdpartyCounterKey,
  integrationThirdpartyAlertsGsi,
  thirdpartyAlertsGsi,
  counterSk,
  statusAlertsGsi,
  teamAlertsGsi,
  teamStatusAlertsGsi,
} from '../db/keys.ts';
import { counterChanges, counterGroupAdd, pickCounterShard, shardedCounterAdd, type CounterChange } from '../db/counters.ts';
import { render } from '../db/repository.ts';
import { putNew, putOver, type EntityItem, type TransactItem } from '../db/writes.ts';
import type { DeliveryFields } from '../delivery/records.ts';
import type { AlertData } from './schema.ts';

/** The alert item: the resource's fields, and its escalation state (the engine's plain data). */
export interface AlertItem extends EntityItem<AlertData> {
  escalation: AlertEscalation;
}

/**
 * The alert API object everywhere one is shown (answers, lists, outgoing webhooks, notification rules): the common
 * attributes and the stored fields, with `tags` beside `tag_list` (the same list; clients read either name). The
 * escalation state stays internal (GET /alerts/:id/workflows shows it).
 */
export function renderAlert(item: EntityItem<object>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(render(item))) {
    object[key] = value;
    if (key === 'tag_list') object.tags = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return object;
}

/** The index keys of an alert item: newest-first per account (gsi1) and per status (gsi2). */
export function alertIndexKeys(accountId: string, alertId: string, createdAt: string, status: AlertStatus) {
  const sk = alertListSk(createdAt, alertId);
  return { gsi1pk: accountAlertsGsi(accountId), gsi1sk: sk, gsi2pk: statusAlertsGsi(accountId, status), gsi2sk: sk };
}

export interface AlertAlias {
  pk: string;
  sk: string;
  type: 'ALERT_ALIAS';
  alertId: string;
}

export const aliasOf = (alert: Pick<AlertItem, 'accountId' | 'prefixId' | 'id'>): AlertAlias => ({
  ...alertAliasKey(alert.accountId, alert.prefixId),
  type: 'ALERT_ALIAS',
  alertId: alert.id,
});

/**
 * Places the alert in the list of each destination team (gsi1) and in that team's list of its status (gsi2), in the
 * alert's own partition; a status change rewrites it (commitAlert), so the console's team-and-status view reads an
 * index page (docs/console.md, "The alert list").
 */
export interface AlertTeamItem {
  pk: string;
  sk: string;
  type: 'ALERT_TEAM';
  accountId: string;
  alertId: string;
  teamId: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
}

export function teamIndexItem(alert: Pick<AlertItem, 'accountId' | 'id' | 'createdAt' | 'escalation'>, teamId: string): AlertTeamItem {
  const sk = alertListSk(alert.createdAt, alert.id);
  return {
    pk: alertPk(alert.accountId, alert.id),
    sk: alertTeamSk(teamId),
    type: 'ALERT_TEAM',
    accountId: alert.accountId,
    alertId: alert.id,
    teamId,
    gsi1pk: teamAlertsGsi(alert.accountId, teamId),
    gsi1sk: sk,
    gsi2pk: teamStatusAlertsGsi(alert.accountId, teamId, alert.escalation.status),
    gsi2sk: sk,
  };
}

/** The writes moving the alert's team index items to its new status's lists (none when the status stays). */
export const teamStatusMoves = (previous: Pick<AlertItem, 'escalation'>, next: AlertItem): TransactItem[] =>
  previous.escalation.status === next.escalation.status ? [] : next.data.destination_team_ids.map((teamId) => putOver(teamIndexItem(next, teamId)));

/**
 * Places the alert in the list of its `thirdparty_id` (gsi1, account-wide) and, for an integration's alert, in
 * that integration's list of the identity (gsi2), which the webhook's lookups read.
 */
export interface AlertThirdpartyItem {
  pk: string;
  sk: string;
  type: 'ALERT_THIRDPARTY';
  accountId: string;
  alertId: string;
  thirdpartyId: string;
  integrationId: string | null;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk?: string;
  gsi2sk?: string;
}

export function thirdpartyIndexItem(alert: Pick<AlertItem, 'accountId' | 'id' | 'createdAt' | 'data'>): AlertThirdpartyItem | undefined {
  const thirdpartyId = alert.data.thirdparty_id;
  if (thirdpartyId === null) return undefined;
  const sk = alertListSk(alert.createdAt, alert.id);
  const integrationId = alert.data.source_type === 'Integration' ? alert.data.source_id : null;
  return {
    pk: alertPk(alert.accountId, alert.id),
    sk: ALERT_THIRDPARTY_SK,
    type: 'ALERT_THIRDPARTY',
    accountId: alert.accountId,
    alertId: alert.id,
    thirdpartyId,
    integrationId,
    gsi1pk: thirdpartyAlertsGsi(alert.accountId, thirdpartyId),
    gsi1sk: sk,
    ...(integrationId !== null ? { gsi2pk: integrationThirdpartyAlertsGsi(alert.accountId, integrationId, thirdpartyId), gsi2sk: sk } : {}),
  };
}

// The log's items and entries live in ./log-items.ts; these names stay here for their many callers.
export { logItem, type AlertLogEvent, type AlertLogItem, type LogEntry } from './log-items.ts';

/**
 * One message to one person about the alert (GET /alerts/:id/notifications). Sort key `NOTIF#<ulid>`. Its life
 * (queued → sent → delivered, failed, suppressed) is the delivery worker's: docs/notifications.md.
 */
export interface AlertNotificationItem extends DeliveryFields {
  pk: string;
  sk: string;
  type: 'ALERT_NOTIFICATION';
  accountId: string;
  alertId: string;
  layer: number | null;
  pass: number | null;
}

// Counters ---------------------------------------------------------------------------------------------------

/** Changes of the exact alert counts: all alerts of the account, per status, per team. Zero changes are left out. */
export interface AlertCountDelta {
  all?: number;
  statuses?: Partial<Record<AlertStatus, number>>;
  teams?: Record<string, number>;
  /** Alerts per thirdparty_id (counted in the identity's own partition). */
  thirdparty?: Record<string, number>;
}

const keyedCounterAdd = (key: { pk: string; sk: string }, delta: number): TransactItem => ({
  Update: { Key: key, UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': delta } },
});

/** The counter of all alerts, one status or one team, by its unsharded key (lib/db/counters.ts). */
export const alertCounterKey = (accountId: string, sk: string) => ({ pk: accountPk(accountId), sk });

/** Which of the account's alert counts: all alerts, those of one status, those of one team. */
export type AlertCountScope = { by: 'account' } | { by: 'status'; status: string } | { by: 'team'; teamId: string };

/**
 * One alert count: its key, and whether it is in the account's counter group. All alerts and the (few, fixed) statuses
 * are; a team's count keeps items of its own, since an account has as many as it has teams.
 */
export function alertCounter(accountId: string, scope: AlertCountScope): { key: { pk: string; sk: string }; grouped: boolean } {
  if (scope.by === 'team') return { key: alertCounterKey(accountId, alertTeamCounterSk(scope.teamId)), grouped: false };
  return { key: alertCounterKey(accountId, scope.by === 'status' ? alertStatusCounterSk(scope.status) : counterSk('ALERT')), grouped: true };
}

/**
 * The counter writes of one change. Alerts are unbounded, so unlike configuration counts there is no cap
 * condition: a counter is an exact tally kept in the same transaction as the change. The account-wide counts go to
 * one shard (`shard`, at random by default), since every create changes them: all alerts and per status as one Update
 * of the account's group item, each team's count in its own item; the thirdparty count is in a partition per
 * identity already (docs/decisions/0022-sharded-alert-counters.md).
 */
export function alertCountChanges(accountId: string, delta: AlertCountDelta, shard = pickCounterShard()): TransactItem[] {
  const grouped: CounterChange[] = [];
  if (delta.all) grouped.push({ key: alertCounterKey(accountId, counterSk('ALERT')), delta: delta.all });
  for (const [status, n] of Object.entries(delta.statuses ?? {})) if (n) grouped.push({ key: alertCounterKey(accountId, alertStatusCounterSk(status)), delta: n });
  return [
    ...counterGroupAdd(grouped, shard),
    ...Object.entries(delta.teams ?? {}).flatMap(([team, n]) => shardedCounterAdd(alertCounterKey(accountId, alertTeamCounterSk(team)), n, shard)),
    ...Object.entries(delta.thirdparty ?? {}).flatMap(([thirdpartyId, n]) => (n ? [keyedCounterAdd(alertThirdpartyCounterKey(accountId, thirdpartyId), n)] : [])),
  ];
}

const STATUS_COUNTER = /^COUNTER#ALERT#STATUS#(.+)$/;

/** The statuses a transaction's alert count changes enter (a status count going up): what outgoing webhooks announce. Pure. */
export function statusesEntered(items: readonly TransactItem[]): string[] {
  const entered = new Set<string>();
  for (const { key, delta } of counterChanges(items)) {
    const status = STATUS_COUNTER.exec(key.sk)?.[1];
    if (status && delta > 0) entered.add(status);
  }
  return [...entered];
}

/** The count change of a status change (none when the status stays). */
export function statusMove(from: AlertStatus, to: AlertStatus): AlertCountDelta {
  return from === to ? {} : { statuses: { [from]: -1, [to]: 1 } };
}

/** The counts an alert is part of: all alerts, its status, each destination team and its thirdparty_id. */
export function alertCounts(alert: Pick<AlertItem, 'data' | 'escalation'>, sign: 1 | -1): AlertCountDelta {
  const thirdpartyId = alert.data.thirdparty_id;
  return {
    all: sign,
    statuses: { [alert.escalation.status]: sign },
    teams: Object.fromEntries(alert.data.destination_team_ids.map((t) => [t, sign])),
    ...(thirdpartyId !== null ? { thirdparty: { [thirdpartyId]: sign } } : {}),
  };
}

/** The writes creating an alert: the item, its alias, its team and thirdparty index items and its counts. */
export function alertCreateWrites(alert: AlertItem): TransactItem[] {
  const thirdparty = thirdpartyIndexItem(alert);
  return [
    putNew(alert),
    putNew(aliasOf(alert)),
    ...alert.data.destination_team_ids.map((teamId) => putNew(teamIndexItem(alert, teamId))),
    ...(thirdparty ? [putNew(thirdparty)] : []),
    ...alertCountChanges(alert.accountId, alertCounts(alert, 1)),
  ];
}

export const isAlertSk = (sk: string) => sk === ALERT_SK;
export const notificationSk = alertNotificationSk;

/**
 * The alert's dedup_count + 1 (an aggregated child, or a create folded by a dedup key), only while it exists and is
 * not resolved (else the create starts over).
 */
export function dedupCountWrite(parent: AlertItem, now: string): TransactItem {
  return {
    Update: {
      Key: { pk: parent.pk, sk: parent.sk },
      UpdateExpression: 'SET #data.dedup_count = #data.dedup_count + :one, version = version + :one, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND #data.#status <> :resolved',
      ExpressionAttributeNames: { '#data': 'data', '#status': 'status' },
      ExpressionAttributeValues: { ':one': 1, ':now': now, ':resolved': 'resolved' },
    },
  };
}
