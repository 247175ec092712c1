import type { z } from 'zod';
import { createEntities, getEntity, listEntities, newEntityItem, removeEntity, render, updateEntity, type EntityItem } from '../db/repository.ts';
import { detachSchedule } from '../schedule-events/membership.ts';
import { conflict } from '../errors.ts';
import type { ScheduleData, scheduleCreate, scheduleUpdate } from './schema.ts';
import { entityCollection } from '../db/pages.ts';

export type ScheduleItem = EntityItem<ScheduleData>;

export const renderSchedule = (item: ScheduleItem) => render(item);

/** A new schedule, not yet written: for callers that create it inside a larger transaction (a team's default schedule). */
export async function newScheduleItem(accountId: string, input: z.output<typeof scheduleCreate>): Promise<ScheduleItem> {
  return newEntityItem<ScheduleData>('SCHEDULE', accountId, { name: input.name }, { meta: input.meta ?? {} });
}

export async function createSchedule(accountId: string, input: z.output<typeof scheduleCreate>): Promise<ScheduleItem> {
  const item = await newScheduleItem(accountId, input);
  await createEntities([item]);
  return item;
}

export const getSchedule = (accountId: string, id: string) => getEntity<ScheduleData>('SCHEDULE', accountId, id);
export const listSchedules = (accountId: string) => listEntities<ScheduleData>('SCHEDULE', accountId);
/** GET /schedules: a page of the default order reads only that page (lib/db/pages.ts). */
export const scheduleListSource = (accountId: string) => entityCollection('SCHEDULE', accountId, (items: ScheduleItem[]) => items.map(renderSchedule));

export async function updateSchedule(accountId: string, id: string, input: z.output<typeof scheduleUpdate>): Promise<ScheduleItem> {
  return updateEntity<ScheduleData>('SCHEDULE', accountId, id, (current) => ({
    data: { ...current.data, ...(input.name !== undefined ? { name: input.name } : {}) },
    ...(input.meta !== undefined ? { meta: input.meta } : {}),
  }));
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
