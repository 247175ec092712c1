// Taking a schedule's events out of it: flush, and the cleanup when a schedule is deleted. An event also in
// other schedules only leaves this one; an event left in no schedule is deleted.
import { nowIso } from '../clock.ts';
import { countChange, deleteItems, isConditionFailure, transact, type TransactItem } from '../db/repository.ts';
import { conflict } from '../http/errors.ts';
import type { EventItem } from './model.ts';
import { eventsOfSchedule } from './store.ts';

/** DynamoDB's limit of writes per transaction. */
const TRANSACTION_ITEMS = 100;
const ATTEMPTS = 5;

interface Change {
  writes: TransactItem[];
  deletes: number;
}

function changeOf(event: EventItem, scheduleId: string): Change {
  const remaining = event.data.schedule_ids.filter((id) => id !== scheduleId);
  if (remaining.length === 0) return { writes: deleteItems(event, { count: false }), deletes: 1 };
  const next: EventItem = { ...event, data: { ...event.data, schedule_ids: remaining }, version: event.version + 1, updatedAt: nowIso() };
  return {
    writes: [{ Put: { Item: next as unknown as Record<string, unknown>, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': event.version } } }],
    deletes: 0,
  };
}

/** Groups per-event changes into transactions of at most 100 writes (one count change each). */
function batches(changes: readonly Change[], accountId: string): TransactItem[][] {
  const out: TransactItem[][] = [];
  let writes: TransactItem[] = [];
  let deletes = 0;
  const flush = () => {
    if (writes.length === 0) return;
    out.push(deletes > 0 ? [...writes, countChange(accountId, 'EVENT', -deletes)] : writes);
    writes = [];
    deletes = 0;
  };
  for (const change of changes) {
    if (writes.length + change.writes.length + 1 > TRANSACTION_ITEMS) flush();
    writes.push(...change.writes);
    deletes += change.deletes;
  }
  flush();
  return out;
}

/**
 * Removes every event from the schedule (canonical id): each transaction of up to 100 writes is all or nothing,
 * and an event changed meanwhile is read again and retried until none is left in the schedule.
 */
export async function detachSchedule(accountId: string, scheduleId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const events = await eventsOfSchedule(accountId, scheduleId);
    if (events.length === 0) return;
    let failed = false;
    for (const batch of batches(events.map((e) => changeOf(e, scheduleId)), accountId)) {
      try {
        await transact(batch);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        failed = true;
      }
    }
    if (!failed) return;
    if (attempt >= ATTEMPTS) throw conflict('Events of this schedule kept changing while they were being removed; retry');
  }
}
