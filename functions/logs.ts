// Logs endpoint group: read-only, thin transport over lib/ingest/logs.ts (docs/ingest.md, "Logs").
import { ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { getLog, logListSource, logScopeOf } from '#lib/ingest/logs.ts';

const LIST_OPTIONS = { searchFields: ['details.message', 'details.sublogs.message'] };

export const handler = apiHandler('logs', {
  'GET /api/v4/logs': async ({ caller, query }) => {
    const { scope, query: rest } = await logScopeOf(caller.accountId, query);
    return listResponse(logListSource(caller.accountId, scope), rest, LIST_OPTIONS);
  },
  'GET /api/v4/logs/{id}': async ({ caller, params }) => ok(await getLog(caller.accountId, params.id!)),
});
