import { z } from 'zod';
import { booleanFlag, metaSchema, requiredText } from '../api-shapes/schemas.ts';
import { rulesText } from '../routers/schema.ts';

export const notificationRuleCreate = z.object({
  name: requiredText(),
  enabled: booleanFlag.optional(),
  rules: rulesText.optional(),
  meta: metaSchema,
});
export const notificationRuleUpdate = notificationRuleCreate.partial();

export type NotificationRuleCreateInput = z.output<typeof notificationRuleCreate>;
export type NotificationRuleUpdateInput = z.output<typeof notificationRuleUpdate>;

/** Stored fields of a NOTIFICATION_RULE. */
export interface NotificationRuleData {
  name: string;
  enabled: boolean;
  /** YAML, "" for none (the users' default channels apply). */
  rules: string;
}
