// Pure pieces of delivering a large step's pages in batches: the deterministic ids of what a deliver timer writes,
// and the write units it packs into transactions. No I/O, so test/unit/alerts checks them offline.
// Rules: docs/alerts.md, "How a step is applied".
import { putNew, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { logItem, type LogEntry } from './items.ts';

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

/**
 * The write units of a deliver timer: one per log entry left out of the step's transaction, then one per message
 * (its `notified` log entry first, then its records and outbox messages). Every log item's id derives from the
 * timer, and is written only if absent, so a unit a previous firing wrote fails as a whole and is skipped.
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
