// The BROADCAST resource: request schemas and the stored data shape (API names, snake_case).
// Fields, rules and choices: docs/broadcasts.md.
import { z } from 'zod';
import { booleanFlag, idList, idSchema, metaSchema, optionalText, requiredText } from '../api-shapes/schemas.ts';
import { MAX_BROADCAST_DESTINATIONS, MAX_BROADCAST_OPTIONS, NAME_LENGTH, TEXT_LENGTH } from '../limits.ts';

export const BROADCAST_STATUSES = ['queued', 'open', 'closed', 'errored'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** The channels a broadcast may select; never voice (docs/broadcasts.md, "Sending"). */
export const BROADCAST_CHANNELS = ['push', 'email', 'sms', 'slack', 'whatsapp'] as const;
export const CHANNEL_FLAGS = ['notify_push', 'notify_email', 'notify_sms', 'notify_slack', 'notify_whatsapp'] as const;
export type BroadcastChannel = (typeof BROADCAST_CHANNELS)[number];
export type ChannelFlag = (typeof CHANNEL_FLAGS)[number];

const destinationIds = idList.max(MAX_BROADCAST_DESTINATIONS, `must hold at most ${MAX_BROADCAST_DESTINATIONS} ids`);
const tagList = z.array(requiredText(), { error: 'must be a list of strings' }).max(MAX_BROADCAST_DESTINATIONS, `must hold at most ${MAX_BROADCAST_DESTINATIONS} tags`);
const instant = z
  .string({ error: 'must be an ISO 8601 date and time' })
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 date and time, e.g. 2030-01-01T18:00:00Z')
  .nullable();

const option = z.object(
  {
    value: requiredText(NAME_LENGTH),
  },
  { error: 'must be an object with a value' },
);

export const broadcastCreate = z.object({
  title: requiredText(NAME_LENGTH),
  description: optionalText(TEXT_LENGTH),
  tag_list: tagList.optional(),
  destination_team_ids: destinationIds.optional(),
  destination_account_user_ids: destinationIds.optional(),
  response_requested: booleanFlag.optional(),
  response_requested_by: instant.optional(),
  select_specific_channels: booleanFlag.optional(),
  notify_push: booleanFlag.optional(),
  notify_email: booleanFlag.optional(),
  notify_sms: booleanFlag.optional(),
  notify_slack: booleanFlag.optional(),
  notify_whatsapp: booleanFlag.optional(),
  // Accepted only to refuse it with a message that says why: broadcasts never call.
  notify_voice: booleanFlag.optional(),
  broadcast_response_options_attributes: z
    .array(option, { error: 'must be a list of objects with a value' })
    .max(MAX_BROADCAST_OPTIONS, `must hold at most ${MAX_BROADCAST_OPTIONS} options`)
    .optional(),
  meta: metaSchema,
});

/** What a PUT may change: the words, not who hears them or how (the broadcast is sent when it is created). */
export const broadcastUpdate = z.object({
  title: requiredText(NAME_LENGTH).optional(),
  description: optionalText(TEXT_LENGTH),
  tag_list: tagList.optional(),
  meta: metaSchema,
});

/** Parameters that decide delivery: fixed once the broadcast exists (a PUT naming one is refused). */
export const FIXED_AFTER_CREATE = [
  'destination_team_ids',
  'destination_account_user_ids',
  'response_requested',
  'response_requested_by',
  'select_specific_channels',
  ...CHANNEL_FLAGS,
  'broadcast_response_options_attributes',
] as const;

export const broadcastResponseCreate = z.object({
  broadcast_response_option_id: idSchema,
});

export type BroadcastCreateInput = z.output<typeof broadcastCreate>;
export type BroadcastUpdateInput = z.output<typeof broadcastUpdate>;
export type BroadcastResponseInput = z.output<typeof broadcastResponseCreate>;

export interface ResponseOption {
  id: string;
  value: string;
  position: number;
}

/** Stored fields of a BROADCAST. */
export interface BroadcastData {
  title: string;
  description: string | null;
  tag_list: string[];
  destination_team_ids: string[];
  destination_account_user_ids: string[];
  status: BroadcastStatus;
  response_requested: boolean;
  response_requested_by: string | null;
  select_specific_channels: boolean;
  notify_push: boolean;
  notify_email: boolean;
  notify_sms: boolean;
  notify_slack: boolean;
  notify_whatsapp: boolean;
  broadcast_response_options: ResponseOption[];
  /** When its messages were handed to delivery (the send), and when it stopped taking answers. */
  sent_at: string | null;
  closed_at: string | null;
  /** How many people the send reached with at least one queued message, and how many it tried. */
  recipients_count: number;
  reached_count: number;
  /** Why the broadcast is `errored` (no message could be delivered, and why); null otherwise. */
  errored_reason: string | null;
}

/** One person's answer; the last one wins (docs/broadcasts.md, "Answers"). */
export interface StoredResponse {
  id: string;
  prefix_id: string;
  account_user_id: string;
  broadcast_response_option_id: string;
  channel: string;
  created_at: string;
}
