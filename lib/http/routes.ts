// The one route table: the CDK stack creates an API Gateway route per row, and the local gateway
// dispatches with the same rows, so deployed and local routing cannot drift.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  readonly method: HttpMethod;
  /** API Gateway path syntax: `{name}` is one path segment. */
  readonly path: string;
  /** Endpoint group: one Lambda and one `functions/<group>.ts` module per group. */
  readonly group: Group;
}

export const GROUPS = [
  'users',
  'account_users',
  'teams',
  'schedules',
  'events',
  'escalation_policies',
  'routers',
  'notification_rules',
  'maintenance_windows',
  'integrations',
  'comments',
  'outbox',
  'webhook',
] as const;
export type Group = (typeof GROUPS)[number];

export const API_PREFIX = '/api/v4';

function crud(group: Group, resource: string, ops: { remove?: boolean; update?: boolean } = {}): Route[] {
  const base = `${API_PREFIX}/${resource}`;
  const rows: Route[] = [
    { method: 'POST', path: base, group },
    { method: 'GET', path: base, group },
    { method: 'GET', path: `${base}/{id}`, group },
  ];
  if (ops.update !== false) rows.push({ method: 'PUT', path: `${base}/{id}`, group });
  if (ops.remove !== false) rows.push({ method: 'DELETE', path: `${base}/{id}`, group });
  return rows;
}

const api = (method: HttpMethod, path: string, group: Group): Route => ({ method, path: `${API_PREFIX}${path}`, group });

export const ROUTES: readonly Route[] = [
  ...crud('users', 'users', { remove: false }),
  ...crud('account_users', 'account_users'),
  ...crud('teams', 'teams'),
  api('GET', '/teams/{id}/current_oncall', 'teams'),
  api('GET', '/teams/{id}/alerts', 'teams'),
  ...crud('schedules', 'schedules'),
  api('DELETE', '/schedules/{id}/flush', 'schedules'),
  api('GET', '/schedules/{id}/current_oncall', 'schedules'),
  api('GET', '/schedules/{id}/window_events', 'schedules'),
  api('GET', '/schedules/{id}/events', 'schedules'),
  api('GET', '/events/time_zones', 'events'),
  ...crud('events', 'events'),
  api('POST', '/events/{id}/override', 'events'),
  api('POST', '/events/{id}/add_exception', 'events'),
  api('POST', '/events/{id}/terminate_on', 'events'),
  ...crud('escalation_policies', 'escalation_policies'),
  ...crud('routers', 'routers'),
  ...crud('notification_rules', 'notification_rules'),
  ...crud('maintenance_windows', 'maintenance_windows'),
  ...crud('integrations', 'integrations'),
  ...crud('comments', 'comments', { update: false, remove: false }),
  api('POST', '/comments/{id}/comments', 'comments'),
  api('GET', '/comments/{id}/comments', 'comments'),
  api('POST', '/alerts/{id}/comments', 'comments'),
  api('GET', '/alerts/{id}/comments', 'comments'),
  api('POST', '/broadcasts/{id}/comments', 'comments'),
  api('GET', '/broadcasts/{id}/comments', 'comments'),
  api('GET', '/outbox', 'outbox'),
  api('GET', '/outbox/{id}', 'outbox'),
  { method: 'POST', path: '/integration/{id}', group: 'webhook' },
];

export function routesOf(group: Group): Route[] {
  return ROUTES.filter((r) => r.group === group);
}

/**
 * A path segment decoded; a malformed percent-encoding (`%E0%A4%A`) stays as sent, so it reaches the handler
 * as a value that cannot be an id (404) instead of throwing.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Matches a concrete path against a route path; returns the path parameters or undefined. */
export function matchPath(routePath: string, actual: string): Record<string, string> | undefined {
  const want = routePath.split('/');
  const got = actual.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      params[w.slice(1, -1)] = decodeSegment(g);
    } else if (w !== g) return undefined;
  }
  return params;
}

/** Finds the route for a request; literal segments win over parameters (`/events/time_zones` over `/events/{id}`). */
export function findRoute(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: HttpMethod[] } | undefined {
  const matches = ROUTES.map((route) => ({ route, params: matchPath(route.path, path) })).filter(
    (m): m is { route: Route; params: Record<string, string> } => m.params !== undefined,
  );
  if (matches.length === 0) return undefined;
  const literalness = (r: Route) => r.path.split('/').filter((s) => !s.startsWith('{')).length;
  const forMethod = matches.filter((m) => m.route.method === method).sort((a, b) => literalness(b.route) - literalness(a.route));
  if (forMethod[0]) return forMethod[0];
  return { allowed: [...new Set(matches.map((m) => m.route.method))] };
}
