// Teams endpoint group: thin transport over lib/teams.
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { parseListQuery } from '#lib/list-engine/query.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { alertObjects, pageOfAlerts, planAlertList, teamIdOf } from '#lib/alerts/list.ts';
import { teamCreate, teamUpdate } from '#lib/teams/schema.ts';
import {
  createTeam,
  deleteTeam,
  getTeam,
  teamListSource,
  renderTeam,
  teamCurrentOncall,
  updateTeam,
} from '#lib/teams/service.ts';

export const handler = apiHandler('teams', {
  'POST /api/v4/teams': async ({ caller, body }) =>
    created(renderTeam((await createTeam(caller.accountId, validate(teamCreate, body))).team)),
  'GET /api/v4/teams': async ({ caller, query }) =>
    listResponse(teamListSource(caller.accountId), query, { searchFields: ['name', 'notes'] }),
  'GET /api/v4/teams/{id}': async ({ caller, params }) => ok(renderTeam(await getTeam(caller.accountId, params.id!))),
  'PUT /api/v4/teams/{id}': async ({ caller, params, body }) =>
    ok(renderTeam(await updateTeam(caller.accountId, params.id!, validate(teamUpdate, body)))),
  'DELETE /api/v4/teams/{id}': async ({ caller, params }) => {
    await deleteTeam(caller.accountId, params.id!);
    return noContent();
  },
  'GET /api/v4/teams/{id}/current_oncall': async ({ caller, params }) => ok(await teamCurrentOncall(caller.accountId, params.id!)),
  // The team's alerts come from its alert index (docs/alerts.md, "Lists"): one page for the common lists.
  'GET /api/v4/teams/{id}/alerts': async ({ caller, params, query }) => {
    const teamId = await teamIdOf(caller.accountId, params.id!);
    const listQuery = parseListQuery(query);
    const plan = planAlertList(listQuery, { teamId });
    if (plan.kind === 'page') return ok(await pageOfAlerts(caller.accountId, plan, listQuery));
    return listResponse(await alertObjects(caller.accountId, plan.index), query, { searchFields: ['title', 'description'] });
  },
});
