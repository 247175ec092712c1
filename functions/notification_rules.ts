// Notification rules endpoint group: thin transport over lib/notification-rules.
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { notificationRuleCreate, notificationRuleUpdate } from '#lib/notification-rules/schema.ts';
import {
  createNotificationRule,
  deleteNotificationRule,
  getNotificationRule,
  notificationRuleListSource,
  renderNotificationRule,
  updateNotificationRule,
} from '#lib/notification-rules/service.ts';

export const handler = apiHandler('notification_rules', {
  'POST /api/v4/notification_rules': async ({ caller, body }) =>
    created(renderNotificationRule(await createNotificationRule(caller.accountId, validate(notificationRuleCreate, body)))),
  'GET /api/v4/notification_rules': async ({ caller, query }) =>
    listResponse(notificationRuleListSource(caller.accountId), query, { searchFields: ['name'] }),
  'GET /api/v4/notification_rules/{id}': async ({ caller, params }) =>
    ok(renderNotificationRule(await getNotificationRule(caller.accountId, params.id!))),
  'PUT /api/v4/notification_rules/{id}': async ({ caller, params, body }) =>
    ok(renderNotificationRule(await updateNotificationRule(caller.accountId, params.id!, validate(notificationRuleUpdate, body)))),
  'DELETE /api/v4/notification_rules/{id}': async ({ caller, params }) => {
    await deleteNotificationRule(caller.accountId, params.id!);
    return noContent();
  },
});
