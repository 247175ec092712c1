// GET /api/v4/openapi.json: the API description, open to anyone (a `public` row: no API key, no data access).
// Built from the route table and the zod schemas once per container (lib/http/openapi/document.ts).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { errorResponse, unmatchedRoute, type HttpResult } from '#lib/http/responses.ts';
import { findRoute } from '#lib/http/routes.ts';
import { openApiJson } from '#lib/http/openapi/document.ts';

export const handler = async (event: APIGatewayProxyEventV2): Promise<HttpResult> => {
  const { method, path } = event.requestContext.http;
  try {
    const found = findRoute(method, path);
    if (!found || !('route' in found) || found.route.group !== 'openapi') throw unmatchedRoute(method, path);
    return { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' }, body: openApiJson() };
  } catch (error) {
    return errorResponse(error);
  }
};
