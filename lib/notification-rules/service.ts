// Notification rules (docs/rules.md, "Notification rules"): YAML that decides how an account user is paged. The rules are
// parsed and checked with lib/rule-engine on every write; account users point at a rule by notification_rule_id.

import type { AccountUserData } from '../accounts/account-users.ts';
import { createEntity, getEntity, listEntities, removeEntity, render, updateEntity, type EntityItem } from '../db/repository.ts';
import { conflict, invalid } from '../errors.ts';
import { parseNotificationRules } from '../rule-engine/index.ts';
import { rulesProblemMessage } from '../routers/schema.ts';
import type { NotificationRuleCreateInput, NotificationRuleData, NotificationRuleUpdateInput } from './schema.ts';
import { entityCollection } from '../db/pages.ts';

export type NotificationRuleItem = EntityItem<NotificationRuleData>;

export const renderNotificationRule = (item: NotificationRuleItem) => render(item);
export const getNotificationRule = (accountId: string, id: string) => getEntity<NotificationRuleData>('NOTIFICATION_RULE', accountId, id);
export const listNotificationRules = (accountId: string) => listEntities<NotificationRuleData>('NOTIFICATION_RULE', accountId);
export const notificationRuleListSource = (accountId: string) =>
  entityCollection('NOTIFICATION_RULE', accountId, (items: NotificationRuleItem[]) => items.map(renderNotificationRule));

/** 422 with one `rules line N: …` message per problem when the YAML does not hold. */
export function checkNotificationRules(rules: string): void {
  const parsed = parseNotificationRules(rules, { onSave: true });
  if (!parsed.ok) throw invalid(parsed.problems.map(rulesProblemMessage));
}

export async function createNotificationRule(accountId: string, input: NotificationRuleCreateInput): Promise<NotificationRuleItem> {
  const data: NotificationRuleData = { name: input.name, enabled: input.enabled ?? true, rules: input.rules ?? '' };
  checkNotificationRules(data.rules);
  return createEntity<NotificationRuleData>('NOTIFICATION_RULE', accountId, data, { meta: input.meta ?? {} });
}

export async function updateNotificationRule(accountId: string, id: string, input: NotificationRuleUpdateInput): Promise<NotificationRuleItem> {
  return updateEntity<NotificationRuleData>('NOTIFICATION_RULE', accountId, id, (current) => {
    const data: NotificationRuleData = {
      name: input.name ?? current.data.name,
      enabled: input.enabled ?? current.data.enabled,
      rules: input.rules ?? current.data.rules,
    };
    checkNotificationRules(data.rules);
    return { data, ...(input.meta !== undefined ? { meta: input.meta } : {}) };
  });
}

/**
 * A rule that account users are paged by cannot be deleted: their paging would silently change to the
 * default channels. Give them another rule (or none) first.
 */
export async function deleteNotificationRule(accountId: string, id: string): Promise<void> {
  await removeEntity<NotificationRuleData>('NOTIFICATION_RULE', accountId, id, async (rule) => {
    const users = (await listEntities<AccountUserData>('ACCOUNT_USER', accountId)).filter((u) => u.data.notification_rule_id === rule.id);
    if (users.length) {
      throw conflict(`Notification rule is used by account users ${users.map((u) => u.prefixId).join(', ')}; give them another notification rule first`);
    }
  });
}
