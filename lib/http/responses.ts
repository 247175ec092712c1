// Rendering responses, shared by every HTTP entry point (management groups, the webhook, the $default
// fallback). Kept free of data access so the small functions that only answer errors stay small.

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { findRoute } from './routes.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { isUnavailable } from '../db/retry.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../limits.ts';
import { logger } from '../logger.ts';
import type { ApiResponse } from './context.ts';
import { DomainError, type ErrorKind } from '../errors.ts';
import { errorBody, HttpError, methodNotAllowed, notFound } from '../api-shapes/http-errors.ts';

export type HttpEvent = APIGatewayProxyEventV2;
/** `isBase64Encoded`: the body is base64 of bytes (a compressed answer); API Gateway and the local gateway send the bytes. */
export type HttpResult = { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean };

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function jsonResponse(response: ApiResponse): HttpResult {
  const headers = { ...JSON_HEADERS, ...response.headers };
  if (response.base64Body !== undefined) return { statusCode: response.status, headers, body: response.base64Body, isBase64Encoded: true };
  if (response.status === 204 || response.body === undefined) return { statusCode: response.status, headers: response.headers ?? {}, body: '' };
  return { statusCode: response.status, headers, body: JSON.stringify(response.body) };
}

/** The one mapping of domain failures to HTTP statuses. */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid: 422,
  limit_exceeded: 422,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unauthenticated: 401,
  unavailable: 503,
};

/** A 503 tells the client when to try again. */
const RETRY_LATER = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };

export function errorResponse(error: unknown): HttpResult {
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    return jsonResponse({ status, body: errorBody(status, error.messages), ...(status === 503 ? { headers: RETRY_LATER } : {}) });
  }
  if (error instanceof HttpError) {
    return jsonResponse({ status: error.status, body: errorBody(error.status, error.messages), headers: error.headers });
  }
  // A conditional write that lost a race wrote nothing (writes are conditional or transactional): the client
  // may retry, so this is a conflict, not a server failure.
  if (isConditionFailure(error)) {
    logger.warn('Write lost a race with a concurrent change', { error: error as Error });
    return jsonResponse({ status: 409, body: errorBody(409, ['The object was changed by another request at the same time; retry']) });
  }
  // Storage throttled or failing past the SDK's retries (lib/db/retry.ts): nothing was written, and the same request may
  // succeed in a moment, so the client is told to retry, not that the server is broken.
  if (isUnavailable(error)) {
    logger.warn('Storage unavailable after retries; answered 503', { error: error as Error });
    return jsonResponse({ status: 503, body: errorBody(503, ['The service is briefly unavailable; retry later']), headers: RETRY_LATER });
  }
  logger.error('Unhandled error', { error: error as Error });
  return jsonResponse({ status: 500, body: errorBody(500, ['Internal server error']) });
}

/** 404 for a path nobody serves, 405 (with Allow) when the path exists for other methods. */
export function unmatchedRoute(method: string, path: string): HttpError {
  const found = findRoute(method, path);
  if (found && 'allowed' in found) {
    return methodNotAllowed(found.allowed, `${method} is not supported on ${path}; allowed: ${found.allowed.join(', ')}`);
  }
  return notFound('Route');
}
