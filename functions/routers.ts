// Routers endpoint group: thin transport over lib/routers.
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { routerCreate, routerUpdate } from '#lib/routers/schema.ts';
import { createRouter, deleteRouter, getRouter, routerListSource, renderRouter, updateRouter } from '#lib/routers/service.ts';

export const handler = apiHandler('routers', {
  'POST /api/v4/routers': async ({ caller, body }) =>
    created(renderRouter(await createRouter(caller.accountId, validate(routerCreate, body)))),
  'GET /api/v4/routers': async ({ caller, query }) =>
    listResponse(routerListSource(caller.accountId), query, { searchFields: ['name'] }),
  'GET /api/v4/routers/{id}': async ({ caller, params }) => ok(renderRouter(await getRouter(caller.accountId, params.id!))),
  'PUT /api/v4/routers/{id}': async ({ caller, params, body }) =>
    ok(renderRouter(await updateRouter(caller.accountId, params.id!, validate(routerUpdate, body)))),
  'DELETE /api/v4/routers/{id}': async ({ caller, params }) => {
    await deleteRouter(caller.accountId, params.id!);
    return noContent();
  },
});
