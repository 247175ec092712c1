// An alert's timeline as stored: the entries one transaction writes for one alert share ONE log item (sort key
// `LOG#<first entry's id>`, the entries in `entries`), a lone entry keeps an item of its own (its fields on the
// item, as every item written before grouping). Every reader turns items into entries with `entriesOf`. Pure.
// Layout: docs/storage.md, "Alerts"; why: docs/decisions/0028-log-entries-of-a-change-in-one-item.md.
import { alertLogSk, alertPk } from '../db/keys.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import type { LogEvent } from '../escalation-engine/index.ts';
import { ALERT_LOG_ITEM_BYTES } from '../limits.ts';
import type { RoutingLogEvent } from '../routing-engine/index.ts';

/** Events the alerts service logs itself; the engine's and routing's own events come with their effects. */
type ServiceLogEvent = 'created' | 'notified' | 'updated' | 'deduplicated' | 'commented' | 'message_action' | 'trimmed';
export type AlertLogEvent = LogEvent | RoutingLogEvent | ServiceLogEvent;

/** What a step says, before it is stamped with an id and an instant. */
export interface LogEntry {
  event: AlertLogEvent;
  message: string;
  account_user_id?: string | undefined;
  team_id?: string | undefined;
  router_id?: string | undefined;
  layer?: number | undefined;
  pass?: number | undefined;
  comment_id?: string | undefined;
}

/** One entry of an alert's timeline as stored (GET /alerts/:id/logs shows it with `alert_id`). */
export interface AlertLogEntry {
  id: string;
  created_at: string;
  event: AlertLogEvent;
  message: string;
  account_user_id?: string;
  team_id?: string;
  router_id?: string;
  layer?: number;
  pass?: number;
  /** The comment a `commented` entry tells of. */
  comment_id?: string;
}

interface LogItemKeys {
  pk: string;
  sk: string;
  type: 'ALERT_LOG';
  accountId: string;
  alertId: string;
}

/** An item of one entry, its fields on the item. Sort key `LOG#<ulid>`. */
export type SingleLogItem = LogItemKeys & AlertLogEntry & { entries?: undefined };
/** An item of a transaction's entries, in the order written. Sort key `LOG#<first entry's id>`. */
export interface GroupedLogItem extends LogItemKeys {
  entries: AlertLogEntry[];
}
export type AlertLogItem = SingleLogItem | GroupedLogItem;

const OPTIONAL_FIELDS = ['account_user_id', 'team_id', 'router_id', 'layer', 'pass', 'comment_id'] as const;

/** The stored entry: id, instant, event, message and only the optional fields that are set. */
export function logEntry(id: string, createdAt: string, entry: LogEntry): AlertLogEntry {
  const stored: AlertLogEntry = { id, created_at: createdAt, event: entry.event, message: entry.message };
  for (const field of OPTIONAL_FIELDS) {
    const value = entry[field];
    if (value !== undefined) (stored as unknown as Record<string, unknown>)[field] = value;
  }
  return stored;
}

const keysOf = (accountId: string, alertId: string, firstId: string): LogItemKeys => ({ pk: alertPk(accountId, alertId), sk: alertLogSk(firstId), type: 'ALERT_LOG', accountId, alertId });

/** The item of one entry (a comment, a dedup, a failed delivery: writers of a lone entry). */
export const logItem = (accountId: string, alertId: string, id: string, createdAt: string, entry: LogEntry): SingleLogItem => ({
  ...keysOf(accountId, alertId, id),
  ...logEntry(id, createdAt, entry),
});

/** The bytes an entry counts against ALERT_LOG_ITEM_BYTES: its JSON, UTF-8. */
export const entryBytes = (entry: AlertLogEntry): number => Buffer.byteLength(JSON.stringify(entry), 'utf8');

/**
 * Splits entries, in order, into the runs one item each holds: a run's entries together at most `cap` bytes of
 * JSON (ALERT_LOG_ITEM_BYTES), an entry larger than that a run of its own.
 */
export function logRuns(entries: readonly AlertLogEntry[], cap = ALERT_LOG_ITEM_BYTES): AlertLogEntry[][] {
  const runs: AlertLogEntry[][] = [];
  let run: AlertLogEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = entryBytes(entry);
    if (run.length > 0 && bytes + size > cap) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(entry);
    bytes += size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** The items holding `entries` (stamped, in the order written): one per run, a run of one entry a single-entry item. */
export function logItems(accountId: string, alertId: string, entries: readonly AlertLogEntry[], cap = ALERT_LOG_ITEM_BYTES): AlertLogItem[] {
  return logRuns(entries, cap).map((run): AlertLogItem => {
    const first = run[0]!;
    return run.length === 1 ? { ...keysOf(accountId, alertId, first.id), ...first } : { ...keysOf(accountId, alertId, first.id), entries: run };
  });
}

/** The puts of `entries` for one transaction, each item written only if absent. */
export const logPuts = (accountId: string, alertId: string, entries: readonly AlertLogEntry[], cap = ALERT_LOG_ITEM_BYTES): TransactItem[] =>
  logItems(accountId, alertId, entries, cap).map((item) => putNew(item));

// An id is a 26-character ULID and an instant toISOString()'s 24 characters: placeholders of those lengths size an
// entry exactly before it is stamped.
const PLACEHOLDER_ID = '0'.repeat(26);
const PLACEHOLDER_AT = '2000-01-01T00:00:00.000Z';

/** How many items `entries` take once stamped: what a transaction's budget counts for its log. */
export const logItemCount = (entries: readonly LogEntry[]): number => logRuns(entries.map((entry) => logEntry(PLACEHOLDER_ID, PLACEHOLDER_AT, entry))).length;

/** The entries of a log item of either shape, as the API shows them (less `alert_id`). */
export function entriesOf(item: AlertLogItem): AlertLogEntry[] {
  if (Array.isArray(item.entries)) return item.entries.map((entry) => ({ ...entry }));
  const { pk: _pk, sk: _sk, type: _type, accountId: _account, alertId: _alert, entries: _entries, ...entry } = item as SingleLogItem;
  return [entry];
}

const byId = (a: AlertLogEntry, b: AlertLogEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The entries of log items in id order: the order written (ids are monotonic), also where another writer's entry
 * has an id between the ids of a group's entries.
 */
export const timelineOf = (items: readonly AlertLogItem[]): AlertLogEntry[] => items.flatMap(entriesOf).sort(byId);

/** The entries of alert `alertId` among the items a transaction puts, in the order written. */
export function entriesPut(puts: readonly Record<string, unknown>[], alertId: string): AlertLogEntry[] {
  return timelineOf(puts.filter((item) => item.type === 'ALERT_LOG' && item.alertId === alertId) as unknown as AlertLogItem[]);
}
