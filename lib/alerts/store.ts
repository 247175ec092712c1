// Reading and writing alerts: the alert item by id or prefix_id, its partition's children, the list indexes and
// the counters, and the one transaction that applies a change. Layout: docs/storage.md, "Alerts".
import { mergeCounterWrites, readShardedCounter } from '../db/counters.ts';
import { getItem, getItems, queryAll, queryFirst, queryPage, transact } from '../db/items.ts';
import {
  ALERT_LOG_SK_PREFIX,
  ALERT_NOTIFICATION_SK_PREFIX,
  accountAlertsGsi,
  alertAliasKey,
  alertKey,
  alertPk,
  alertThirdpartyCounterKey,
  integrationThirdpartyAlertsGsi,
  integrationThirdpartyNewestKey,
  statusAlertsGsi,
  teamAlertsGsi,
  teamStatusAlertsGsi,
  thirdpartyAlertsGsi,
} from '../db/keys.ts';
import { putOver, TRANSACTION_ITEMS, versionedPut, type TransactItem } from '../db/writes.ts';
import { nowMs } from '../clock.ts';
import { timelineOf, type AlertLogEntry } from './log-items.ts';
import { announceAlertChange } from './activity.ts';
import { wakeWebhookTimers, WEBHOOK_CHANGE_WRITES } from '../webhooks/index.ts';
import { alertEventsToRecord } from './webhook-events.ts';
import { notFound } from '../errors.ts';
import { ALERT_STATUSES } from '../escalation-engine/index.ts';
import { couldBeId, looksLikePrefixId } from '../ids.ts';
import { alertCounter, alertCountChanges, statusMove, teamStatusMoves, type AlertItem, type AlertLogItem, type AlertNotificationItem } from './items.ts';

/** The alert of this account by id or prefix_id; another account's alert is simply not found. */
export async function findAlert(accountId: string, idOrPrefixId: string): Promise<AlertItem | undefined> {
  if (!couldBeId(idOrPrefixId)) return undefined;
  let id = idOrPrefixId;
  if (looksLikePrefixId(idOrPrefixId)) {
    const alias = await getItem<{ alertId?: string }>(alertAliasKey(accountId, idOrPrefixId));
    if (!alias?.alertId) return undefined;
    id = alias.alertId;
  }
  const item = await getItem<AlertItem>(alertKey(accountId, id));
  return item?.type === 'ALERT' ? item : undefined;
}

export async function getAlertItem(accountId: string, idOrPrefixId: string): Promise<AlertItem> {
  const item = await findAlert(accountId, idOrPrefixId);
  if (!item) throw notFound('Alert');
  return item;
}

/** Alerts of the account by id, in one BatchGetItem round per 100 (missing ones left out, order not kept). */
export const getAlertItems = (accountId: string, ids: readonly string[]): Promise<AlertItem[]> =>
  ids.length === 0 ? Promise.resolve([]) : getItems<AlertItem>(ids.map((id) => alertKey(accountId, id)));

/** Every item of the alert's partition (the alert, logs, notification records, team index items, timers). */
export const partitionOf = (accountId: string, alertId: string) =>
  queryAll<{ pk: string; sk: string; type: string }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': alertPk(accountId, alertId) },
    ConsistentRead: true,
  });

const childrenOf = <T>(accountId: string, alertId: string, prefix: string) =>
  queryAll<T>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': alertPk(accountId, alertId), ':prefix': prefix },
    ConsistentRead: true,
  });

/** The alert's timeline, entries in the order written, whichever shape their items have (./log-items.ts). */
export const logsOf = async (accountId: string, alertId: string): Promise<AlertLogEntry[]> =>
  timelineOf(await childrenOf<AlertLogItem>(accountId, alertId, ALERT_LOG_SK_PREFIX));
/** The alert's notification records, oldest first. */
export const notificationsOf = (accountId: string, alertId: string) => childrenOf<AlertNotificationItem>(accountId, alertId, ALERT_NOTIFICATION_SK_PREFIX);

/** How many writes `commitAlert` adds to the caller's: the alert item, the status counters that move, its team index items, and the webhook event writes. */
export const commitOverhead = (previous: AlertItem, next: AlertItem): number =>
  1 + WEBHOOK_CHANGE_WRITES + alertCountChanges(next.accountId, statusMove(previous.escalation.status, next.escalation.status)).length + teamStatusMoves(previous, next).length;

/**
 * Writes the next version of an alert with the writes its change causes, in one transaction conditioned on the
 * version read: a concurrent change fails it (the caller reads again). The status counters move with the status.
 */
export async function commitAlert(previous: AlertItem, next: AlertItem, writes: readonly TransactItem[]): Promise<void> {
  const items = [
    versionedPut(next, previous.version),
    ...alertCountChanges(next.accountId, statusMove(previous.escalation.status, next.escalation.status)),
    // Its team index items follow the status: the team-and-status lists are index pages.
    ...teamStatusMoves(previous, next),
    ...writes,
  ];
  await transactAlert(items);
}

/**
 * One transaction of an alert's change, with the outgoing webhook events it causes recorded in it (the
 * transactional outbox, docs/outgoing-webhooks.md); their fan-out wake-up goes out after the commit, and the change's
 * event lines are logged. Count changes of one counter (or counter group) are merged into one write. A change too
 * large for one transaction is refused before anything is written.
 */
export async function transactAlert(changes: readonly TransactItem[]): Promise<void> {
  // The counts it moves (the alert's, its request log's) go as one Update per item, whichever shard each picked.
  const items = mergeCounterWrites(changes);
  const events = await alertEventsToRecord(items, nowMs());
  const all = [...items, ...events.writes];
  if (all.length > TRANSACTION_ITEMS) {
    throw new Error(`An alert change of ${all.length} writes does not fit in one transaction (${TRANSACTION_ITEMS}); pages beyond it go through a deliver timer, so the change was planned wrongly`);
  }
  await transact(all);
  await wakeWebhookTimers(events.timers);
  // The change is stored: its events are told (lib/alerts/activity.ts), and only then.
  await announceAlertChange(items);
}

// Lists --------------------------------------------------------------------------------------------------------

/** Which index a list reads: all alerts of the account, those of one status, one team or one thirdparty_id. */
export type AlertIndex =
  | { by: 'account' }
  | { by: 'status'; status: string }
  | { by: 'team'; teamId: string }
  /** The team's alerts with one status (gsi2 on the team index items); no counter: lists of it are walked (walkNewest). */
  | { by: 'team-status'; teamId: string; status: string }
  | { by: 'thirdparty'; thirdpartyId: string };

/** The indexes with a counter (every one but a team's status list). */
export type CountedAlertIndex = Exclude<AlertIndex, { by: 'team-status' }>;

/** Indexes made of small index items (not the alert items), whose alerts a page reads with one BatchGetItem. */
const holdsIndexItems = (index: AlertIndex) => index.by === 'team' || index.by === 'team-status' || index.by === 'thirdparty';
/** A status filter naming no status holds no alert (and read as a key, an over-long one would fail). */
const holdsNothing = (index: AlertIndex) => (index.by === 'status' || index.by === 'team-status') && !(ALERT_STATUSES as readonly string[]).includes(index.status);

/** The exact number of alerts in the index: its counter summed over every layout, or the thirdparty identity's counter item. */
export async function alertCount(accountId: string, index: CountedAlertIndex): Promise<number> {
  if (holdsNothing(index)) return 0;
  if (index.by === 'thirdparty') {
    const counter = await getItem<{ itemCount?: number }>(alertThirdpartyCounterKey(accountId, index.thirdpartyId));
    return Number(counter?.itemCount ?? 0);
  }
  const counter = alertCounter(accountId, index);
  return readShardedCounter(counter.key, counter.grouped);
}

function indexQuery(accountId: string, index: AlertIndex) {
  if (index.by === 'status') return { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': statusAlertsGsi(accountId, index.status) } };
  if (index.by === 'team') return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': teamAlertsGsi(accountId, index.teamId) } };
  if (index.by === 'team-status') return { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': teamStatusAlertsGsi(accountId, index.teamId, index.status) } };
  if (index.by === 'thirdparty') return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': thirdpartyAlertsGsi(accountId, index.thirdpartyId) } };
  return { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': accountAlertsGsi(accountId) } };
}

/**
 * Alerts `offset` to `offset + limit` of the index, newest first: one Query of offset + limit keys (the team
 * index holds small items, so its alerts are then read with one BatchGetItem).
 */
export async function alertPage(accountId: string, index: AlertIndex, offset: number, limit: number, ascending = false): Promise<AlertItem[]> {
  if (holdsNothing(index)) return [];
  const found = await queryFirst<Record<string, unknown>>({ ...indexQuery(accountId, index), ScanIndexForward: ascending }, offset + limit);
  const slice = found.slice(offset);
  if (!holdsIndexItems(index)) return slice as unknown as AlertItem[];
  return alertsOfEntries(accountId, slice);
}

/** Every alert of the index (for filters the indexes do not answer): cost grows with the index. */
export async function allAlerts(accountId: string, index: AlertIndex): Promise<AlertItem[]> {
  if (holdsNothing(index)) return [];
  const items = await queryAll<Record<string, unknown>>(indexQuery(accountId, index));
  if (!holdsIndexItems(index)) return items as unknown as AlertItem[];
  return getItems<AlertItem>(items.map((entry) => alertKey(accountId, String(entry.alertId))));
}

/** What a bounded search matches on (lib/console/alert-list.ts): the alert's identity and the fields filtered or searched. */
export interface AlertSummary {
  readonly id: string;
  readonly prefixId: string;
  readonly createdAt: string;
  readonly data: Pick<AlertItem['data'], 'title' | 'description' | 'urgency' | 'status' | 'destination_team_ids'>;
}

/** Only the summary's attributes of an alert item: a search reads less than whole items (escalation state, tags, meta). */
const SUMMARY_PROJECTION = {
  ProjectionExpression: 'id, prefixId, createdAt, #data.title, #data.description, #data.urgency, #data.#status, #data.destination_team_ids',
  ExpressionAttributeNames: { '#data': 'data', '#status': 'status' },
};

/**
 * Walks the index newest first, at most `max` alerts, handing each DynamoDB page to `visit` until it answers false:
 * a page of the first `first` alerts, then each page twice the last (so a search that finds its matches early reads
 * little). Answers how many were read and whether the index ended. The team index holds small items: each of its
 * pages is then read with one BatchGetItem round.
 */
export async function walkNewest(
  accountId: string,
  index: Exclude<AlertIndex, { by: 'thirdparty' }>,
  max: number,
  first: number,
  visit: (alerts: readonly AlertSummary[]) => boolean,
): Promise<{ read: number; ended: boolean }> {
  if (holdsNothing(index)) return { read: 0, ended: true };
  const query = indexQuery(accountId, index);
  let read = 0;
  let size = Math.min(first, max);
  let startKey: Record<string, unknown> | undefined;
  for (;;) {
    const input = holdsIndexItems(index) ? query : { ...query, ...SUMMARY_PROJECTION };
    const page = await queryPage<Record<string, unknown>>({ ...input, ScanIndexForward: false, Limit: size }, startKey);
    startKey = page.next;
    read += page.items.length;
    const alerts = holdsIndexItems(index) ? await alertsOfEntries(accountId, page.items) : (page.items as unknown as AlertSummary[]);
    const more = visit(alerts);
    if (!startKey) return { read, ended: true };
    if (!more || read >= max) return { read, ended: false };
    size = Math.min(size * 2, max - read);
  }
}

/** The alerts index items name, in their order (an alert deleted since is left out). */
async function alertsOfEntries(accountId: string, entries: readonly Record<string, unknown>[]): Promise<AlertItem[]> {
  const alerts = await getItems<AlertItem>(entries.map((entry) => alertKey(accountId, String(entry.alertId))));
  const byId = new Map(alerts.map((a) => [a.id, a]));
  return entries.map((entry) => byId.get(String(entry.alertId))).filter((a): a is AlertItem => a !== undefined);
}

// The webhook's lookups -------------------------------------------------------------------------------------------

/** Statuses in which an integration's alert still takes its identity's events (docs/alerts.md, "Other sources"). */
const ACTIVE_THIRDPARTY_STATUSES: readonly string[] = ['queued', 'open', 'acknowledged', 'dropped'];

/**
 * The integration's newest alert with this thirdparty_id: one Query of one item on the integration's index of the
 * identity (gsi2), and one GetItem (strongly consistent) of the alert.
 */
export async function newestAlertOfThirdparty(accountId: string, integrationId: string, thirdpartyId: string): Promise<AlertItem | undefined> {
  const [entry] = await queryFirst<{ alertId: string }>(
    {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': integrationThirdpartyAlertsGsi(accountId, integrationId, thirdpartyId) },
      ScanIndexForward: false,
    },
    1,
  );
  return entry ? findAlert(accountId, entry.alertId) : undefined;
}

/** True when an integration's alert in this status still takes its identity's events. */
export const takesIdentityEvents = (alert: AlertItem): boolean => ACTIVE_THIRDPARTY_STATUSES.includes(alert.data.status);

/**
 * "The active one": the integration's newest alert with this thirdparty_id when its status is queued, open,
 * acknowledged or dropped; undefined when there is none or the newest is resolved or suppressed (an older alert
 * of the identity is never reached past a newer one, as the reference does).
 */
export async function activeAlertOfThirdparty(accountId: string, integrationId: string, thirdpartyId: string): Promise<AlertItem | undefined> {
  const newest = await newestAlertOfThirdparty(accountId, integrationId, thirdpartyId);
  return newest && takesIdentityEvents(newest) ? newest : undefined;
}

/** The item naming the newest alert an integration made for an identity (one per integration and identity). */
export interface NewestOfIdentityItem {
  pk: string;
  sk: string;
  type: 'ALERT_THIRDPARTY_NEWEST';
  alertId: string;
}

/** The write, in a new alert's transaction, naming it the newest of its integration and identity; none for other alerts. */
export function newestOfIdentityWrite(alert: Pick<AlertItem, 'accountId' | 'id' | 'data'>): TransactItem[] {
  const { source_type, source_id, thirdparty_id } = alert.data;
  if (source_type !== 'Integration' || thirdparty_id === null) return [];
  const item: NewestOfIdentityItem = { ...integrationThirdpartyNewestKey(alert.accountId, source_id, thirdparty_id), type: 'ALERT_THIRDPARTY_NEWEST', alertId: alert.id };
  return [putOver(item)];
}

/**
 * The integration's newest alert with this thirdparty_id, by key: one strongly consistent BatchGetItem of the
 * identity's newest-alert item and its alert counter, then a GetItem of the alert it names. No counter (or zero): the
 * account has no alert of the identity. The index query (newestAlertOfThirdparty) answers only what the key item
 * cannot: alerts stored before these items were written, or the newest alert deleted since.
 */
export async function newestAlertOfIdentity(accountId: string, integrationId: string, thirdpartyId: string): Promise<AlertItem | undefined> {
  const newestKey = integrationThirdpartyNewestKey(accountId, integrationId, thirdpartyId);
  const counterKey = alertThirdpartyCounterKey(accountId, thirdpartyId);
  const items = await getItems<{ pk: string; sk: string; alertId?: string; itemCount?: number }>([newestKey, counterKey]);
  const newest = items.find((item) => item.pk === newestKey.pk && item.sk === newestKey.sk);
  const count = Number(items.find((item) => item.pk === counterKey.pk && item.sk === counterKey.sk)?.itemCount ?? 0);
  if (!newest?.alertId && count <= 0) return undefined;
  const alert = newest?.alertId ? await findAlert(accountId, newest.alertId) : undefined;
  return alert ?? newestAlertOfThirdparty(accountId, integrationId, thirdpartyId);
}
