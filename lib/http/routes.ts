// The one route table: the CDK stack creates an API Gateway route per row, and the local gateway
// dispatches with the same rows, so deployed and local routing cannot drift.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route (docs/roles.md):
 * - `public`: no API key (the webhook authenticates with its integration's token; the API description is open);
 * - `member`: any account user holding a valid API key;
 * - `admin`: account users with the admin role; the handler factory answers 403 to anyone else;
 * - `broadcaster`: account users with the admin or the broadcaster role (sending broadcasts); 403 to anyone else;
 * - `owner`: any member passes the factory, then the service admits only the object's owner or an admin, because
 *   only the service has loaded the object (a user's own profile).
 */
export type Role = 'public' | 'member' | 'admin' | 'owner' | 'broadcaster';

export interface Route {
  readonly method: HttpMethod;
  /** API Gateway path syntax: `{name}` is one path segment. */
  readonly path: string;
  /** Endpoint group: one Lambda and one `functions/<group>.ts` module per group. */
  readonly group: Group;
  readonly role: Role;
  /**
   * An intake route (monitors post to it, alert storms arrive on it): API Gateway gives it a route of its own method and
   * path with the intake throttle (`hark:webhookThrottleRateLimit`) instead of the API's. Every row of an intake group
   * (INTAKE_GROUPS) is one without saying so; a row of another group opts in here (docs/decisions/0031-api-routes-in-a-nested-stack.md).
   */
  readonly intake?: true;
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
  'alerts',
  'outbox',
  'broadcasts',
  'logs',
  'webhook',
  'openapi',
  'actions',
  'phone',
  'outgoing_webhooks',
  'console',
  'time_off',
  'ical',
] as const;
export type Group = (typeof GROUPS)[number];

/** Groups whose every route is an intake route (see Route.intake): the webhook's. */
export const INTAKE_GROUPS: readonly Group[] = ['webhook'];

export const isIntake = (route: Route): boolean => route.intake === true || INTAKE_GROUPS.includes(route.group);

export const API_PREFIX = '/api/v4';

interface CrudRoles {
  create: Role;
  read: Role;
  update?: Role | false;
  remove?: Role | false;
}

/** Configuration resources: members read, admins change (create, update, delete). */
const CONFIGURATION: CrudRoles = { create: 'admin', read: 'member', update: 'admin', remove: 'admin' };

function crud(group: Group, resource: string, roles: CrudRoles = CONFIGURATION): Route[] {
  const base = `${API_PREFIX}/${resource}`;
  const rows: Route[] = [
    { method: 'POST', path: base, group, role: roles.create },
    { method: 'GET', path: base, group, role: roles.read },
    { method: 'GET', path: `${base}/{id}`, group, role: roles.read },
  ];
  if (roles.update) rows.push({ method: 'PUT', path: `${base}/{id}`, group, role: roles.update });
  if (roles.remove) rows.push({ method: 'DELETE', path: `${base}/{id}`, group, role: roles.remove });
  return rows;
}

const api = (method: HttpMethod, path: string, group: Group, role: Role): Route => ({ method, path: `${API_PREFIX}${path}`, group, role });

/** The console's pages and forms: public rows (no API key), the session checked by the console itself. */
const consoleRow = (method: HttpMethod, path: string): Route => ({ method, path, group: 'console', role: 'public' });
const CONSOLE_ROUTES: Route[] = [
  consoleRow('GET', '/'),
  consoleRow('GET', '/assets/{file}'),
  consoleRow('GET', '/sign-in'),
  consoleRow('POST', '/sign-in'),
  consoleRow('GET', '/sign-in/{token}'),
  consoleRow('POST', '/sign-in/{token}'),
  consoleRow('GET', '/accounts'),
  consoleRow('POST', '/accounts'),
  consoleRow('POST', '/sign-out'),
  consoleRow('GET', '/alerts'),
  consoleRow('GET', '/alerts/{id}'),
  consoleRow('POST', '/alerts/{id}/acknowledge'),
  consoleRow('POST', '/alerts/{id}/resolve'),
  consoleRow('POST', '/alerts/{id}/reject'),
  consoleRow('POST', '/alerts/{id}/comments'),
  consoleRow('GET', '/on-call'),
  consoleRow('GET', '/schedules/{id}'),
  consoleRow('GET', '/me'),
  consoleRow('POST', '/me/invitations/{id}/accept'),
  consoleRow('POST', '/me/invitations/{id}/deny'),
  consoleRow('GET', '/integrations'),
  consoleRow('GET', '/inbox'),
];

/** Opsgenie's calls Hark serves, relative to `/v2`: writes (answered 202 at intake), reads, heartbeat pings. */
const OPSGENIE_CALLS: readonly [HttpMethod, string][] = [
  ['POST', '/alerts'],
  ['GET', '/alerts'],
  ['GET', '/alerts/requests/{request_id}'],
  ['GET', '/alerts/{identifier}'],
  ['POST', '/alerts/{identifier}/close'],
  ['POST', '/alerts/{identifier}/acknowledge'],
  ['POST', '/alerts/{identifier}/unacknowledge'],
  ['POST', '/alerts/{identifier}/notes'],
  ['PUT', '/alerts/{identifier}/message'],
  ['PUT', '/alerts/{identifier}/description'],
  ['POST', '/alerts/{identifier}/tags'],
  ['DELETE', '/alerts/{identifier}/tags'],
  ...(['GET', 'POST', 'PUT', 'PATCH'] as const).map((method): [HttpMethod, string] => [method, '/heartbeats/{name}/ping']),
  // The heartbeat admin calls, for an opsgenie integration with allow_heartbeat_admin.
  ['POST', '/heartbeats'],
  ['GET', '/heartbeats'],
  ['GET', '/heartbeats/{name}'],
  ['PATCH', '/heartbeats/{name}'],
  ['DELETE', '/heartbeats/{name}'],
  ['POST', '/heartbeats/{name}/enable'],
  ['POST', '/heartbeats/{name}/disable'],
];

/** Each call at `/v2/…` and at `/integration/{id}/v2/…`: intake rows of the webhook's group, with its throttle. */
export const OPSGENIE_ROWS: readonly Route[] = ['/v2', '/integration/{id}/v2'].flatMap((base) =>
  OPSGENIE_CALLS.map(([method, path]): Route => ({ method, path: `${base}${path}`, group: 'webhook', role: 'public' })),
);

export const ROUTES: readonly Route[] = [
  // A user may change their own profile; an admin may change others' (the service decides: docs/people.md).
  ...crud('users', 'users', { create: 'admin', read: 'member', update: 'owner', remove: false }),
  ...crud('account_users', 'account_users'),
  // A person's own push topic: knowing it is enough to read their pages (docs/notifications.md).
  api('GET', '/account_users/{id}/push', 'account_users', 'owner'),
  // A person's calendar feed URL: they or an admin rotate it (docs/schedules.md, "Calendar feeds").
  api('POST', '/account_users/{id}/ical_token', 'account_users', 'owner'),
  ...crud('teams', 'teams'),
  api('GET', '/teams/{id}/current_oncall', 'teams', 'member'),
  api('GET', '/teams/{id}/alerts', 'teams', 'member'),
  ...crud('schedules', 'schedules'),
  api('DELETE', '/schedules/{id}/flush', 'schedules', 'admin'),
  api('GET', '/schedules/{id}/current_oncall', 'schedules', 'member'),
  api('GET', '/schedules/{id}/window_events', 'schedules', 'member'),
  api('GET', '/schedules/{id}/events', 'schedules', 'member'),
  api('GET', '/schedules/{id}/gaps', 'schedules', 'member'),
  api('POST', '/schedules/{id}/ical_token', 'schedules', 'admin'),
  // Time off: anyone reads it; a member records and changes their own, an admin anyone's (the service decides).
  ...crud('time_off', 'time_off', { create: 'member', read: 'member', update: 'owner', remove: 'owner' }),
  api('GET', '/events/time_zones', 'events', 'member'),
  ...crud('events', 'events'),
  api('POST', '/events/{id}/override', 'events', 'admin'),
  api('POST', '/events/{id}/add_exception', 'events', 'admin'),
  api('POST', '/events/{id}/terminate_on', 'events', 'admin'),
  ...crud('escalation_policies', 'escalation_policies'),
  ...crud('routers', 'routers'),
  ...crud('notification_rules', 'notification_rules'),
  ...crud('maintenance_windows', 'maintenance_windows'),
  ...crud('integrations', 'integrations'),
  // A new sender key (PagerDuty's routing_key) at once; the old one stops working (docs/integrations.md, "Sender keys").
  api('POST', '/integrations/{id}/rotate_key', 'integrations', 'admin'),
  // The integration types (one per monitor reader) and the options each takes: fixed data, any member.
  api('GET', '/integration_types', 'integrations', 'member'),
  api('GET', '/integration_types/{id}', 'integrations', 'member'),
  // Alerts: any member may create, update, acknowledge, resolve and reject; deleting an alert's history takes an admin.
  ...crud('alerts', 'alerts', { create: 'member', read: 'member', update: 'member', remove: 'admin' }),
  api('POST', '/alerts/{id}/acknowledge', 'alerts', 'member'),
  api('POST', '/alerts/{id}/resolve', 'alerts', 'member'),
  api('POST', '/alerts/{id}/reject', 'alerts', 'member'),
  api('GET', '/alerts/{id}/logs', 'alerts', 'member'),
  api('GET', '/alerts/{id}/workflows', 'alerts', 'member'),
  api('GET', '/alerts/{id}/notifications', 'alerts', 'member'),
  // Any member may comment and read comments.
  ...crud('comments', 'comments', { create: 'member', read: 'member', update: false, remove: false }),
  api('POST', '/comments/{id}/comments', 'comments', 'member'),
  api('GET', '/comments/{id}/comments', 'comments', 'member'),
  api('POST', '/alerts/{id}/comments', 'comments', 'member'),
  api('GET', '/alerts/{id}/comments', 'comments', 'member'),
  api('POST', '/broadcasts/{id}/comments', 'comments', 'member'),
  api('GET', '/broadcasts/{id}/comments', 'comments', 'member'),
  // Admins and broadcasters send broadcasts; any member reads them, and answers the ones sent to them.
  ...crud('broadcasts', 'broadcasts', { create: 'broadcaster', read: 'member', update: 'broadcaster', remove: 'broadcaster' }),
  api('POST', '/broadcasts/{id}/responses', 'broadcasts', 'member'),
  api('GET', '/broadcasts/{id}/notifications', 'broadcasts', 'member'),
  // Queued messages name people and their addresses: admins only.
  api('GET', '/outbox', 'outbox', 'admin'),
  api('GET', '/outbox/{id}', 'outbox', 'admin'),
  // One log per accepted webhook request, with its processing notes: read-only, any member.
  api('GET', '/logs', 'logs', 'member'),
  api('GET', '/logs/{id}', 'logs', 'member'),
  api('GET', '/openapi.json', 'openapi', 'public'),
  // Outgoing webhooks hold signing secrets and reach outside systems: admins only (docs/outgoing-webhooks.md).
  ...crud('outgoing_webhooks', 'outgoing_webhooks', { create: 'admin', read: 'admin', update: 'admin', remove: 'admin' }),
  api('GET', '/outgoing_webhooks/{id}/deliveries', 'outgoing_webhooks', 'admin'),
  api('POST', '/outgoing_webhooks/{id}/deliveries/{delivery_id}/replay', 'outgoing_webhooks', 'admin'),
  api('POST', '/outgoing_webhooks/{id}/test', 'outgoing_webhooks', 'admin'),
  api('POST', '/outgoing_webhooks/{id}/rotate_secret', 'outgoing_webhooks', 'admin'),
  // Authenticated by the integration's own token, not an API key.
  { method: 'POST', path: '/integration/{id}', group: 'webhook', role: 'public' },
  // A heartbeat integration is pinged with GET too; other types answer GET with 405 (docs/monitors.md, "Heartbeat").
  { method: 'GET', path: '/integration/{id}', group: 'webhook', role: 'public' },
  // PagerDuty's Events API v2 at the root, so a sender changes only the host: the body's routing_key names the
  // integration (docs/monitors.md, "PagerDuty Events API v2"). Intake rows, as every row of the webhook group.
  { method: 'POST', path: '/v2/enqueue', group: 'webhook', role: 'public' },
  { method: 'POST', path: '/v2/change/enqueue', group: 'webhook', role: 'public' },
  // Opsgenie's Alert API v2 and heartbeat pings, authenticated by an opsgenie integration's GenieKey, at the root (a
  // sender changes only the host) and under one integration (docs/migrating.md, "From Opsgenie").
  ...OPSGENIE_ROWS,
  // Acting from a message: the signed link's token, or Slack's request signature, authenticates (docs/notifications.md).
  { method: 'GET', path: '/actions/{token}', group: 'actions', role: 'public' },
  { method: 'POST', path: '/actions/{token}', group: 'actions', role: 'public' },
  { method: 'POST', path: '/slack/interactions', group: 'actions', role: 'public' },
  // Twilio's inbound SMS/WhatsApp replies and call key presses, authenticated by X-Twilio-Signature (docs/notifications.md).
  { method: 'POST', path: '/sms/twilio', group: 'phone', role: 'public' },
  { method: 'POST', path: '/voice/twilio/gather', group: 'phone', role: 'public' },
  { method: 'POST', path: '/sms/twilio/status', group: 'phone', role: 'public' },
  // Calendar feeds: the secret token in the path authenticates (docs/schedules.md, "Calendar feeds").
  { method: 'GET', path: '/ical/{token}', group: 'ical', role: 'public' },
  // The console: HTML pages for people, signed in with a session cookie that functions/console.ts checks itself
  // (docs/console.md); the role table decides each page as it does the API's rows.
  ...CONSOLE_ROUTES,
];

/** The rows of the API (the description at /api/v4/openapi.json covers these): every row but the console's pages. */
export const API_ROUTES: readonly Route[] = ROUTES.filter((r) => r.group !== 'console');

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

/** A route's path split once: each segment a literal or a parameter name. */
export type Segments = readonly ({ literal: string } | { param: string })[];

interface CompiledRoute {
  route: Route;
  /** The row's place in ROUTES: an Allow header lists methods in table order. */
  order: number;
  segments: Segments;
  /** Literal segments: the more, the more specific (`/events/time_zones` over `/events/{id}`). */
  literals: number;
}

export const segmentsOf = (routePath: string): Segments =>
  routePath.split('/').map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s }));

function compile(route: Route, order: number): CompiledRoute {
  const segments = segmentsOf(route.path);
  return { route, order, segments, literals: segments.filter((s) => 'literal' in s).length };
}

/** The parameters of a path split into segments, or undefined when the compiled route does not match it. */
export function matchSegments(segments: Segments, got: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < got.length; i++) {
    const want = segments[i]!;
    const segment = got[i]!;
    if ('literal' in want) {
      if (want.literal !== segment) return undefined;
    } else {
      if (segment === '') return undefined;
      params[want.param] = decodeSegment(segment);
    }
  }
  return params;
}

/** Matches a concrete path against a route path; returns the path parameters or undefined. */
export function matchPath(routePath: string, actual: string): Record<string, string> | undefined {
  const segments = segmentsOf(routePath);
  const got = actual.split('/');
  return got.length === segments.length ? matchSegments(segments, got) : undefined;
}

/**
 * The table compiled once per process, by segment count and most specific first: a request is matched against the
 * few routes of its length with their paths already split, not against every route's text (every local request and
 * every error answer looks a route up).
 */
const ROUTES_BY_LENGTH: ReadonlyMap<number, readonly CompiledRoute[]> = (() => {
  const byLength = new Map<number, CompiledRoute[]>();
  for (const compiled of ROUTES.map((route, order) => compile(route, order))) {
    const list = byLength.get(compiled.segments.length) ?? [];
    list.push(compiled);
    byLength.set(compiled.segments.length, list);
  }
  for (const list of byLength.values()) list.sort((a, b) => b.literals - a.literals);
  return byLength;
})();

/** Finds the route for a request; literal segments win over parameters (`/events/time_zones` over `/events/{id}`). */
export function findRoute(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: HttpMethod[] } | undefined {
  const got = path.split('/');
  const others: CompiledRoute[] = [];
  for (const compiled of ROUTES_BY_LENGTH.get(got.length) ?? []) {
    const params = matchSegments(compiled.segments, got);
    if (params === undefined) continue;
    if (compiled.route.method === method) return { route: compiled.route, params };
    others.push(compiled);
  }
  if (others.length === 0) return undefined;
  return { allowed: [...new Set(others.sort((a, b) => a.order - b.order).map((c) => c.route.method))] };
}
