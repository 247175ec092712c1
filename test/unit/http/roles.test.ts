// Who may call what: the role of every route-table row, spelled out so a change of access is a visible edit here
// (docs/roles.md has the same table).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Caller } from '#lib/caller/caller.ts';
import { requireRole } from '#lib/http/context.ts';
import { HttpError } from '#lib/api-shapes/http-errors.ts';
import { OPSGENIE_ROWS, ROUTES, type Route } from '#lib/http/routes.ts';

const EXPECTED_ROLES: readonly (readonly [string, Route['role']])[] = [
    ['POST /api/v4/users', 'admin'],
    ['GET /api/v4/users', 'member'],
    ['GET /api/v4/users/{id}', 'member'],
    ['PUT /api/v4/users/{id}', 'owner'],
    ['POST /api/v4/account_users', 'admin'],
    ['GET /api/v4/account_users', 'member'],
    ['GET /api/v4/account_users/{id}', 'member'],
    ['PUT /api/v4/account_users/{id}', 'admin'],
    ['DELETE /api/v4/account_users/{id}', 'admin'],
    ['GET /api/v4/account_users/{id}/push', 'owner'],
    ['POST /api/v4/account_users/{id}/ical_token', 'owner'],
    ['POST /api/v4/teams', 'admin'],
    ['GET /api/v4/teams', 'member'],
    ['GET /api/v4/teams/{id}', 'member'],
    ['PUT /api/v4/teams/{id}', 'admin'],
    ['DELETE /api/v4/teams/{id}', 'admin'],
    ['GET /api/v4/teams/{id}/current_oncall', 'member'],
    ['GET /api/v4/teams/{id}/alerts', 'member'],
    ['POST /api/v4/schedules', 'admin'],
    ['GET /api/v4/schedules', 'member'],
    ['GET /api/v4/schedules/{id}', 'member'],
    ['PUT /api/v4/schedules/{id}', 'admin'],
    ['DELETE /api/v4/schedules/{id}', 'admin'],
    ['DELETE /api/v4/schedules/{id}/flush', 'admin'],
    ['GET /api/v4/schedules/{id}/current_oncall', 'member'],
    ['GET /api/v4/schedules/{id}/window_events', 'member'],
    ['GET /api/v4/schedules/{id}/events', 'member'],
    ['GET /api/v4/schedules/{id}/gaps', 'member'],
    ['POST /api/v4/schedules/{id}/ical_token', 'admin'],
    ['POST /api/v4/time_off', 'member'],
    ['GET /api/v4/time_off', 'member'],
    ['GET /api/v4/time_off/{id}', 'member'],
    ['PUT /api/v4/time_off/{id}', 'owner'],
    ['DELETE /api/v4/time_off/{id}', 'owner'],
    ['GET /api/v4/events/time_zones', 'member'],
    ['POST /api/v4/events', 'admin'],
    ['GET /api/v4/events', 'member'],
    ['GET /api/v4/events/{id}', 'member'],
    ['PUT /api/v4/events/{id}', 'admin'],
    ['DELETE /api/v4/events/{id}', 'admin'],
    ['POST /api/v4/events/{id}/override', 'admin'],
    ['POST /api/v4/events/{id}/add_exception', 'admin'],
    ['POST /api/v4/events/{id}/terminate_on', 'admin'],
    ['POST /api/v4/escalation_policies', 'admin'],
    ['GET /api/v4/escalation_policies', 'member'],
    ['GET /api/v4/escalation_policies/{id}', 'member'],
    ['PUT /api/v4/escalation_policies/{id}', 'admin'],
    ['DELETE /api/v4/escalation_policies/{id}', 'admin'],
    ['POST /api/v4/routers', 'admin'],
    ['GET /api/v4/routers', 'member'],
    ['GET /api/v4/routers/{id}', 'member'],
    ['PUT /api/v4/routers/{id}', 'admin'],
    ['DELETE /api/v4/routers/{id}', 'admin'],
    ['POST /api/v4/notification_rules', 'admin'],
    ['GET /api/v4/notification_rules', 'member'],
    ['GET /api/v4/notification_rules/{id}', 'member'],
    ['PUT /api/v4/notification_rules/{id}', 'admin'],
    ['DELETE /api/v4/notification_rules/{id}', 'admin'],
    ['POST /api/v4/maintenance_windows', 'admin'],
    ['GET /api/v4/maintenance_windows', 'member'],
    ['GET /api/v4/maintenance_windows/{id}', 'member'],
    ['PUT /api/v4/maintenance_windows/{id}', 'admin'],
    ['DELETE /api/v4/maintenance_windows/{id}', 'admin'],
    ['POST /api/v4/integrations', 'admin'],
    ['GET /api/v4/integrations', 'member'],
    ['GET /api/v4/integrations/{id}', 'member'],
    ['PUT /api/v4/integrations/{id}', 'admin'],
    ['DELETE /api/v4/integrations/{id}', 'admin'],
    ['POST /api/v4/integrations/{id}/rotate_key', 'admin'],
    ['GET /api/v4/integration_types', 'member'],
    ['GET /api/v4/integration_types/{id}', 'member'],
    ['POST /api/v4/alerts', 'member'],
    ['GET /api/v4/alerts', 'member'],
    ['GET /api/v4/alerts/{id}', 'member'],
    ['PUT /api/v4/alerts/{id}', 'member'],
    ['DELETE /api/v4/alerts/{id}', 'admin'],
    ['POST /api/v4/alerts/{id}/acknowledge', 'member'],
    ['POST /api/v4/alerts/{id}/resolve', 'member'],
    ['POST /api/v4/alerts/{id}/reject', 'member'],
    ['GET /api/v4/alerts/{id}/logs', 'member'],
    ['GET /api/v4/alerts/{id}/workflows', 'member'],
    ['GET /api/v4/alerts/{id}/notifications', 'member'],
    ['POST /api/v4/comments', 'member'],
    ['GET /api/v4/comments', 'member'],
    ['GET /api/v4/comments/{id}', 'member'],
    ['POST /api/v4/comments/{id}/comments', 'member'],
    ['GET /api/v4/comments/{id}/comments', 'member'],
    ['POST /api/v4/alerts/{id}/comments', 'member'],
    ['GET /api/v4/alerts/{id}/comments', 'member'],
    ['POST /api/v4/broadcasts/{id}/comments', 'member'],
    ['GET /api/v4/broadcasts/{id}/comments', 'member'],
    ['POST /api/v4/broadcasts', 'broadcaster'],
    ['GET /api/v4/broadcasts', 'member'],
    ['GET /api/v4/broadcasts/{id}', 'member'],
    ['PUT /api/v4/broadcasts/{id}', 'broadcaster'],
    ['DELETE /api/v4/broadcasts/{id}', 'broadcaster'],
    ['POST /api/v4/broadcasts/{id}/responses', 'member'],
    ['GET /api/v4/broadcasts/{id}/notifications', 'member'],
    ['GET /api/v4/outbox', 'admin'],
    ['GET /api/v4/outbox/{id}', 'admin'],
    ['GET /api/v4/logs', 'member'],
    ['GET /api/v4/logs/{id}', 'member'],
    ['GET /api/v4/openapi.json', 'public'],
    ['POST /api/v4/outgoing_webhooks', 'admin'],
    ['GET /api/v4/outgoing_webhooks', 'admin'],
    ['GET /api/v4/outgoing_webhooks/{id}', 'admin'],
    ['PUT /api/v4/outgoing_webhooks/{id}', 'admin'],
    ['DELETE /api/v4/outgoing_webhooks/{id}', 'admin'],
    ['GET /api/v4/outgoing_webhooks/{id}/deliveries', 'admin'],
    ['POST /api/v4/outgoing_webhooks/{id}/deliveries/{delivery_id}/replay', 'admin'],
    ['POST /api/v4/outgoing_webhooks/{id}/test', 'admin'],
    ['POST /api/v4/outgoing_webhooks/{id}/rotate_secret', 'admin'],
    ['POST /integration/{id}', 'public'],
    ['GET /integration/{id}', 'public'],
    ['POST /v2/enqueue', 'public'],
    ['POST /v2/change/enqueue', 'public'],
    ['POST /v2/alerts', 'public'],
    ['GET /v2/alerts', 'public'],
    ['GET /v2/alerts/requests/{request_id}', 'public'],
    ['GET /v2/alerts/{identifier}', 'public'],
    ['POST /v2/alerts/{identifier}/close', 'public'],
    ['POST /v2/alerts/{identifier}/acknowledge', 'public'],
    ['POST /v2/alerts/{identifier}/unacknowledge', 'public'],
    ['POST /v2/alerts/{identifier}/notes', 'public'],
    ['PUT /v2/alerts/{identifier}/message', 'public'],
    ['PUT /v2/alerts/{identifier}/description', 'public'],
    ['POST /v2/alerts/{identifier}/tags', 'public'],
    ['DELETE /v2/alerts/{identifier}/tags', 'public'],
    ['GET /v2/heartbeats/{name}/ping', 'public'],
    ['POST /v2/heartbeats/{name}/ping', 'public'],
    ['PUT /v2/heartbeats/{name}/ping', 'public'],
    ['PATCH /v2/heartbeats/{name}/ping', 'public'],
    ['POST /v2/heartbeats', 'public'],
    ['GET /v2/heartbeats', 'public'],
    ['GET /v2/heartbeats/{name}', 'public'],
    ['PATCH /v2/heartbeats/{name}', 'public'],
    ['DELETE /v2/heartbeats/{name}', 'public'],
    ['POST /v2/heartbeats/{name}/enable', 'public'],
    ['POST /v2/heartbeats/{name}/disable', 'public'],
    ['POST /integration/{id}/v2/alerts', 'public'],
    ['GET /integration/{id}/v2/alerts', 'public'],
    ['GET /integration/{id}/v2/alerts/requests/{request_id}', 'public'],
    ['GET /integration/{id}/v2/alerts/{identifier}', 'public'],
    ['POST /integration/{id}/v2/alerts/{identifier}/close', 'public'],
    ['POST /integration/{id}/v2/alerts/{identifier}/acknowledge', 'public'],
    ['POST /integration/{id}/v2/alerts/{identifier}/unacknowledge', 'public'],
    ['POST /integration/{id}/v2/alerts/{identifier}/notes', 'public'],
    ['PUT /integration/{id}/v2/alerts/{identifier}/message', 'public'],
    ['PUT /integration/{id}/v2/alerts/{identifier}/description', 'public'],
    ['POST /integration/{id}/v2/alerts/{identifier}/tags', 'public'],
    ['DELETE /integration/{id}/v2/alerts/{identifier}/tags', 'public'],
    ['GET /integration/{id}/v2/heartbeats/{name}/ping', 'public'],
    ['POST /integration/{id}/v2/heartbeats/{name}/ping', 'public'],
    ['PUT /integration/{id}/v2/heartbeats/{name}/ping', 'public'],
    ['PATCH /integration/{id}/v2/heartbeats/{name}/ping', 'public'],
    ['POST /integration/{id}/v2/heartbeats', 'public'],
    ['GET /integration/{id}/v2/heartbeats', 'public'],
    ['GET /integration/{id}/v2/heartbeats/{name}', 'public'],
    ['PATCH /integration/{id}/v2/heartbeats/{name}', 'public'],
    ['DELETE /integration/{id}/v2/heartbeats/{name}', 'public'],
    ['POST /integration/{id}/v2/heartbeats/{name}/enable', 'public'],
    ['POST /integration/{id}/v2/heartbeats/{name}/disable', 'public'],
    ['GET /actions/{token}', 'public'],
    ['POST /actions/{token}', 'public'],
    ['POST /slack/interactions', 'public'],
    ['POST /sms/twilio', 'public'],
    ['POST /voice/twilio/gather', 'public'],
    ['POST /sms/twilio/status', 'public'],
    ['GET /ical/{token}', 'public'],
    ['GET /', 'public'],
    ['GET /assets/{file}', 'public'],
    ['GET /sign-in', 'public'],
    ['POST /sign-in', 'public'],
    ['GET /sign-in/{token}', 'public'],
    ['POST /sign-in/{token}', 'public'],
    ['GET /accounts', 'public'],
    ['POST /accounts', 'public'],
    ['POST /sign-out', 'public'],
    ['GET /alerts', 'public'],
    ['GET /alerts/{id}', 'public'],
    ['POST /alerts/{id}/acknowledge', 'public'],
    ['POST /alerts/{id}/resolve', 'public'],
    ['POST /alerts/{id}/reject', 'public'],
    ['POST /alerts/{id}/comments', 'public'],
    ['GET /on-call', 'public'],
    ['GET /schedules/{id}', 'public'],
    ['GET /me', 'public'],
    ['POST /me/invitations/{id}/accept', 'public'],
    ['POST /me/invitations/{id}/deny', 'public'],
    ['GET /integrations', 'public'],
    ['GET /inbox', 'public'],
];

const caller = (admin: boolean, broadcaster = false): Caller => ({
  accountId: 'a',
  accountUserId: 'au',
  userId: 'u',
  apiKeyId: 'k',
  roles: { admin, billing: false, broadcaster, communicator: false },
});

function denial(route: Route, asAdmin: boolean, asBroadcaster = false): string[] | undefined {
  try {
    requireRole(route, caller(asAdmin, asBroadcaster));
    return undefined;
  } catch (error) {
    if (error instanceof HttpError && error.status === 403) return [...error.messages];
    throw error;
  }
}

describe('route roles', () => {
  it('gives every row exactly the role in the table, and the table has no other rows', () => {
    expect(ROUTES.map((r) => [`${r.method} ${r.path}`, r.role])).toEqual(EXPECTED_ROLES);
  });

  it('lets admins call every row', () => {
    for (const route of ROUTES) expect(denial(route, true), `${route.method} ${route.path}`).toBeUndefined();
  });

  it('lets members call member, owner and public rows (owner rows are checked again by the service)', () => {
    for (const route of ROUTES.filter((r) => r.role !== 'admin' && r.role !== 'broadcaster')) expect(denial(route, false), `${route.method} ${route.path}`).toBeUndefined();
  });

  it('refuses members on admin rows: changes as configuration, reads naming what they read', () => {
    const admin = ROUTES.filter((r) => r.role === 'admin');
    for (const route of admin.filter((r) => r.method !== 'GET')) {
      expect(denial(route, false), `${route.method} ${route.path}`).toEqual(['Only account admins can change configuration']);
    }
    for (const route of admin.filter((r) => r.method === 'GET')) {
      const what = route.path.includes('/outgoing_webhooks') ? 'outgoing webhooks' : 'outbox';
      expect(denial(route, false), `${route.method} ${route.path}`).toEqual([`Only account admins can read the ${what}`]);
    }
  });

  it('lets broadcasters and admins, and nobody else, send, change and delete broadcasts', () => {
    const rows = ROUTES.filter((r) => r.role === 'broadcaster');
    expect(rows.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v4/broadcasts', 'PUT /api/v4/broadcasts/{id}', 'DELETE /api/v4/broadcasts/{id}']);
    for (const route of rows) {
      expect(denial(route, false, true), `${route.method} ${route.path}`).toBeUndefined();
      expect(denial(route, true), `${route.method} ${route.path}`).toBeUndefined();
      expect(denial(route, false), `${route.method} ${route.path}`).toEqual(['Only account admins and broadcasters can send, change or delete broadcasts']);
    }
  });

  it('keeps public rows to the webhook (its path, PagerDuty\'s Events API by the body\'s routing_key, Opsgenie’s calls by their GenieKey), the API description, acting from a message (links, Slack, SMS replies, key presses, delivery reports), the calendar feeds (their secret token) and the console (its session checked inside)', () => {
    expect(ROUTES.filter((r) => r.role === 'public' && r.group !== 'console').map((r) => r.group)).toEqual(['openapi', 'webhook', 'webhook', 'webhook', 'webhook', ...Array.from({ length: OPSGENIE_ROWS.length }, () => 'webhook'), 'actions', 'actions', 'actions', 'phone', 'phone', 'phone', 'ical']);
    expect(ROUTES.filter((r) => r.group === 'console').every((r) => r.role === 'public' && !r.path.startsWith('/api/'))).toBe(true);
  });

  it('docs/roles.md lists the same table', () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'roles.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `([A-Z]+ \/[^`]*)` \| (\w+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(EXPECTED_ROLES);
  });
});
