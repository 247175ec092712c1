// Taking a schedule's events out of it: flush, and the cleanup when a schedule is deleted. An event also in
// other schedules only leaves this one; an event left in no schedule is deleted.
import { conflict } from '../errors.ts';
import { transact } from '../db/items.ts';
import { lostARace, PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { batchUnits, listRemovalUnit, type WriteUnit } from '../db/writes.ts';
import { eventsOfSchedule } from './store.ts';

const SCHEDULE_IDS = ['data', 'schedule_ids'] as const;

/**
 * Removes every event from the schedule (canonical id), in transactions of at most 100 writes. Each write is
 * conditioned on the schedule id still being where it was read, not on the event's version: the intent does not
 * depend on the rest of the event, so edits of events meanwhile do not starve it. An event whose list changed
 * meanwhile is read again, with backoff, until none is left in the schedule.
 */
export async function detachSchedule(accountId: string, scheduleId: string): Promise<void> {
  await retryOnConflict(
    async () => {
      const events = await eventsOfSchedule(accountId, scheduleId);
      const units = events.map((e) => listRemovalUnit(e, SCHEDULE_IDS, scheduleId, e.data.schedule_ids)).filter((u): u is WriteUnit => u !== undefined);
      let lost: unknown;
      for (const batch of batchUnits(units)) {
        // Every batch is tried, so one contended event does not hold back the others; the next attempt reads again.
        await transact(batch).catch((error: unknown) => {
          if (!lostARace(error)) throw error;
          lost = error;
        });
      }
      if (lost !== undefined) throw lost;
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: () => conflict('Events of this schedule kept changing while they were being removed; retry') },
  );
}
