import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { forbidden, unprocessable } from '../api-shapes/http-errors.ts';
import { API_PREFIX, type Route } from './routes.ts';
import type { Caller } from '../caller/caller.ts';

export interface ApiRequest {
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** Parsed JSON object; `{}` when the request had no body. */
  body: Record<string, unknown>;
  event: APIGatewayProxyEventV2;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body already encoded (gzip), base64: sent as those bytes instead of `body` as JSON (lib/http/compressed.ts). */
  base64Body?: string;
}

export type RouteHandler = (request: ApiRequest) => Promise<ApiResponse>;

/** The scheme and host the request reached (API Gateway serves https only), for URLs handed back to the client. */
export const requestBase = (event: APIGatewayProxyEventV2): string => `https://${event.requestContext.domainName}`;

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });
export const created = (body: unknown): ApiResponse => ({ status: 201, body });
export const noContent = (): ApiResponse => ({ status: 204 });

/**
 * The role check the handler factory runs before a route's handler (docs/roles.md). `admin` rows refuse
 * non-admins: changes are "configuration", reads name what they read (the outbox, the outgoing webhooks). `member`
 * and `owner` rows admit every authenticated caller; an `owner` row's service then admits only the
 * object's owner or an admin.
 */
export function requireRole(route: Route, caller: Caller): void {
  if (route.role === 'broadcaster') {
    if (caller.roles.admin || caller.roles.broadcaster) return;
    throw forbidden('Only account admins and broadcasters can send, change or delete broadcasts');
  }
  if (route.role !== 'admin' || caller.roles.admin) return;
  if (route.method !== 'GET') throw forbidden('Only account admins can change configuration');
  throw forbidden(`Only account admins can read the ${resourceNameOf(route)}`);
}

/** `/api/v4/outbox/{id}` → "outbox"; `/api/v4/audit_entries` → "audit entries". */
function resourceNameOf(route: Route): string {
  const first = route.path.slice(API_PREFIX.length).split('/')[1] ?? '';
  return first.replace(/_/g, ' ');
}

/**
 * The first query parameter the raw query string gives more than once. API Gateway joins repeats with commas in
 * `queryStringParameters` (`sort=a&sort=b` → `a,b`), so only the raw string tells a repeat from a value with a
 * comma. Every management route refuses repeats (docs/lists.md).
 */
export function repeatedQueryParameter(rawQueryString: string | undefined): string | undefined {
  if (!rawQueryString) return undefined;
  const seen = new Set<string>();
  for (const name of new URLSearchParams(rawQueryString).keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** 422 naming a repeated query parameter; nothing when each is given at most once. */
export function refuseRepeatedQuery(rawQueryString: string | undefined): void {
  const repeated = repeatedQueryParameter(rawQueryString);
  if (repeated !== undefined) throw unprocessable(`query parameter ${repeated} is given more than once`);
}
