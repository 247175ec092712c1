// The routes API Gateway holds, derived from the route table (docs/decisions/0031-api-routes-in-a-nested-stack.md):
// one `ANY <path>` route per path of the table, to the path's one group, and a route of its own method and path per
// intake row (its own throttle is set by route key). The gateway checks the path; the method is checked by the group's
// function, which answers a method its path does not take exactly as the `$default` route's fallback did (404/405
// from `unmatchedRoute`). The CDK stack creates these routes and the local gateway selects among them, so both send
// a function the same route key and path parameters.

import { findRoute, isIntake, matchSegments, ROUTES, segmentsOf, type Group, type HttpMethod, type Route, type Segments } from './routes.ts';

export interface GatewayRoute {
  /** API Gateway's route key: `ANY /api/v4/alerts/{id}`, or `POST /integration/{id}` for an intake row. */
  readonly key: string;
  readonly method: HttpMethod | 'ANY';
  readonly path: string;
  readonly group: Group;
  /** Throttled as intake (the stage's route settings name it). */
  readonly intake: boolean;
}

/** The gateway's routes of a route table, in table order; a path whose rows name two groups is refused. */
export function gatewayRoutes(routes: readonly Route[] = ROUTES): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  const byPath = new Map<string, GatewayRoute>();
  for (const route of routes) {
    if (isIntake(route)) {
      out.push({ key: `${route.method} ${route.path}`, method: route.method, path: route.path, group: route.group, intake: true });
      continue;
    }
    const seen = byPath.get(route.path);
    if (seen) {
      if (seen.group !== route.group) throw new Error(`Path ${route.path} has rows of ${seen.group} and ${route.group}: one ANY route cannot serve both`);
      continue;
    }
    const gateway: GatewayRoute = { key: `ANY ${route.path}`, method: 'ANY', path: route.path, group: route.group, intake: false };
    byPath.set(route.path, gateway);
    out.push(gateway);
  }
  return out;
}

export const GATEWAY_ROUTES: readonly GatewayRoute[] = gatewayRoutes();

const ROW_BY_KEY: ReadonlyMap<string, Route> = new Map(ROUTES.map((r) => [`${r.method} ${r.path}`, r]));

interface RouteEvent {
  readonly routeKey: string;
  readonly requestContext: { readonly http: { readonly method: string; readonly path: string } };
}

/**
 * The route table's row for a request API Gateway delivered to a function, or undefined when the row's path does not
 * take the request's method (the caller answers `unmatchedRoute`, as the fallback did before these routes took every
 * method). The row is the one the gateway's route names with the request's method; when the gateway chose a more
 * specific path without that method (`PUT /api/v4/events/time_zones`), the table's own match decides, as the
 * gateway's method routes did (`PUT /api/v4/events/{id}`).
 */
export function rowOfEvent(event: RouteEvent): Route | undefined {
  const { method, path } = event.requestContext.http;
  const space = event.routeKey.indexOf(' ');
  const routeMethod = event.routeKey.slice(0, space);
  const row = ROW_BY_KEY.get(routeMethod === 'ANY' ? `${method} ${event.routeKey.slice(space + 1)}` : event.routeKey);
  if (row) return row;
  const found = findRoute(method, path);
  return found && 'route' in found ? found.route : undefined;
}

interface CompiledGatewayRoute {
  readonly route: GatewayRoute;
  readonly segments: Segments;
  readonly literals: number;
}

/** Method routes before ANY, then more literal segments first: the order in which API Gateway prefers a match. */
const COMPILED: readonly CompiledGatewayRoute[] = GATEWAY_ROUTES.map((route) => {
  const segments = segmentsOf(route.path);
  return { route, segments, literals: segments.filter((s) => 'literal' in s).length };
}).sort((a, b) => Number(a.route.method === 'ANY') - Number(b.route.method === 'ANY') || b.literals - a.literals);

/**
 * The route API Gateway selects for a request, with its path parameters; undefined sends it to `$default`. Used by the
 * local gateway (lib/local/gateway.ts), so `npm start` delivers to the function the deployed API does.
 */
export function selectGatewayRoute(method: string, path: string): { route: GatewayRoute; params: Record<string, string> } | undefined {
  const got = path.split('/');
  for (const compiled of COMPILED) {
    if (compiled.segments.length !== got.length) continue;
    if (compiled.route.method !== 'ANY' && compiled.route.method !== method) continue;
    const params = matchSegments(compiled.segments, got);
    if (params) return { route: compiled.route, params };
  }
  return undefined;
}
