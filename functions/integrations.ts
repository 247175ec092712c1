// Integrations endpoint group: thin transport over lib/integrations.
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { INTEGRATION_TYPES, integrationCreate, integrationUpdate, renderIntegrationType } from '#lib/integrations/schema.ts';
import { notFound } from '#lib/api-shapes/http-errors.ts';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  integrationListSource,
  renderIntegration,
  rotateSenderKey,
  updateIntegration,
  type IntegrationItem,
  type IntegrationViewer,
} from '#lib/integrations/service.ts';
import { monitorTypeState } from '#lib/ingest/monitor-state.ts';

/**
 * One integration with its type's state (a heartbeat's last ping, SNS subscriptions; docs/monitors.md), which ingest
 * keeps and the resource reads through its port (lib/integrations/type-state.ts). A sender key shows to admins only.
 */
const renderWithState = async (item: IntegrationItem, viewer: IntegrationViewer) => ({ ...renderIntegration(item, viewer), ...(await monitorTypeState.stateOf(item)) });

/** The rows that change an integration are admin rows (lib/http/routes.ts): their answers show the sender key. */
const ADMIN: IntegrationViewer = { admin: true };

export const handler = apiHandler('integrations', {
  'POST /api/v4/integrations': async ({ caller, body }) =>
    created(renderIntegration(await createIntegration(caller.accountId, validate(integrationCreate, body)), ADMIN)),
  'GET /api/v4/integrations': async ({ caller, query }) =>
    listResponse(integrationListSource(caller.accountId, { admin: caller.roles.admin }), query, { searchFields: ['name'] }),
  'GET /api/v4/integrations/{id}': async ({ caller, params }) =>
    ok(await renderWithState(await getIntegration(caller.accountId, params.id!), { admin: caller.roles.admin })),
  'PUT /api/v4/integrations/{id}': async ({ caller, params, body }) =>
    ok(await renderWithState(await updateIntegration(caller.accountId, params.id!, validate(integrationUpdate, body), monitorTypeState), ADMIN)),
  'DELETE /api/v4/integrations/{id}': async ({ caller, params }) => {
    await deleteIntegration(caller.accountId, params.id!);
    return noContent();
  },
  'POST /api/v4/integrations/{id}/rotate_key': async ({ caller, params }) => ok(await renderWithState(await rotateSenderKey(caller.accountId, params.id!), ADMIN)),
  'GET /api/v4/integration_types': async () => ok(Object.keys(INTEGRATION_TYPES).map((id) => renderIntegrationType(id))),
  'GET /api/v4/integration_types/{id}': async ({ params }) => {
    const type = renderIntegrationType(params.id!.toLowerCase());
    if (!type) throw notFound('Integration type');
    return ok(type);
  },
});
