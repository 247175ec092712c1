import { z } from 'zod';
import { idList, metaSchema, optionalText, requiredText } from '../api-shapes/schemas.ts';
import { MAX_WINDOW_INTEGRATIONS } from '../limits.ts';


const text = z.string({ error: 'must be a string' }).trim().min(1, "can't be blank");

export const windowCreate = z.object({
  name: requiredText(),
  description: optionalText(),
  start_datetime: text,
  end_datetime: text,
  time_zone: text,
  integration_ids: idList
    .min(1, 'must name at least one integration')
    .max(MAX_WINDOW_INTEGRATIONS, `must hold at most ${MAX_WINDOW_INTEGRATIONS} ids`),
  meta: metaSchema,
});
export const windowUpdate = windowCreate.partial();

export type WindowCreateInput = z.output<typeof windowCreate>;
export type WindowUpdateInput = z.output<typeof windowUpdate>;

/** Stored fields of a MAINTENANCE_WINDOW; `active` is computed when the window is read. */
export interface MaintenanceWindowData {
  name: string;
  description: string | null;
  /** ISO 8601 with the offset of time_zone at that instant. */
  start_datetime: string;
  end_datetime: string;
  /** As the client wrote it: a listed name or an IANA id. */
  time_zone: string;
  integration_ids: string[];
}
