// Events endpoint group: thin transport over lib/schedule-events (client rules: docs/events-api.md).
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { addException, overrideEvent, terminateOn } from '#lib/schedule-events/actions.ts';
import { renderEvent } from '#lib/schedule-events/model.ts';
import { EVENT_SEARCH_FIELDS, eventListQuery } from '#lib/schedule-events/queries.ts';
import { createEvent, deleteEvent, updateEvent } from '#lib/schedule-events/service.ts';
import { getEvent, eventListSource } from '#lib/schedule-events/store.ts';
import { TIME_ZONE_NAMES } from '#lib/time/zones.ts';

export const handler = apiHandler('events', {
  'GET /api/v4/events/time_zones': async () => ok(TIME_ZONE_NAMES),
  'POST /api/v4/events': async ({ caller, body }) =>
    created(renderEvent(await createEvent(caller.accountId, body))),
  'GET /api/v4/events': async ({ caller, query }) =>
    listResponse(eventListSource(caller.accountId), eventListQuery(query), { searchFields: EVENT_SEARCH_FIELDS }),
  'GET /api/v4/events/{id}': async ({ caller, params }) => ok(renderEvent(await getEvent(caller.accountId, params.id!))),
  'PUT /api/v4/events/{id}': async ({ caller, params, body }) =>
    ok(renderEvent(await updateEvent(caller.accountId, params.id!, body))),
  'DELETE /api/v4/events/{id}': async ({ caller, params }) => {
    await deleteEvent(caller.accountId, params.id!);
    return noContent();
  },
  'POST /api/v4/events/{id}/override': async ({ caller, params, body }) =>
    ok(renderEvent(await overrideEvent(caller.accountId, params.id!, body))),
  'POST /api/v4/events/{id}/add_exception': async ({ caller, params, body }) =>
    ok(renderEvent(await addException(caller.accountId, params.id!, body))),
  'POST /api/v4/events/{id}/terminate_on': async ({ caller, params, body }) => {
    const { item, deleted } = await terminateOn(caller.accountId, params.id!, body);
    return ok({ ...renderEvent(item), deleted });
  },
});
