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
  updateIntegration,
  type IntegrationItem,
} from '#lib/integrations/service.ts';
import { monitorTypeState } from '#lib/ingest/monitor-state.ts';

/**
 * One integration with its type's state (a heartbeat's last ping, SNS subscriptions; docs/monitors.md), which ingest
 * keeps and the resource reads through its port (lib/integrations/type-state.ts).
 */
const renderWithState = async (item: IntegrationItem) => ({ ...renderIntegration(item), ...(await monitorTypeState.stateOf(item)) });

export const handler = apiHandler('integrations', {
  'POST /api/v4/integrations': async ({ caller, body }) =>
    created(renderIntegration(await createIntegration(caller.accountId, validate(integrationCreate, body)))),
  'GET /api/v4/integrations': async ({ caller, query }) =>
    listResponse(integrationListSource(caller.accountId), query, { searchFields: ['name'] }),
  'GET /api/v4/integrations/{id}': async ({ caller, params }) => ok(await renderWithState(await getIntegration(caller.accountId, params.id!))),
  'PUT /api/v4/integrations/{id}': async ({ caller, params, body }) =>
    ok(await renderWithState(await updateIntegration(caller.accountId, params.id!, validate(integrationUpdate, body), monitorTypeState))),
  'DELETE /api/v4/integrations/{id}': async ({ caller, params }) => {
    await deleteIntegration(caller.accountId, params.id!);
    return noContent();
  },
  'GET /api/v4/integration_types': async () => ok(Object.keys(INTEGRATION_TYPES).map((id) => renderIntegrationType(id))),
  'GET /api/v4/integration_types/{id}': async ({ params }) => {
    const type = renderIntegrationType(params.id!.toLowerCase());
    if (!type) throw notFound('Integration type');
    return ok(type);
  },
});
