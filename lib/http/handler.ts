// The one HTTP handler factory every endpoint group uses: a middy chain that authenticates, parses the
// body, routes with @middy/http-router over the group's rows of the route table, and renders every
// failure as the JSON error body.

import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { findRoute, routesOf, type Group } from '../../infra/routes.ts';
import { authenticate } from '../auth/api-keys.ts';
import { isConditionFailure } from '../db/repository.ts';
import { config } from '../config.ts';
import { logger } from '../logger.ts';
import type { ApiRequest, ApiResponse, Caller, RouteHandler } from './context.ts';
import { badRequest, errorBody, HttpError, methodNotAllowed, notFound, payloadTooLarge } from './errors.ts';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = { statusCode: number; headers: Record<string, string>; body: string };

/** Route implementations of a group, keyed `"METHOD /api/v4/path/{id}"` exactly as in the route table. */
export type RouteImplementations = Record<string, RouteHandler>;

interface State {
  caller?: Caller;
  body?: Record<string, unknown>;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function jsonResponse(response: ApiResponse): HttpResult {
  const headers = { ...JSON_HEADERS, ...response.headers };
  if (response.status === 204 || response.body === undefined) return { statusCode: response.status, headers: response.headers ?? {}, body: '' };
  return { statusCode: response.status, headers, body: JSON.stringify(response.body) };
}

export function errorResponse(error: unknown): HttpResult {
  if (error instanceof HttpError) {
    return jsonResponse({ status: error.status, body: errorBody(error.status, error.messages), headers: error.headers });
  }
  // A conditional write that lost a race wrote nothing (writes are conditional or transactional): the client
  // may retry, so this is a conflict, not a server failure.
  if (isConditionFailure(error)) {
    logger.warn('Write lost a race with a concurrent change', { error: error as Error });
    return jsonResponse({ status: 409, body: errorBody(409, ['The object was changed by another request at the same time; retry']) });
  }
  logger.error('Unhandled error', { error: error as Error });
  return jsonResponse({ status: 500, body: errorBody(500, ['Internal server error']) });
}

function header(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The raw body as text, decoding API Gateway's base64 form. */
export function rawBody(event: HttpEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * JSON object bodies only. Clients of the reference API send `Content-Type: application/json` with an
 * empty body on action POSTs and DELETEs, so an empty or whitespace body is `{}`.
 */
export function parseJsonBody(event: HttpEvent): Record<string, unknown> {
  const text = rawBody(event);
  if (Buffer.byteLength(text, 'utf8') > config().maxBodyBytes) throw payloadTooLarge(config().maxBodyBytes);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON in request body');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('Request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** 404 for a path nobody serves, 405 (with Allow) when the path exists for other methods. */
export function unmatchedRoute(method: string, path: string): HttpError {
  const found = findRoute(method, path);
  if (found && 'allowed' in found) {
    return methodNotAllowed(found.allowed, `${method} is not supported on ${path}; allowed: ${found.allowed.join(', ')}`);
  }
  return notFound('Route');
}

function toRouterHandler(implementation: RouteHandler, state: WeakMap<object, State>) {
  return async (event: HttpEvent): Promise<HttpResult> => {
    const s = state.get(event) ?? {};
    const request: ApiRequest = {
      caller: s.caller!,
      params: (event.pathParameters ?? {}) as Record<string, string>,
      query: (event.queryStringParameters ?? {}) as Record<string, string | undefined>,
      body: s.body ?? {},
      event,
    };
    return jsonResponse(await implementation(request));
  };
}

/** Builds the Lambda handler of a management endpoint group. Every row of the group must be implemented. */
export function apiHandler(group: Group, implementations: RouteImplementations) {
  const rows = routesOf(group);
  const missing = rows.map((r) => `${r.method} ${r.path}`).filter((key) => !implementations[key]);
  const extra = Object.keys(implementations).filter((key) => !rows.some((r) => `${r.method} ${r.path}` === key));
  if (missing.length || extra.length) {
    throw new Error(`Group ${group} does not match the route table: missing [${missing.join(', ')}], extra [${extra.join(', ')}]`);
  }
  const state = new WeakMap<object, State>();
  const router = httpRouterHandler({
    routes: rows.map((r) => ({ method: r.method, path: r.path, handler: toRouterHandler(implementations[`${r.method} ${r.path}`]!, state) })),
    notFoundResponse: ({ method, path }: { method: string; path: string }) => {
      throw unmatchedRoute(method, path);
    },
  });

  return middy<HttpEvent, APIGatewayProxyResultV2, Error, Context>()
    .use({
      before: async (request) => {
        const event = request.event;
        const caller = await authenticate(header(event, 'authorization'));
        const body = parseJsonBody(event);
        state.set(event, { caller, body });
      },
      onError: async (request) => {
        request.response = errorResponse(request.error);
      },
    })
    .handler(router as unknown as (event: HttpEvent, context: Context) => Promise<APIGatewayProxyResultV2>);
}
