// Acting from a message, without an API key (docs/notifications.md): the signed links' confirmation page
// (GET /actions/{token}, never acts) and its form (POST, acts). The token authenticates; pages are HTML.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { nowMs } from '#lib/clock.ts';
import { htmlPage } from '#lib/notify/action-page.ts';
import { actOnLink, linkConfirmation, type LinkPage } from '#lib/notify/link-actions.ts';
import { errorResponse, unmatchedRoute, type HttpResult } from '#lib/http/responses.ts';
import { lambdaLogging } from '#lib/logger.ts';

type Route = (event: APIGatewayProxyEventV2) => Promise<HttpResult>;

const page = (result: LinkPage): HttpResult => htmlPage(result.status, result.view);
const tokenOf = (event: APIGatewayProxyEventV2) => event.pathParameters?.token ?? '';

const ROUTES: Record<string, Route> = {
  'GET /actions/{token}': async (event) => page(await linkConfirmation(tokenOf(event), nowMs())),
  'POST /actions/{token}': async (event) => page(await actOnLink(tokenOf(event), nowMs())),
};

export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event) => {
    try {
      const route = ROUTES[event.routeKey];
      if (!route) throw unmatchedRoute(event.requestContext.http.method, event.requestContext.http.path);
      return await route(event);
    } catch (error) {
      return errorResponse(error);
    }
  });
