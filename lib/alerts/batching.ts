// Pure pieces of delivering a large step's pages in batches: the deterministic ids of what a deliver timer writes,
// and the transactions it packs its parts into. No I/O, so test/unit/alerts checks them offline.
// Rules: docs/alerts.md, "How a step is applied".
import { putNew, TRANSACTION_ITEMS, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { ALERT_LOG_ITEM_BYTES } from '../limits.ts';
import { entryBytes, logEntry, logItem, logPuts, type AlertLogEntry, type LogEntry } from './log-items.ts';

/** Crockford base32, the alphabet of ULIDs, so derived ids sort and read like the ids around them. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const INDEX_CHARS = 10;
const KEPT_CHARS = 26 - INDEX_CHARS;

/**
 * The id of the `index`-th item a deliver timer writes: the timer's ULID with its last ten characters replaced by
 * the index. The same timer always derives the same ids, so a second firing finds what the first one wrote; ids
 * of one timer sort in index order.
 */
export function deliveryItemId(timerId: string, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new Error(`Delivery index must be a non-negative integer (got ${index})`);
  let rest = index;
  let encoded = '';
  for (let i = 0; i < INDEX_CHARS; i++) {
    encoded = (CROCKFORD[rest % 32] as string) + encoded;
    rest = Math.floor(rest / 32);
  }
  if (rest > 0) throw new Error(`Delivery index ${index} does not fit in ${INDEX_CHARS} characters`);
  return `${timerId.slice(0, KEPT_CHARS)}${encoded}`;
}

/** One part of a deliver timer's work: writes that go in one transaction, and the log entry telling them, if any. */
export interface DeliveryPart {
  writes: readonly TransactItem[];
  log?: LogEntry;
}

/** One transaction of a deliver timer: parts `from` up to `to` (not included), with their log items and progress. */
export interface DeliveryBatch {
  from: number;
  to: number;
  writes: TransactItem[];
}

/**
 * The transactions writing a deliver timer's parts from `start` on, each at most `limit` items: whole parts, their
 * entries in log items (a run of entries per item, ./log-items.ts; the n-th entry of the timer's parts gets id
 * deliveryItemId(timerId, n) on every firing, so a group's key is the same too), and the write `progress(from, to,
 * last)` that records the parts done on the timer (./deferred-pages.ts). Parts keep their order.
 */
export function deliveryBatches(
  alert: { accountId: string; id: string },
  timerId: string,
  at: string,
  parts: readonly DeliveryPart[],
  start: number,
  progress: (from: number, to: number, last: boolean) => TransactItem,
  limit = TRANSACTION_ITEMS,
  cap = ALERT_LOG_ITEM_BYTES,
): DeliveryBatch[] {
  const entryIndex: number[] = [];
  let entryCount = 0;
  for (const part of parts) {
    entryIndex.push(entryCount);
    if (part.log) entryCount += 1;
  }
  const planned: { from: number; to: number; entries: AlertLogEntry[]; writes: TransactItem[] }[] = [];
  let batch = { from: start, to: start, entries: [] as AlertLogEntry[], writes: [] as TransactItem[] };
  // Log items the batch's entries take, counted as ./log-items.ts `logRuns` splits them.
  let runs = 0;
  let runBytes = 0;
  const opensRun = (size: number) => runs === 0 || runBytes + size > cap;
  for (let i = start; i < parts.length; i++) {
    const part = parts[i]!;
    const entry = part.log ? logEntry(deliveryItemId(timerId, entryIndex[i]!), at, part.log) : undefined;
    const size = entry ? entryBytes(entry) : 0;
    if (1 + (entry ? 1 : 0) + part.writes.length > limit) throw new Error(`A deliver timer's part of ${part.writes.length} writes does not fit in one transaction`);
    // The progress write, the log items and the writes, with this part's.
    const items = 1 + runs + (entry && opensRun(size) ? 1 : 0) + batch.writes.length + part.writes.length;
    if (items > limit && batch.to > batch.from) {
      planned.push(batch);
      batch = { from: i, to: i, entries: [], writes: [] };
      runs = 0;
      runBytes = 0;
    }
    if (entry) {
      if (opensRun(size)) {
        runs += 1;
        runBytes = size;
      } else runBytes += size;
      batch.entries.push(entry);
    }
    batch.writes.push(...part.writes);
    batch.to = i + 1;
  }
  if (batch.to > batch.from) planned.push(batch);
  return planned.map((b, i) => ({
    from: b.from,
    to: b.to,
    writes: [progress(b.from, b.to, i === planned.length - 1), ...logPuts(alert.accountId, alert.id, b.entries, cap), ...b.writes],
  }));
}

/**
 * The write units of a deliver timer as firings wrote them before log entries were grouped, one item per entry:
 * one per log entry left out of the step's transaction, then one per message (its `notified` log entry first, then
 * its records and outbox messages). Every log item's id derives from the timer, and is written only if absent, so a
 * unit a previous firing wrote fails as a whole and is skipped: what finishes a firing begun that way.
 */
export function deliveryUnits(
  alert: { accountId: string; id: string },
  timerId: string,
  at: string,
  logs: readonly LogEntry[],
  messages: readonly { writes: readonly TransactItem[]; log: LogEntry }[],
): WriteUnit[] {
  const logWrite = (index: number, entry: LogEntry) => putNew(logItem(alert.accountId, alert.id, deliveryItemId(timerId, index), at, entry));
  return [
    ...logs.map((entry, index) => ({ writes: [logWrite(index, entry)] })),
    ...messages.map((message, index) => ({ writes: [logWrite(logs.length + index, message.log), ...message.writes] })),
  ];
}

/** Whether all of `groups` fit in one transaction next to `reserved` writes. */
export const fitsInOneTransaction = (reserved: number, limit: number, ...groups: readonly (readonly unknown[])[]): boolean =>
  groups.reduce((total, group) => total + group.length, reserved) <= limit;
