// Broadcasts endpoint group: thin transport over lib/broadcasts (docs/broadcasts.md). Comments on a broadcast are
// served by the comments group.
import {
  answerBroadcast,
  broadcastListSource,
  broadcastNotifications,
  createBroadcast,
  deleteBroadcast,
  getBroadcast,
  updateBroadcast,
} from '#lib/broadcasts/service.ts';
import { renderBroadcast } from '#lib/broadcasts/items.ts';
import { broadcastCreate, broadcastResponseCreate, broadcastUpdate } from '#lib/broadcasts/schema.ts';
import { created, noContent, ok } from '#lib/http/context.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse, oldestFirst } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';

/** Channel recorded on an answer given through the API (answers by link record the message's channel). */
const API_CHANNEL = 'api';

export const handler = apiHandler('broadcasts', {
  'POST /api/v4/broadcasts': async ({ caller, body }) => created(renderBroadcast(await createBroadcast(caller.accountId, validate(broadcastCreate, body)))),
  'GET /api/v4/broadcasts': async ({ caller, query }) => listResponse(broadcastListSource(caller.accountId), query, { searchFields: ['title', 'description'] }),
  'GET /api/v4/broadcasts/{id}': async ({ caller, params }) => ok(renderBroadcast(await getBroadcast(caller.accountId, params.id!))),
  'PUT /api/v4/broadcasts/{id}': async ({ caller, params, body }) =>
    ok(renderBroadcast(await updateBroadcast(caller.accountId, params.id!, validate(broadcastUpdate, body), body))),
  'DELETE /api/v4/broadcasts/{id}': async ({ caller, params }) => {
    await deleteBroadcast(caller.accountId, params.id!);
    return noContent();
  },
  'POST /api/v4/broadcasts/{id}/responses': async ({ caller, params, body }) =>
    ok(
      renderBroadcast(
        await answerBroadcast({ accountId: caller.accountId, accountUserId: caller.accountUserId, channel: API_CHANNEL }, params.id!, validate(broadcastResponseCreate, body)),
      ),
    ),
  'GET /api/v4/broadcasts/{id}/notifications': async ({ caller, params, query }) =>
    listResponse(await broadcastNotifications(caller.accountId, params.id!), oldestFirst(query), { searchFields: ['channel', 'status'] }),
});
