import { z } from 'zod';
import { metaSchema, requiredText } from '../api-shapes/schemas.ts';

export const scheduleCreate = z.object({ name: requiredText(), meta: metaSchema });
export const scheduleUpdate = scheduleCreate.partial();

export interface ScheduleData {
  name: string;
}
