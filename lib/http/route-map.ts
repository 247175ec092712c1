// The handler of a Lambda whose routes need no API key (a token or a signature in the request authenticates them):
// one route map by the route table's `METHOD /path` keys, the one logger, and failures rendered as every other answer
// (lib/http/responses.ts). The row comes from the gateway's route and the request's method (lib/http/gateway-routes.ts).
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { lambdaLogging } from '../logger.ts';
import { rowOfEvent } from './gateway-routes.ts';
import { errorResponse, unmatchedRoute, type HttpResult } from './responses.ts';

export type RouteMap = Readonly<Record<string, (event: APIGatewayProxyEventV2) => Promise<HttpResult>>>;

export function routeMapHandler(routes: RouteMap) {
  return middy<APIGatewayProxyEventV2, HttpResult, Error, Context>()
    .use(lambdaLogging())
    .handler(async (event) => {
      try {
        const row = rowOfEvent(event);
        const route = row && routes[`${row.method} ${row.path}`];
        if (!route) throw unmatchedRoute(event.requestContext.http.method, event.requestContext.http.path);
        return await route(event);
      } catch (error) {
        return errorResponse(error);
      }
    });
}
