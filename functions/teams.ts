// Teams endpoint group: thin transport over lib/teams.
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/http/validate.ts';
import { teamCreate, teamUpdate } from '#lib/teams/schema.ts';
import {
  createTeam,
  deleteTeam,
  getTeam,
  listTeamAlerts,
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
  'GET /api/v4/teams/{id}/alerts': async ({ caller, params, query }) =>
    listResponse(await listTeamAlerts(caller.accountId, params.id!), query, { searchFields: ['title', 'description'] }),
});
