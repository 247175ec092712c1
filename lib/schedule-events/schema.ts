// The EVENT resource: request schemas and the stored data shape (API names, snake_case).
import { z } from 'zod';
import { FREQUENCY_UNITS, type FrequencyUnit } from '../schedule-engine/index.ts';
import { booleanFlag, clearableId, idList, metaSchema, wordOf } from '../api-shapes/schemas.ts';

export const ATTENDEE_TYPE = 'AccountUser';

export interface EventAttendee {
  id: string;
  attendee_id: string;
  attendee_type: typeof ATTENDEE_TYPE;
  /** 1..n: rotation order, the order of account_user_ids. */
  position: number;
}

export interface EventException {
  id: string;
  /** Start of the occurrence that does not happen, ISO 8601 with the offset in the event zone. */
  start_datetime: string;
}

/**
 * Stored `data` of an EVENT. Times are ISO 8601 with the offset in force in the event zone; the text before
 * the offset is the event's wall clock in that zone, which is what the engine computes with.
 */
export interface EventData {
  start_time: string;
  end_time: string;
  /** As the client sent it: a listed name or an IANA id. */
  time_zone: string;
  layer: number;
  repeat: boolean;
  frequency: number | null;
  frequency_unit: FrequencyUnit | null;
  days_of_week: number[];
  /** Inclusive by day in the event zone: an occurrence starting on that local day still happens. */
  repeat_end_datetime: string | null;
  rotation: boolean;
  parent_id: string | null;
  schedule_ids: string[];
  event_attendees: EventAttendee[];
  exceptions: EventException[];
  /** A piece an override kept of the occurrence it split: has parent_id but is not an override. */
  remainder: boolean;
}

const INTEGER_MESSAGE = 'must be an integer of at least 1';
const DAY_MESSAGE = 'must be an integer from 0 (Sunday) to 6 (Saturday)';
const timeText = z.string({ error: 'must be an ISO 8601 datetime' }).trim().min(1, "can't be blank");

const exceptionInput = z.union(
  [z.string(), z.object({ id: z.string().optional(), start_datetime: z.string({ error: 'must be an ISO 8601 datetime' }) })],
  { error: 'must be a datetime or an object with start_datetime' },
);

const fields = {
  start_time: timeText,
  end_time: timeText,
  layer: z.number({ error: INTEGER_MESSAGE }).int(INTEGER_MESSAGE).min(1, INTEGER_MESSAGE),
  time_zone: z.string({ error: 'must be a time zone name' }).trim().min(1, "can't be blank"),
  repeat: booleanFlag.optional(),
  frequency: z.number({ error: INTEGER_MESSAGE }).int(INTEGER_MESSAGE).min(1, INTEGER_MESSAGE).nullable().optional(),
  frequency_unit: wordOf(FREQUENCY_UNITS).nullable().optional(),
  days_of_week: z
    .array(z.number({ error: DAY_MESSAGE }).int(DAY_MESSAGE).min(0, DAY_MESSAGE).max(6, DAY_MESSAGE), {
      error: 'must be a list of integers from 0 (Sunday) to 6 (Saturday)',
    })
    .nullable()
    .optional(),
  repeat_end_datetime: timeText.nullable().optional(),
  rotation: booleanFlag.optional(),
  parent_id: clearableId.optional(),
  schedule_ids: idList.min(1, 'must name at least one schedule'),
  account_user_ids: idList.min(1, 'must name at least one account user'),
  exceptions: z.array(exceptionInput, { error: 'must be a list' }).optional(),
  meta: metaSchema,
};

export const eventCreate = z.object(fields);
export const eventUpdate = z.object(fields).partial();
export type EventCreateInput = z.output<typeof eventCreate>;
export type EventUpdateInput = z.output<typeof eventUpdate>;

/** Old names of the start and end fields, still accepted on input and in list filters. */
export const OLD_FIELD_NAMES: Readonly<Record<string, string>> = { start_datetime: 'start_time', end_datetime: 'end_time' };

export const overrideInput = z.object({
  start_time: timeText,
  end_time: timeText,
  layer: fields.layer,
  time_zone: fields.time_zone,
  account_user_ids: fields.account_user_ids,
  action_time: timeText,
});

export const actionInput = z.object({ action_time: timeText });
