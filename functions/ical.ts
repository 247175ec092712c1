// Calendar feeds, without an API key: the secret token in the path authenticates (docs/schedules.md, "Calendar
// feeds"). Answers text/calendar with an ETag; If-None-Match with the same ETag is 304.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { nowMs } from '#lib/clock.ts';
import { feedOf } from '#lib/calendar-feed/feed.ts';
import { feedOwnerOf } from '#lib/calendar-feed/tokens.ts';
import { notFound } from '#lib/api-shapes/http-errors.ts';
import type { HttpResult } from '#lib/http/responses.ts';
import { routeMapHandler, type RouteMap } from '#lib/http/route-map.ts';

const SUFFIX = '.ics';

async function calendarFeed(event: APIGatewayProxyEventV2): Promise<HttpResult> {
  const segment = event.pathParameters?.token ?? '';
  const owner = segment.endsWith(SUFFIX) ? await feedOwnerOf(segment.slice(0, -SUFFIX.length)) : undefined;
  const feed = owner ? await feedOf(owner, nowMs()) : undefined;
  // One answer for every token that opens nothing, so a probe learns nothing about which tokens once existed.
  if (!feed) throw notFound('Calendar feed');
  const headers = { etag: feed.etag, 'cache-control': 'private, max-age=300' };
  const match = event.headers?.['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === feed.etag)) return { statusCode: 304, headers, body: '' };
  return { statusCode: 200, headers: { ...headers, 'content-type': 'text/calendar; charset=utf-8' }, body: feed.text };
}

const ROUTES: RouteMap = {
  'GET /ical/{token}': calendarFeed,
};

export const handler = routeMapHandler(ROUTES);
