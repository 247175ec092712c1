// Alerts endpoint group: thin transport over lib/alerts. Any member may create, update, acknowledge, resolve and
// reject; deleting an alert (and its history) takes an admin (docs/alerts.md, "Who may do what").
import type { ApiRequest } from '#lib/http/context.ts';
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { parseListQuery } from '#lib/list-engine/query.ts';
import { listResponse, oldestFirst } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { alertObjects, pageOfAlerts, planAlertList } from '#lib/alerts/list.ts';
import { alertCreate, alertUpdate } from '#lib/alerts/schema.ts';
import { acknowledgeAlert, rejectAlert, resolveAlert } from '#lib/alerts/actions.ts';
import { updateAlert } from '#lib/alerts/change.ts';
import { createAlert } from '#lib/alerts/create.ts';
import { deleteAlert } from '#lib/alerts/delete.ts';
import { renderAlert } from '#lib/alerts/items.ts';
import { getAlertItem as getAlert } from '#lib/alerts/store.ts';
import { alertLogs, alertNotifications, alertWorkflows } from '#lib/alerts/views.ts';

const SEARCH = { searchFields: ['title', 'description'] };

const actorOf = ({ caller }: ApiRequest) => ({ accountId: caller.accountId, accountUserId: caller.accountUserId });

/** The alerts of the account: one index page for the common lists, the list engine over an index otherwise. */
async function listAlerts({ caller, query }: ApiRequest) {
  const listQuery = parseListQuery(query);
  const plan = planAlertList(listQuery);
  if (plan.kind === 'page') return ok(await pageOfAlerts(caller.accountId, plan, listQuery));
  return listResponse(await alertObjects(caller.accountId, plan.index), query, SEARCH);
}

/** 201 with the new alert; 200 with the existing alert a create folded into by a dedup key (docs/alerts.md, "Dedup keys"). */
async function createAlertRoute(request: ApiRequest) {
  const { alert, outcome } = await createAlert(actorOf(request), validate(alertCreate, request.body));
  return outcome === 'created' ? created(renderAlert(alert)) : ok(renderAlert(alert));
}

export const handler = apiHandler('alerts', {
  'POST /api/v4/alerts': createAlertRoute,
  'GET /api/v4/alerts': listAlerts,
  'GET /api/v4/alerts/{id}': async ({ caller, params }) => ok(renderAlert(await getAlert(caller.accountId, params.id!))),
  'PUT /api/v4/alerts/{id}': async (request) =>
    ok(renderAlert(await updateAlert(actorOf(request), request.params.id!, validate(alertUpdate, request.body)))),
  'DELETE /api/v4/alerts/{id}': async (request) => {
    await deleteAlert(actorOf(request), request.params.id!);
    return noContent();
  },
  'POST /api/v4/alerts/{id}/acknowledge': async (request) => ok(renderAlert(await acknowledgeAlert(actorOf(request), request.params.id!))),
  'POST /api/v4/alerts/{id}/resolve': async (request) => ok(renderAlert(await resolveAlert(actorOf(request), request.params.id!))),
  'POST /api/v4/alerts/{id}/reject': async (request) => ok(renderAlert(await rejectAlert(actorOf(request), request.params.id!))),
  'GET /api/v4/alerts/{id}/logs': async ({ caller, params, query }) =>
    listResponse(await alertLogs(caller.accountId, params.id!), oldestFirst(query), { searchFields: ['message'] }),
  'GET /api/v4/alerts/{id}/workflows': async ({ caller, params, query }) =>
    listResponse(await alertWorkflows(caller.accountId, params.id!), oldestFirst(query, 'started_at'), { searchFields: [] }),
  'GET /api/v4/alerts/{id}/notifications': async ({ caller, params, query }) =>
    listResponse(await alertNotifications(caller.accountId, params.id!), oldestFirst(query), { searchFields: ['channel', 'type'] }),
});
