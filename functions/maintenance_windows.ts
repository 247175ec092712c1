// Maintenance windows endpoint group: thin transport over lib/maintenance.
import { nowMs } from '#lib/clock.ts';
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { windowCreate, windowUpdate } from '#lib/maintenance/schema.ts';
import { createWindow, deleteWindow, getWindow, windowListSource, renderWindow, updateWindow } from '#lib/maintenance/service.ts';

export const handler = apiHandler('maintenance_windows', {
  'POST /api/v4/maintenance_windows': async ({ caller, body }) =>
    created(renderWindow(await createWindow(caller.accountId, validate(windowCreate, body)))),
  'GET /api/v4/maintenance_windows': async ({ caller, query }) => {
    const now = nowMs();
    return listResponse(windowListSource(caller.accountId, now), query, { searchFields: ['name', 'description'] });
  },
  'GET /api/v4/maintenance_windows/{id}': async ({ caller, params }) => ok(renderWindow(await getWindow(caller.accountId, params.id!))),
  'PUT /api/v4/maintenance_windows/{id}': async ({ caller, params, body }) =>
    ok(renderWindow(await updateWindow(caller.accountId, params.id!, validate(windowUpdate, body)))),
  'DELETE /api/v4/maintenance_windows/{id}': async ({ caller, params }) => {
    await deleteWindow(caller.accountId, params.id!);
    return noContent();
  },
});
