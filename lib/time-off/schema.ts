import { z } from 'zod';
import { idSchema, metaSchema, optionalText } from '../api-shapes/schemas.ts';
import { TIME_OFF_REASON_LENGTH } from '../limits.ts';

const text = z.string({ error: 'must be a string' }).trim().min(1, "can't be blank");

export const timeOffCreate = z.object({
  account_user_id: idSchema.optional(),
  start_time: text,
  end_time: text,
  time_zone: text.optional(),
  reason: optionalText(TIME_OFF_REASON_LENGTH),
  meta: metaSchema,
});
export const timeOffUpdate = timeOffCreate.partial();

export type TimeOffCreateInput = z.output<typeof timeOffCreate>;
export type TimeOffUpdateInput = z.output<typeof timeOffUpdate>;

/** Stored fields of a TIME_OFF (docs/schedules.md, "Time off"). */
export interface TimeOffData {
  /** The canonical id of the account user who is away. */
  account_user_id: string;
  /** ISO 8601 with the offset of time_zone at that instant. */
  start_time: string;
  end_time: string;
  /** As the client wrote it (a listed name or an IANA id); UTC when none was sent. */
  time_zone: string;
  reason: string | null;
}
