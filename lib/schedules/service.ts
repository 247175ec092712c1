import type { z } from 'zod';
import { createEntities, getEntity, listEntities, newEntityItem, render, updateEntity, type EntityItem } from '../db/repository.ts';
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
