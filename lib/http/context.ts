import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { forbidden } from './errors.ts';

export interface Roles {
  admin: boolean;
  billing: boolean;
  broadcaster: boolean;
  communicator: boolean;
}

/** Who is asking: every request acts in the API key's account, on behalf of its account user. */
export interface Caller {
  accountId: string;
  accountUserId: string;
  displayName: string;
  roles: Roles;
  apiKeyId: string;
}

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
}

export type RouteHandler = (request: ApiRequest) => Promise<ApiResponse>;

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });
export const created = (body: unknown): ApiResponse => ({ status: 201, body });
export const noContent = (): ApiResponse => ({ status: 204 });

/** Configuration changes are for admins; members may read and act on alerts. */
export function requireAdmin(caller: Caller): void {
  if (!caller.roles.admin) throw forbidden('Only account admins can change configuration');
}
