// The $default route: requests no route matches get the JSON error body (404, or 405 with Allow).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { errorResponse, unmatchedRoute } from '#lib/http/responses.ts';

export const handler = async (event: APIGatewayProxyEventV2) =>
  errorResponse(unmatchedRoute(event.requestContext.http.method, event.requestContext.http.path));
