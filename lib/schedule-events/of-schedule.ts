// The schedule endpoints that work on a schedule's events: the raw event list, flush, and delete, which detaches the
// events first (schedules sit below their events, decision 0034).
import { listEntities, removeEntity } from '../db/repository.ts';
import { conflict } from '../errors.ts';
import type { ScheduleData } from '../schedules/schema.ts';
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

/**
 * A team always has one active schedule, so a schedule in use cannot be deleted. The schedule's events leave it
 * first (an event in no other schedule is deleted); an event added or a team linking it meanwhile touches the
 * schedule, so the delete then checks and detaches again instead of leaving a reference to a deleted schedule.
 */
export async function deleteSchedule(accountId: string, id: string): Promise<void> {
  await removeEntity<ScheduleData>('SCHEDULE', accountId, id, async (schedule) => {
    const teams = await listEntities<{ name: string; schedule_id?: string }>('TEAM', accountId);
    const users = teams.filter((t) => t.data.schedule_id === schedule.id);
    if (users.length) throw conflict(`Schedule is the active schedule of team ${users.map((t) => t.data.name).join(', ')}; give the team another schedule first`);
    await detachSchedule(accountId, schedule.id);
  });
}
