// What an `{id}` in a path can be (docs/architecture.md, "Ids in paths"): ids are ULIDs, prefix ids are
// `<prefix>_` plus 10–14 letters and digits, tiny ids are digits. Anything else cannot name an object, so
// it is answered 404 before it reaches storage (where an over-long key fails instead of being not found).
import { HttpError, notFound } from '../api-shapes/http-errors.ts';
import { couldBeId } from '../ids.ts';

/** The noun of the 404, by the path segment before `{id}`: the same words the services use. */
const NOUNS: Readonly<Record<string, string>> = {
  users: 'User',
  account_users: 'Account user',
  teams: 'Team',
  schedules: 'Schedule',
  events: 'Event',
  escalation_policies: 'Escalation policy',
  routers: 'Router',
  notification_rules: 'Notification rule',
  maintenance_windows: 'Maintenance window',
  integrations: 'Integration',
  integration: 'Integration',
  integration_types: 'Integration type',
  comments: 'Comment',
  alerts: 'Alert',
  broadcasts: 'Broadcast',
  outbox: 'Outbox message',
  outgoing_webhooks: 'Outgoing webhook',
  deliveries: 'Delivery',
  logs: 'Log',
  invitations: 'Invitation',
  time_off: 'Time off',
};

export { couldBeId };

/** The noun a route's `{name}` parameter is an id of (`/teams/{id}/alerts` → `Team`). */
export function nounOf(routePath: string, parameter: string): string {
  const segments = routePath.split('/');
  const at = segments.indexOf(`{${parameter}}`);
  return NOUNS[segments[at - 1] ?? ''] ?? 'Resource';
}

/** 404 for the first path parameter of the route that cannot be an id; undefined when all can. */
export function impossiblePathId(routePath: string, params: Readonly<Record<string, string | undefined>>): HttpError | undefined {
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || !couldBeId(value)) return notFound(nounOf(routePath, name));
  }
  return undefined;
}
