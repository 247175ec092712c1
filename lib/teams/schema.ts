import { z } from 'zod';
import { booleanFlag, idList, idSchema, metaSchema, optionalText, requiredText, wordOf } from '../api-shapes/schemas.ts';
import { MAX_TEAM_LIST } from '../limits.ts';

export const NOTIFICATION_TARGETS = ['none', 'team_all', 'team_admins', 'oncall_rotation', 'specific_users'] as const;
export type NotificationTarget = (typeof NOTIFICATION_TARGETS)[number];

/** The four account-user lists of a team, with the noun their errors use. */
export const ACCOUNT_USER_LISTS = [
  'member_account_user_ids',
  'admin_account_user_ids',
  'drop_notification_account_user_ids',
  'handoff_notification_account_user_ids',
] as const;
export type AccountUserList = (typeof ACCOUNT_USER_LISTS)[number];


const notificationTarget = wordOf(NOTIFICATION_TARGETS);
const accountUserIds = idList.max(MAX_TEAM_LIST, `must hold at most ${MAX_TEAM_LIST} ids`);

export const teamCreate = z.object({
  name: requiredText(),
  notes: optionalText(),
  meta: metaSchema,
  drop_notifications: notificationTarget.optional(),
  handoff_notifications: notificationTarget.optional(),
  member_account_user_ids: accountUserIds.optional(),
  admin_account_user_ids: accountUserIds.optional(),
  drop_notification_account_user_ids: accountUserIds.optional(),
  handoff_notification_account_user_ids: accountUserIds.optional(),
  notify_schedule_gaps: booleanFlag.optional(),
});

/** PUT takes the create parameters (all optional) plus the team's active schedule and escalation policy. */
export const teamUpdate = teamCreate.partial().extend({
  schedule_id: idSchema.optional(),
  escalation_policy_id: idSchema.optional(),
});

export type TeamCreateInput = z.output<typeof teamCreate>;
export type TeamUpdateInput = z.output<typeof teamUpdate>;

export interface TeamAttachment {
  filename: string;
  url: string;
}

/** Stored fields of a TEAM, exactly as the API shows them. */
export interface TeamData {
  name: string;
  notes: string | null;
  schedule_id: string;
  escalation_policy_id: string;
  member_account_user_ids: string[];
  admin_account_user_ids: string[];
  drop_notifications: NotificationTarget;
  handoff_notifications: NotificationTarget;
  drop_notification_account_user_ids: string[];
  handoff_notification_account_user_ids: string[];
  attachments: TeamAttachment[];
  /** The team's admins are emailed about gaps in its schedule (docs/schedules.md, "Gaps"); absent on teams stored before it = true. */
  notify_schedule_gaps?: boolean;
}
