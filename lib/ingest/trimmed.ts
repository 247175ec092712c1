// What a webhook's payload had beyond a storage limit (Meta nested too deep or too large, additional data too large):
// the reader kept what fits and noted the rest in the request's log; the same notes go into the alert's own log, in
// the transaction that stores the alert, so whoever reads the alert sees that it is not the whole payload.
// docs/ingest.md, "Reading a payload".
import { nextId } from '../alerts/effects.ts';
import { logItem, type AlertItem } from '../alerts/items.ts';
import { nowMs } from '../clock.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import { MAX_LOG_NOTE_LENGTH } from '../limits.ts';
import { cutText, isTrimmedNote } from '../monitor-readers/fields.ts';
import type { LogNote } from './source-log.ts';

/** One `trimmed` entry of the alert's log with the reading's notes about a storage limit; none when it had none. */
export function trimmedLogWrites(alert: Pick<AlertItem, 'accountId' | 'id'>, readNotes: readonly LogNote[]): TransactItem[] {
  const trimmed = readNotes.filter((note) => isTrimmedNote(note.message)).map((note) => cutText(note.message, MAX_LOG_NOTE_LENGTH));
  if (trimmed.length === 0) return [];
  const now = nowMs();
  return [putNew(logItem(alert.accountId, alert.id, nextId(now), new Date(now).toISOString(), { event: 'trimmed', message: trimmed.join(' ') }))];
}
