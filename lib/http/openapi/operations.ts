// What each route-table row takes and answers, for the API description (docs/openapi.json). The request
// schemas are the same zod schemas the handlers validate with; rows not listed here take no body.
import { timeOffCreate, timeOffUpdate } from '../../time-off/schema.ts';
import { z } from 'zod';
import { alertCreate, alertUpdate } from '../../alerts/schema.ts';
import { broadcastCreate, broadcastResponseCreate, broadcastUpdate } from '../../broadcasts/schema.ts';
import { commentCreate } from '../../comments/schema.ts';
import { policyCreate, policyUpdate } from '../../escalation-policies/schema.ts';
import { actionInput, eventCreate, eventUpdate, overrideInput } from '../../schedule-events/schema.ts';
import { integrationCreate, integrationUpdate } from '../../integrations/schema.ts';
import { DEFAULT_PAGE_SIZE, MAX_LIST_OFFSET, MAX_PAGE_SIZE } from '../../limits.ts';
import { windowCreate, windowUpdate } from '../../maintenance/schema.ts';
import { notificationRuleCreate, notificationRuleUpdate } from '../../notification-rules/schema.ts';
import { accountUserCreate, accountUserUpdate, userCreate, userUpdate } from '../../people/schema.ts';
import { routerCreate, routerUpdate } from '../../routers/schema.ts';
import { scheduleCreate, scheduleUpdate } from '../../schedules/schema.ts';
import { teamCreate, teamUpdate } from '../../teams/schema.ts';
import { outgoingWebhookCreate, outgoingWebhookUpdate, rotateSecretInput } from '../../webhooks/schema.ts';
import type { Route } from '../routes.ts';
import { OPSGENIE_OPERATIONS } from './opsgenie.ts';

/** The success answer of a row: one object, a list envelope, a bare array, no body, an HTML page for a person, TwiML for Twilio, or an iCalendar feed. */
export type Answer = 'object' | 'list' | 'array' | 'none' | 'html' | 'twiml' | 'calendar';

export interface Operation {
  readonly summary: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  readonly status: 200 | 201 | 202 | 204;
  readonly answer: Answer;
  /** A second success: a 200 with an existing object, and when it is answered (e.g. a create folded by dedup keys). */
  readonly existing?: string;
  /** Answers other than the success and the usual failures: status → what it means (the body as `answer`, or the error body). */
  readonly also?: Readonly<Record<number, string>>;
}

/** Query parameters every list takes (docs/lists.md); any attribute may also be passed to filter on it. */
export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).max(MAX_LIST_OFFSET).optional(),
  page: z.coerce.number().int().min(1).optional().meta({ description: `(page − 1) × limit is at most ${MAX_LIST_OFFSET}` }),
  sort: z.string().optional(),
  direction: z.enum(['asc', 'desc']).optional(),
  q: z.string().optional().meta({ description: 'Case-insensitive substring search over the resource’s searchable attributes' }),
  ops: z.string().optional().meta({ description: 'Comma-separated `<attribute>:<operation>` tokens changing how filters compare' }),
});

const windowQuery = z.object({
  start: z.string().meta({ description: 'Start of the window, an ISO 8601 instant in UTC' }),
  end: z.string().meta({ description: 'End of the window, at most 366 days after start' }),
});
/** window_events also pages (docs/events-api.md, "Large windows"). */
const windowPageQuery = windowQuery.extend({
  limit: z.string().optional().meta({ description: 'Entries per page (1 to 21539): asks for pages in time order, each linking the next (Link rel="next")' }),
  cursor: z.string().optional().meta({ description: 'Where a page starts: the cursor of the previous page’s next link' }),
});

/** A configuration resource's five rows, named by its singular and plural nouns. */
function crudOperations(
  path: string,
  [noun, plural]: [string, string],
  create: z.ZodType,
  update: z.ZodType | undefined,
  { remove = true } = {},
): Record<string, Operation> {
  const operations: Record<string, Operation> = {
    [`POST ${path}`]: { summary: `Create a ${noun}`, body: create, status: 201, answer: 'object' },
    [`GET ${path}`]: { summary: `List ${plural}`, query: listQuery, status: 200, answer: 'list' },
    [`GET ${path}/{id}`]: { summary: `Get a ${noun}`, status: 200, answer: 'object' },
  };
  if (update) operations[`PUT ${path}/{id}`] = { summary: `Update a ${noun}`, body: update, status: 200, answer: 'object' };
  if (remove) operations[`DELETE ${path}/{id}`] = { summary: `Delete a ${noun}`, status: 204, answer: 'none' };
  return operations;
}

const P = '/api/v4';

/** Acting from a message (docs/notifications.md): pages for a person, and Slack's interaction callback. */
const LINK_PAGES = { 403: 'The link is not valid (changed, made-up, or signed with a key no longer in use)', 404: 'The alert no longer exists', 410: 'The link has expired' };
const actionOperations: Record<string, Operation> = {
  [`POST ${P}/account_users/{id}/ical_token`]: { summary: 'A new secret URL of the person’s calendar feed, answered once as ical_url (the old URL stops working)', status: 200, answer: 'object' },
  'GET /ical/{token}': { summary: 'A calendar feed (RFC 5545): the secret token in the URL authenticates; If-None-Match with its ETag answers 304', status: 200, answer: 'calendar', also: { 304: 'Not modified: the feed still has the ETag sent in If-None-Match' } },
  [`GET ${P}/account_users/{id}/push`]: { summary: 'Where the person subscribes to their push notifications (their ntfy topic)', status: 200, answer: 'object' },
  'GET /actions/{token}': { summary: 'The confirmation page of a signed link in a message (never acts)', status: 200, answer: 'html', also: LINK_PAGES },
  'POST /actions/{token}': { summary: 'Act as the signed link says (the confirmation page’s form) and show the outcome', status: 200, answer: 'html', also: LINK_PAGES },
  'POST /slack/interactions': {
    summary: 'Slack’s interaction callback (form-encoded `payload`), signed with X-Slack-Signature',
    status: 200,
    answer: 'none',
    also: { 400: 'The payload is not a Slack interaction', 401: 'Missing, stale or wrong Slack signature, or Slack not configured' },
  },
};

const commentRows = (parent: 'comments' | 'alerts' | 'broadcasts', noun: string): Record<string, Operation> => ({
  [`POST ${P}/${parent}/{id}/comments`]: { summary: `Comment on a ${noun}`, body: commentCreate, status: 201, answer: 'object' },
  [`GET ${P}/${parent}/{id}/comments`]: { summary: `List the comments on a ${noun}`, query: listQuery, status: 200, answer: 'list' },
});

const OPERATIONS: Record<string, Operation> = {
  ...crudOperations(`${P}/users`, ['user', 'users'], userCreate, userUpdate, { remove: false }),
  ...crudOperations(`${P}/account_users`, ['account user', 'account users'], accountUserCreate, accountUserUpdate),
  ...crudOperations(`${P}/teams`, ['team', 'teams'], teamCreate, teamUpdate),
  [`GET ${P}/teams/{id}/current_oncall`]: { summary: 'Who is on call for a team now, per escalation layer', status: 200, answer: 'object' },
  [`GET ${P}/teams/{id}/alerts`]: { summary: 'List the alerts of a team', query: listQuery, status: 200, answer: 'list' },
  ...crudOperations(`${P}/schedules`, ['schedule', 'schedules'], scheduleCreate, scheduleUpdate),
  [`DELETE ${P}/schedules/{id}/flush`]: { summary: 'Delete every event of a schedule', status: 204, answer: 'none' },
  [`GET ${P}/schedules/{id}/gaps`]: { summary: 'The times each layer of a schedule has nobody on call, in a window of at most a year', query: windowQuery, status: 200, answer: 'object' },
  [`POST ${P}/schedules/{id}/ical_token`]: { summary: 'A new secret URL of the schedule’s calendar feed, answered once as ical_url (the old URL stops working)', status: 200, answer: 'object' },
  [`GET ${P}/schedules/{id}/current_oncall`]: { summary: 'Who is on call on a schedule now', status: 200, answer: 'object' },
  [`GET ${P}/schedules/{id}/window_events`]: { summary: 'Occurrences of a schedule’s events in a window: whole (gzip when accepted) or in pages with a next link', query: windowPageQuery, status: 200, answer: 'array' },
  [`GET ${P}/schedules/{id}/events`]: { summary: 'List the events of a schedule', query: listQuery, status: 200, answer: 'list' },
  [`GET ${P}/events/time_zones`]: { summary: 'The time zone names events accept', status: 200, answer: 'array' },
  ...crudOperations(`${P}/events`, ['schedule event', 'schedule events'], eventCreate, eventUpdate),
  [`POST ${P}/events/{id}/override`]: { summary: 'Override one occurrence of an event', body: overrideInput, status: 200, answer: 'object' },
  [`POST ${P}/events/{id}/add_exception`]: { summary: 'Skip one occurrence of an event', body: actionInput, status: 200, answer: 'object' },
  [`POST ${P}/events/{id}/terminate_on`]: { summary: 'End a recurring event at a time', body: actionInput, status: 200, answer: 'object' },
  ...crudOperations(`${P}/escalation_policies`, ['escalation policy', 'escalation policies'], policyCreate, policyUpdate),
  ...crudOperations(`${P}/routers`, ['router', 'routers'], routerCreate, routerUpdate),
  ...crudOperations(`${P}/notification_rules`, ['notification rule', 'notification rules'], notificationRuleCreate, notificationRuleUpdate),
  ...crudOperations(`${P}/maintenance_windows`, ['maintenance window', 'maintenance windows'], windowCreate, windowUpdate),
  ...crudOperations(`${P}/time_off`, ['time off', 'time off'], timeOffCreate, timeOffUpdate),
  ...crudOperations(`${P}/integrations`, ['integration', 'integrations'], integrationCreate, integrationUpdate),
  [`POST ${P}/integrations/{id}/rotate_key`]: { summary: 'Make a new sender key (a pagerduty routing_key); the old one stops working at once', status: 200, answer: 'object' },
  [`GET ${P}/integration_types`]: { summary: 'The integration types (one per monitor Hark reads) and the options each takes', status: 200, answer: 'array' },
  [`GET ${P}/integration_types/{id}`]: { summary: 'One integration type and the options it takes', status: 200, answer: 'object' },
  ...crudOperations(`${P}/comments`, ['comment', 'comments'], commentCreate, undefined, { remove: false }),
  ...crudOperations(`${P}/alerts`, ['alert', 'alerts'], alertCreate, alertUpdate),
  [`POST ${P}/alerts`]: {
    summary: 'Create an alert',
    body: alertCreate,
    status: 201,
    answer: 'object',
    existing: 'The create shares a dedup key with a non-resolved alert: that alert, its dedup_count counted; nothing new is stored or paged',
  },
  [`POST ${P}/alerts/{id}/acknowledge`]: { summary: 'Acknowledge an alert (stops every escalation)', status: 200, answer: 'object' },
  [`POST ${P}/alerts/{id}/resolve`]: { summary: 'Resolve an alert', status: 200, answer: 'object' },
  [`POST ${P}/alerts/{id}/reject`]: { summary: 'Reject the page you received for an alert', status: 200, answer: 'object' },
  [`GET ${P}/alerts/{id}/logs`]: { summary: 'The timeline of an alert, oldest first', query: listQuery, status: 200, answer: 'list' },
  [`GET ${P}/alerts/{id}/workflows`]: { summary: 'The escalations and per-person workflows of an alert', query: listQuery, status: 200, answer: 'list' },
  [`GET ${P}/alerts/{id}/notifications`]: { summary: 'The messages sent to people about an alert', query: listQuery, status: 200, answer: 'list' },
  ...commentRows('comments', 'comment'),
  ...commentRows('alerts', 'alert'),
  ...commentRows('broadcasts', 'broadcast'),
  ...crudOperations(`${P}/broadcasts`, ['broadcast', 'broadcasts'], broadcastCreate, broadcastUpdate),
  [`POST ${P}/broadcasts/{id}/responses`]: { summary: 'Answer a broadcast sent to you (your last answer counts)', body: broadcastResponseCreate, status: 200, answer: 'object' },
  [`GET ${P}/broadcasts/{id}/notifications`]: { summary: 'The messages a broadcast sent, oldest first', query: listQuery, status: 200, answer: 'list' },
  [`GET ${P}/outbox`]: { summary: 'List the messages queued for delivery', query: listQuery, status: 200, answer: 'list' },
  [`GET ${P}/outbox/{id}`]: { summary: 'Get a queued message', status: 200, answer: 'object' },
  ...crudOperations(`${P}/outgoing_webhooks`, ['outgoing webhook', 'outgoing webhooks'], outgoingWebhookCreate, outgoingWebhookUpdate),
  [`GET ${P}/outgoing_webhooks/{id}/deliveries`]: { summary: 'The delivery log of an outgoing webhook', query: listQuery, status: 200, answer: 'list' },
  [`POST ${P}/outgoing_webhooks/{id}/deliveries/{delivery_id}/replay`]: { summary: 'Send a delivered or failed event again, with the same webhook-id', status: 202, answer: 'object' },
  [`POST ${P}/outgoing_webhooks/{id}/test`]: { summary: 'Send a sample webhook.test event', status: 202, answer: 'object' },
  [`POST ${P}/outgoing_webhooks/{id}/rotate_secret`]: { summary: 'Make a new signing secret (shown once); the old one signs until the grace ends', body: rotateSecretInput, status: 200, answer: 'object' },
  [`GET ${P}/logs`]: { summary: 'List the logs of webhook requests, newest first (filter by owner_id, owner_type)', query: listQuery, status: 200, answer: 'list' },
  [`GET ${P}/logs/{id}`]: { summary: 'Get the log of one webhook request, with its body and processing notes', status: 200, answer: 'object' },
  [`GET ${P}/openapi.json`]: { summary: 'This API description (OpenAPI 3.1)', status: 200, answer: 'object' },
  'POST /integration/{id}': {
    summary: 'Send an alert event to an integration (queued; applied in order); a pagerduty integration takes an Events API v2 event and answers 202',
    body: z.record(z.string(), z.unknown()),
    status: 200,
    answer: 'none',
  },
  'GET /integration/{id}': { summary: 'Ping a heartbeat integration (other types answer 405; queued like a POST)', status: 200, answer: 'none' },
  'POST /v2/enqueue': {
    summary: "PagerDuty Events API v2: an alert event for the pagerduty integration the body's routing_key names (202 with the dedup_key, queued)",
    body: z.record(z.string(), z.unknown()),
    status: 202,
    answer: 'object',
  },
  'POST /v2/change/enqueue': {
    summary: "PagerDuty Events API v2: a change event, recorded in the integration's request log; pages no one",
    body: z.record(z.string(), z.unknown()),
    status: 202,
    answer: 'object',
  },
  ...actionOperations,
  ...OPSGENIE_OPERATIONS,
  // Twilio posts form fields and reads TwiML back (docs/notifications.md, "Inbound replies").
  'POST /sms/twilio': { summary: 'An SMS or WhatsApp reply from Twilio (X-Twilio-Signature)', body: z.record(z.string(), z.string()), status: 200, answer: 'twiml' },
  'POST /voice/twilio/gather': { summary: 'A key press on a page call, from Twilio (X-Twilio-Signature)', body: z.record(z.string(), z.string()), status: 200, answer: 'twiml' },
  'POST /sms/twilio/status': { summary: "A message's or call's delivery report, from Twilio (X-Twilio-Signature; ref in the signed URL)", body: z.record(z.string(), z.string()), status: 200, answer: 'twiml' },
};

/** The operation of a route-table row; a row without one is a programming error the tests catch. */
export function operationOf(route: Route): Operation {
  const operation = OPERATIONS[`${route.method} ${route.path}`];
  if (!operation) throw new Error(`No API description for ${route.method} ${route.path} (lib/http/openapi/operations.ts)`);
  return operation;
}

/** Keys of every described operation, so a test can find descriptions no row uses. */
export const DESCRIBED_ROUTE_KEYS: readonly string[] = Object.keys(OPERATIONS);
