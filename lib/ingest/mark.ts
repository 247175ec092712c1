// The mark of an applied event: its notes on the request's log, written in the transaction of the change they describe
// (docs/ingest.md, "Exactly-once effects"). On a message's first delivery the log is not stored yet, and the mark is
// the new log itself, born with the event's notes, its chunks, alias and counters: the request's log, its counters and
// its first change are then one transaction.
import { transact } from '../db/items.ts';
import { retryOnConflict } from '../db/retry.ts';
import type { TransactItem } from '../db/writes.ts';
import type { IngestMessage } from '../queue/ingest.ts';
import { findSourceLogItem, logExisted, logNotesWrite, newLogWrites, recordLogNotes, type LogNote } from './source-log.ts';

/** Where an event's notes go: the request, its log, whether the log is stored yet, and the steps the notes mark. */
export interface MarkTarget {
  message: IngestMessage;
  logRef: { accountId: string; logId: string };
  /** The log steps the notes mark (the event's own, and the request's last when it is the last event). */
  steps: readonly string[];
  /** True once the request's log is stored; false on a first delivery until its first write, which stores it. */
  logKept: boolean;
}

/**
 * A first delivery's write found the request's log already stored (an earlier message of the same request, or a
 * delivery counted as first that was not): the request is applied again the way a redelivery is, reading its log.
 */
export class LogAlreadyKept extends Error {
  override name = 'LogAlreadyKept';
  constructor() {
    super('The request was kept as its log by an earlier delivery');
  }
}

/** The writes marking `notes` on the log: an update of the kept log (once per step), or the new log with them. Pure. */
export const markWrites = (target: MarkTarget, notes: readonly LogNote[]): TransactItem[] =>
  target.logKept ? [logNotesWrite(target.logRef, target.steps, notes)] : newLogWrites(target.message, notes, target.steps);

/** Attempts of a new log's own transaction that lost only to concurrent writers of its counters. */
const NEW_LOG_ATTEMPTS = 5;

/**
 * Writes notes alone (a change with nothing else to write). False when the kept log has them already (another delivery
 * of the request wrote them first); on a first delivery whose log turns out to exist, throws LogAlreadyKept.
 */
export async function writeNotesAlone(target: MarkTarget, notes: readonly LogNote[]): Promise<boolean> {
  if (target.logKept) return recordLogNotes(target.logRef, target.steps, notes);
  // Nothing is read, so a transaction cancelled by a concurrent one (both adding to a log counter) is sent again.
  await retryOnConflict(
    async () => {
      try {
        await transact(markWrites(target, notes));
      } catch (error) {
        if (logExisted(error)) throw new LogAlreadyKept();
        throw error;
      }
    },
    { attempts: NEW_LOG_ATTEMPTS, exhausted: () => new Error('The request log kept conflicting with concurrent writes of its counters') },
  );
  return true;
}

/**
 * After a first delivery's write lost a race: when the reason is the request's log, stored meanwhile (or before), no
 * later attempt can succeed, and LogAlreadyKept says so at once.
 */
export async function stopIfLogKept(target: MarkTarget): Promise<void> {
  if (!target.logKept && (await findSourceLogItem(target.logRef.accountId, target.logRef.logId))) throw new LogAlreadyKept();
}
