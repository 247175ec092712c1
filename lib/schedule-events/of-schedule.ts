// The schedule endpoints that work on a schedule's events: the raw event list and flush.
import { getSchedule } from '../schedules/service.ts';
import { detachSchedule } from './membership.ts';
import { renderEvent } from './model.ts';
import { eventsOfSchedule } from './store.ts';

/** GET /schedules/:id/events: the schedule's events as stored (not expanded), rendered for the list engine. */
export async function scheduleEventObjects(accountId: string, scheduleId: string): Promise<Record<string, unknown>[]> {
  const schedule = await getSchedule(accountId, scheduleId);
  return (await eventsOfSchedule(accountId, schedule.id)).map(renderEvent);
}

/** DELETE /schedules/:id/flush: every event leaves the schedule; events in no other schedule are deleted. */
export async function flushSchedule(accountId: string, scheduleId: string): Promise<void> {
  const schedule = await getSchedule(accountId, scheduleId);
  await detachSchedule(accountId, schedule.id);
}
