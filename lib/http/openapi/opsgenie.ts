// The API description of Opsgenie's calls (docs/migrating.md, "From Opsgenie"): each row of OPSGENIE_ROWS, at the
// root and under `/integration/{id}`. They authenticate with an opsgenie integration's key (`Authorization: GenieKey
// <key>` or `?apiKey=`) and answer in Opsgenie's shapes, not Hark's.
import { z } from 'zod';

/** An Operation of ./operations.ts (which spreads these into its table), written out here so the two do not import each other. */
interface Operation {
  readonly summary: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  readonly status: 200 | 201 | 202;
  readonly answer: 'object';
  readonly also?: Readonly<Record<number, string>>;
}

const body = z.record(z.string(), z.unknown());
const identifier = z.object({ identifierType: z.enum(['id', 'alias', 'tiny']).optional().meta({ description: 'How {identifier} names the alert (default id)' }) });
const ALSO = { 401: 'Could not authenticate: no key, or not an opsgenie integration’s', 422: 'A field Opsgenie would refuse (`errors` by field); nothing queued' } as const;
const write = (summary: string, withBody = true, query: z.ZodObject = identifier): Operation => ({
  summary: `Opsgenie: ${summary} (GenieKey; 202 {result, took, requestId}, applied in order)`,
  ...(withBody ? { body } : {}),
  query,
  status: 202,
  answer: 'object',
  also: ALSO,
});

const CALLS: Readonly<Record<string, Operation>> = {
  'POST /alerts': write('create an alert; a create for an open alias is a duplicate', true, z.object({})),
  'GET /alerts': {
    summary: 'Opsgenie: list the account’s alerts (query status:open|closed, alias:<alias>; offset, limit ≤ 100, order)',
    query: z.object({ query: z.string().optional(), offset: z.string().optional(), limit: z.string().optional(), order: z.enum(['asc', 'desc']).optional() }),
    status: 200,
    answer: 'object',
    also: ALSO,
  },
  'GET /alerts/requests/{request_id}': { summary: 'Opsgenie: what a request became (404 until the worker has applied it)', status: 200, answer: 'object', also: { 401: ALSO[401], 404: 'Request not found. It might not be processed, yet.' } },
  'GET /alerts/{identifier}': { summary: 'Opsgenie: one alert of the account, by id, alias or tiny id', query: identifier, status: 200, answer: 'object', also: { 401: ALSO[401], 404: 'Alert does not exist' } },
  'POST /alerts/{identifier}/close': write('close (resolve) an alert of this integration'),
  'POST /alerts/{identifier}/acknowledge': write('acknowledge an alert of this integration'),
  'POST /alerts/{identifier}/unacknowledge': write('accepted and recorded as not supported (an acknowledged alert leaves it only by a resolve)'),
  'POST /alerts/{identifier}/notes': write('add a note to the alert’s timeline'),
  'PUT /alerts/{identifier}/message': write('change the alert’s title'),
  'PUT /alerts/{identifier}/description': write('change the alert’s description'),
  'POST /alerts/{identifier}/tags': write('add tags'),
  'DELETE /alerts/{identifier}/tags': write('remove the tags named in ?tags=a,b', false, identifier.extend({ tags: z.string() })),
  ...Object.fromEntries(
    (['GET', 'POST', 'PUT', 'PATCH'] as const).map((method) => [
      `${method} /heartbeats/{name}/ping`,
      { summary: 'Opsgenie: ping the account’s heartbeat integration of that name (PONG even for an unknown name, recorded)', status: 202, answer: 'object', also: { 401: ALSO[401], 409: 'Two heartbeat integrations have that name' } } satisfies Operation,
    ]),
  ),
  ...heartbeatAdminOperations(),
};

/** The heartbeat admin calls, answered at once (they change configuration), for an integration with allow_heartbeat_admin. */
function heartbeatAdminOperations(): Record<string, Operation> {
  const admin = (summary: string, status: 200 | 201, withBody: boolean): Operation => ({
    summary: `Opsgenie: ${summary} (allow_heartbeat_admin)`,
    ...(withBody ? { body } : {}),
    status,
    answer: 'object',
    also: { 401: ALSO[401], 403: 'The integration’s allow_heartbeat_admin is not true', 404: 'No heartbeat integration of that name', 409: 'The name is taken, or two heartbeat integrations share it', 422: ALSO[422] },
  });
  return {
    'POST /heartbeats': admin('create a heartbeat integration (name, interval, intervalUnit, enabled; it pages this integration’s destinations or ownerTeam)', 201, true),
    'GET /heartbeats': admin('list the account’s heartbeat integrations', 200, false),
    'GET /heartbeats/{name}': admin('a heartbeat integration by name, with expired and lastPingTime', 200, false),
    'PATCH /heartbeats/{name}': admin('change a heartbeat integration’s interval, enabled, description or owner team', 200, true),
    'DELETE /heartbeats/{name}': admin('delete a heartbeat integration', 200, false),
    'POST /heartbeats/{name}/enable': admin('enable a heartbeat integration', 200, false),
    'POST /heartbeats/{name}/disable': admin('disable (and disarm) a heartbeat integration', 200, false),
  };
}

/** Every Opsgenie row's operation, keyed as OPERATIONS is (`METHOD path`). */
export const OPSGENIE_OPERATIONS: Readonly<Record<string, Operation>> = Object.fromEntries(
  ['/v2', '/integration/{id}/v2'].flatMap((base) =>
    Object.entries(CALLS).map(([key, operation]) => {
      const [method, path] = key.split(' ');
      return [`${method} ${base}${path}`, operation];
    }),
  ),
);
