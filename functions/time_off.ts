// Time off endpoint group: thin transport over lib/time-off.
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { timeOffCreate, timeOffUpdate } from '#lib/time-off/schema.ts';
import { createTimeOff, deleteTimeOff, getTimeOff, renderTimeOff, timeOffListSource, updateTimeOff } from '#lib/time-off/service.ts';

export const handler = apiHandler('time_off', {
  'POST /api/v4/time_off': async ({ caller, body }) => created(renderTimeOff(await createTimeOff(caller, validate(timeOffCreate, body)))),
  'GET /api/v4/time_off': async ({ caller, query }) => listResponse(timeOffListSource(caller.accountId), query, { searchFields: ['reason'] }),
  'GET /api/v4/time_off/{id}': async ({ caller, params }) => ok(renderTimeOff(await getTimeOff(caller.accountId, params.id!))),
  'PUT /api/v4/time_off/{id}': async ({ caller, params, body }) => ok(renderTimeOff(await updateTimeOff(caller, params.id!, validate(timeOffUpdate, body)))),
  'DELETE /api/v4/time_off/{id}': async ({ caller, params }) => {
    await deleteTimeOff(caller, params.id!);
    return noContent();
  },
});
