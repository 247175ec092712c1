// Outgoing webhooks endpoint group: thin transport over lib/webhooks (docs/outgoing-webhooks.md).
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { renderDelivery } from '#lib/webhooks/deliveries.ts';
import { outgoingWebhookCreate, outgoingWebhookUpdate, rotateSecretInput } from '#lib/webhooks/schema.ts';
import {
  createOutgoingWebhook,
  deleteOutgoingWebhook,
  deliveryList,
  getOutgoingWebhook,
  outgoingWebhookListSource,
  renderOutgoingWebhook,
  replayDelivery,
  rotateSecret,
  sendTestEvent,
  updateOutgoingWebhook,
} from '#lib/webhooks/service.ts';

const accepted = (body: unknown) => ({ status: 202, body });

export const handler = apiHandler('outgoing_webhooks', {
  'POST /api/v4/outgoing_webhooks': async ({ caller, body }) => {
    const { item, secret } = await createOutgoingWebhook(caller.accountId, validate(outgoingWebhookCreate, body));
    return created({ ...renderOutgoingWebhook(item), secret });
  },
  'GET /api/v4/outgoing_webhooks': async ({ caller, query }) => listResponse(outgoingWebhookListSource(caller.accountId), query, { searchFields: ['name', 'url'] }),
  'GET /api/v4/outgoing_webhooks/{id}': async ({ caller, params }) => ok(renderOutgoingWebhook(await getOutgoingWebhook(caller.accountId, params.id!))),
  'PUT /api/v4/outgoing_webhooks/{id}': async ({ caller, params, body }) =>
    ok(renderOutgoingWebhook(await updateOutgoingWebhook(caller.accountId, params.id!, validate(outgoingWebhookUpdate, body)))),
  'DELETE /api/v4/outgoing_webhooks/{id}': async ({ caller, params }) => {
    await deleteOutgoingWebhook(caller.accountId, params.id!);
    return noContent();
  },
  'GET /api/v4/outgoing_webhooks/{id}/deliveries': async ({ caller, params, query }) =>
    listResponse(await deliveryList(caller.accountId, params.id!), query, { searchFields: ['event_type', 'event_id', 'alert_id'] }),
  'POST /api/v4/outgoing_webhooks/{id}/deliveries/{delivery_id}/replay': async ({ caller, params }) =>
    accepted(renderDelivery(await replayDelivery(caller.accountId, params.id!, params.delivery_id!))),
  'POST /api/v4/outgoing_webhooks/{id}/test': async ({ caller, params }) => accepted(renderDelivery(await sendTestEvent(caller.accountId, params.id!))),
  'POST /api/v4/outgoing_webhooks/{id}/rotate_secret': async ({ caller, params, body }) => {
    const input = validate(rotateSecretInput, body);
    const { item, secret } = await rotateSecret(caller.accountId, params.id!, input.grace_seconds);
    return ok({ ...renderOutgoingWebhook(item), secret });
  },
});
