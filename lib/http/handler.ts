// The one HTTP handler factory every endpoint group uses: a middy chain that authenticates, parses the
// body, routes with @middy/http-router over the group's rows of the route table, and renders every
// failure as the JSON error body.

import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { routesOf, type Group, type Route } from './routes.ts';
import { rowOfEvent } from './gateway-routes.ts';
import { authenticate } from '../auth/api-keys.ts';
import { parseJsonBody } from '../api-shapes/body.ts';
import { lambdaLogging } from '../logger.ts';
import { refuseRepeatedQuery, requireRole, type ApiRequest, type RouteHandler } from './context.ts';
import { type Caller } from '../caller/caller.ts';
import { impossiblePathId } from './path-ids.ts';
import { errorResponse, jsonResponse, unmatchedRoute, type HttpEvent, type HttpResult } from './responses.ts';
import { withUnknownFieldsWarning } from '../api-shapes/unknown-fields.ts';

/** Route implementations of a group, keyed `"METHOD /api/v4/path/{id}"` exactly as in the route table. */
export type RouteImplementations = Record<string, RouteHandler>;

interface State {
  caller?: Caller;
  body?: Record<string, unknown>;
}

function header(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** Path parameters as the router matched them; one that cannot be an id is not found, with no storage call. */
function pathParams(routePath: string, event: HttpEvent): Record<string, string> {
  const params = (event.pathParameters ?? {}) as Record<string, string>;
  const impossible = impossiblePathId(routePath, params);
  if (impossible) throw impossible;
  return params;
}

function toRouterHandler(route: Route, implementation: RouteHandler, state: WeakMap<object, State>) {
  return async (event: HttpEvent): Promise<HttpResult> => {
    const s = state.get(event) ?? {};
    const caller = s.caller!;
    // An impossible id is 404 before the role check, as it was when handlers checked roles themselves.
    const params = pathParams(route.path, event);
    requireRole(route, caller);
    const body = s.body ?? {};
    const request: ApiRequest = { caller, params, query: (event.queryStringParameters ?? {}) as Record<string, string | undefined>, body, event };
    // Fields of the body that the route's validation did not take are named in a Warning (docs/api.md).
    return jsonResponse(withUnknownFieldsWarning(await implementation(request), body));
  };
}

/**
 * Builds the Lambda handler of a management endpoint group. Every row of the group must be implemented; the
 * row's role is checked before its handler runs. Public rows need no API key, so they have handlers of their own.
 */
export function apiHandler(group: Group, implementations: RouteImplementations) {
  const rows = routesOf(group);
  const publicRows = rows.filter((r) => r.role === 'public').map((r) => `${r.method} ${r.path}`);
  if (publicRows.length) throw new Error(`Group ${group} has public rows [${publicRows.join(', ')}]: the API key handler cannot serve them`);
  const missing = rows.map((r) => `${r.method} ${r.path}`).filter((key) => !implementations[key]);
  const extra = Object.keys(implementations).filter((key) => !rows.some((r) => `${r.method} ${r.path}` === key));
  if (missing.length || extra.length) {
    throw new Error(`Group ${group} does not match the route table: missing [${missing.join(', ')}], extra [${extra.join(', ')}]`);
  }
  const state = new WeakMap<object, State>();
  const router = httpRouterHandler({
    routes: rows.map((r) => ({ method: r.method, path: r.path, handler: toRouterHandler(r, implementations[`${r.method} ${r.path}`]!, state) })),
    notFoundResponse: ({ method, path }: { method: string; path: string }) => {
      throw unmatchedRoute(method, path);
    },
  });

  return middy<HttpEvent, APIGatewayProxyResultV2, Error, Context>()
    .use(lambdaLogging())
    .use({
      before: async (request) => {
        const event = request.event;
        // The gateway's route takes every method of its path: one this group does not serve is answered as the fallback
        // would, before the key is even looked at (docs/decisions/0031-api-routes-in-a-nested-stack.md).
        const row = rowOfEvent(event);
        if (row?.group !== group) throw unmatchedRoute(event.requestContext.http.method, event.requestContext.http.path);
        const caller = await authenticate(header(event, 'authorization'));
        refuseRepeatedQuery(event.rawQueryString);
        const body = parseJsonBody(event);
        state.set(event, { caller, body });
      },
      onError: async (request) => {
        request.response = errorResponse(request.error);
      },
    })
    .handler(router as unknown as (event: HttpEvent, context: Context) => Promise<APIGatewayProxyResultV2>);
}
