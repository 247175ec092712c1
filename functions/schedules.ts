// Schedules endpoint group: thin transport over lib/schedules.
import { created, noContent, ok, requestBase } from '#lib/http/context.ts';
import { rotateScheduleFeed } from '#lib/calendar-feed/rotate.ts';
import { apiHandler } from '#lib/http/handler.ts';
import { listResponse } from '#lib/http/list-response.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { nowMs } from '#lib/clock.ts';
import { EVENT_SEARCH_FIELDS, eventListQuery, windowOf, windowPaging } from '#lib/schedule-events/queries.ts';
import { flushSchedule, scheduleEventObjects } from '#lib/schedule-events/of-schedule.ts';
import { currentOncall, ENVELOPE_BYTES } from '#lib/schedule-events/views.ts';
import { windowAnswer, type WindowAnswer } from '#lib/schedule-events/window-pages.ts';
import { acceptsGzip, jsonAnswer } from '#lib/http/compressed.ts';
import { MAX_LAMBDA_RESPONSE_BYTES, WINDOW_PAGE_ENTRIES } from '#lib/limits.ts';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { scheduleGaps } from '#lib/schedule-events/gaps.ts';
import { scheduleCreate, scheduleUpdate } from '#lib/schedules/schema.ts';
import { createSchedule, getSchedule, scheduleListSource, renderSchedule, updateSchedule } from '#lib/schedules/service.ts';
import { deleteSchedule } from '#lib/schedule-events/of-schedule.ts';

/** The entries as JSON (gzip when accepted); a page links the next one: `Link: </api/v4/…&cursor=…>; rel="next"`. */
function windowResponse(answer: WindowAnswer, event: APIGatewayProxyEventV2, gzip: boolean) {
  const headers: Record<string, string> = {};
  if (answer.nextMs !== undefined) {
    const params = new URLSearchParams(event.rawQueryString ?? '');
    params.set('cursor', String(answer.nextMs));
    if (!params.has('limit')) params.set('limit', String(WINDOW_PAGE_ENTRIES));
    // Relative, so it names the address the client used (local gateway, API Gateway, a custom domain).
    headers.link = `<${event.rawPath}?${params.toString()}>; rel="next"`;
  }
  return jsonAnswer(answer.entries, gzip, headers);
}

export const handler = apiHandler('schedules', {
  'POST /api/v4/schedules': async ({ caller, body }) =>
    created(renderSchedule(await createSchedule(caller.accountId, validate(scheduleCreate, body)))),
  'GET /api/v4/schedules': async ({ caller, query }) =>
    listResponse(scheduleListSource(caller.accountId), query, { searchFields: ['name'] }),
  'GET /api/v4/schedules/{id}': async ({ caller, params }) => ok(renderSchedule(await getSchedule(caller.accountId, params.id!))),
  'PUT /api/v4/schedules/{id}': async ({ caller, params, body }) =>
    ok(renderSchedule(await updateSchedule(caller.accountId, params.id!, validate(scheduleUpdate, body)))),
  'DELETE /api/v4/schedules/{id}': async ({ caller, params }) => {
    await deleteSchedule(caller.accountId, params.id!);
    return noContent();
  },
  'DELETE /api/v4/schedules/{id}/flush': async ({ caller, params }) => {
    await flushSchedule(caller.accountId, params.id!);
    return noContent();
  },
  'GET /api/v4/schedules/{id}/current_oncall': async ({ caller, params }) => ok(await currentOncall(caller.accountId, params.id!, nowMs())),
  'GET /api/v4/schedules/{id}/window_events': async ({ caller, params, query, event }) => {
    const { fromMs, toMs } = windowOf(query);
    const paging = windowPaging(query, fromMs, toMs);
    const gzip = acceptsGzip(event);
    let answer = await windowAnswer(caller.accountId, params.id!, fromMs, toMs, { ...paging, gzip });
    let response = windowResponse(answer, event, gzip);
    // A whole window that compresses too little for one response is paged instead (docs/events-api.md, "Large windows").
    if (!answer.paged && (response.base64Body?.length ?? 0) > MAX_LAMBDA_RESPONSE_BYTES - ENVELOPE_BYTES) {
      answer = await windowAnswer(caller.accountId, params.id!, fromMs, toMs, { limit: WINDOW_PAGE_ENTRIES, gzip });
      response = windowResponse(answer, event, gzip);
    }
    return response;
  },
  'GET /api/v4/schedules/{id}/gaps': async ({ caller, params, query }) => {
    const { fromMs, toMs } = windowOf(query);
    return ok({ data: await scheduleGaps(caller.accountId, params.id!, fromMs, toMs) });
  },
  'POST /api/v4/schedules/{id}/ical_token': async ({ caller, params, event }) => ok(await rotateScheduleFeed(caller, params.id!, requestBase(event))),
  'GET /api/v4/schedules/{id}/events': async ({ caller, params, query }) =>
    listResponse(await scheduleEventObjects(caller.accountId, params.id!), eventListQuery(query), { searchFields: EVENT_SEARCH_FIELDS }),
});
