// The OpenAPI 3.1 description of the API, built from the route table (paths, methods, roles) and the zod
// schemas the handlers validate with (lib/http/openapi/operations.ts), so the description cannot drift from the
// code. Served at GET /api/v4/openapi.json and written to docs/openapi.json by `npm run openapi`.
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { API_ROUTES, type Route } from '../routes.ts';
import { operationOf, type Operation } from './operations.ts';

export const API_TITLE = 'Hark API';
export const API_VERSION = '4';
/** The webhook's token header (lib/ingest/intake.ts TOKEN_HEADER; not imported, to keep the queue client out of this Lambda). */
export const WEBHOOK_TOKEN_HEADER = 'service-token';

const errorBody = z
  .object({
    errors: z.array(z.object({ message: z.string().meta({ description: 'One problem, starting with the field it is about' }) })),
    code: z.number().int().meta({ description: 'The HTTP status again' }),
  })
  .meta({ id: 'Error', description: 'Every failure: one message per problem' });

const anyObject = z.record(z.string(), z.unknown()).meta({ id: 'Object', description: 'The resource as rendered' });

const listEnvelope = z
  .object({
    data: z.array(anyObject),
    has_more: z.boolean().meta({ description: 'True when more objects exist after this page' }),
    total_count: z.number().int().meta({ description: 'How many objects match, over every page' }),
  })
  .meta({ id: 'List', description: 'A page of a list' });

const idPath = z.object({ id: z.string().meta({ description: 'The object’s id (or prefix id)' }) });

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const html = { content: { 'text/html': { schema: z.string() } } };
/** Error responses, registered once as components and referenced by every operation that can answer them. */
const failure = (id: string, description: string): ZodOpenApiResponseObject => ({ id, description, ...json(errorBody) });
const FAILURES = {
  badRequest: failure('BadRequest', 'Malformed JSON, or a body that is not a JSON object'),
  tooLarge: failure('PayloadTooLarge', 'The body is larger than the limit (docs/limits.md)'),
  unauthorized: failure('Unauthorized', 'Missing or invalid API key'),
  forbidden: failure('Forbidden', 'The caller’s role does not allow this (docs/roles.md)'),
  badToken: failure('BadIntegrationToken', 'Missing or wrong integration token'),
  badSignature: failure('BadProviderSignature', 'Missing or wrong provider request signature'),
  notFound: failure('NotFound', 'No such object in the caller’s account'),
  conflict: failure('Conflict', 'Changed by another request at the same time, or the change conflicts with other data'),
  unprocessable: failure('Unprocessable', 'Invalid parameters; each message names the field'),
  // Answered by API Gateway's stage throttling, with its own body `{"message":"Too Many Requests"}`.
  tooMany: { id: 'TooManyRequests', description: 'Throttled by API Gateway (docs/limits.md); back off and retry' } satisfies ZodOpenApiResponseObject,
  internal: failure('InternalError', 'Internal server error'),
};

function successOf(operation: Operation): ZodOpenApiResponsesObject {
  const status = String(operation.status) as '200' | '201' | '202' | '204';
  switch (operation.answer) {
    case 'none':
      return { [status]: { description: operation.status === 204 ? 'Done; no body' : 'Accepted; empty body' } };
    case 'list':
      return { [status]: { description: 'A page of the list', ...json(listEnvelope) } };
    case 'array':
      return { [status]: { description: 'A list', ...json(z.array(z.unknown())) } };
    case 'object':
      return {
        [status]: { description: operation.status === 201 ? 'Created' : operation.status === 202 ? 'Accepted; the object as queued' : 'The object', ...json(anyObject) },
        ...(operation.existing !== undefined ? { '200': { description: operation.existing, ...json(anyObject) } } : {}),
      };
    case 'html':
      return { [status]: { description: 'An HTML page for a person', ...html } };
    case 'calendar':
      return { [status]: { description: 'An iCalendar document (RFC 5545)', content: { 'text/calendar': { schema: z.string() } } } };
    case 'twiml':
      return { [status]: { description: 'TwiML: what Twilio sends back or says', content: { 'text/xml': { schema: z.string() } } } };
  }
}

/** What a success answer says when the JSON body held fields the row does not take (lib/api-shapes/unknown-fields.ts). */
const warningHeader = z.object({
  Warning: z
    .string()
    .optional()
    .meta({ description: 'Present when the body had top-level fields the operation does not take: `299 - "unknown field <name>"`, one per field, comma-joined (docs/api.md)' }),
});

/** The success answers of a row; those of a row taking a JSON body with an API key describe the Warning header. */
function successWithWarning(route: Route, operation: Operation): ZodOpenApiResponsesObject {
  const responses = successOf(operation);
  if (!operation.body || route.role === 'public') return responses;
  return Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...(response as ZodOpenApiResponseObject), headers: warningHeader }]));
}

/** A row's own answers (`also`): HTML pages when the row answers HTML, the error body otherwise. */
function alsoOf(operation: Operation): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, description] of Object.entries(operation.also ?? {})) {
    // A 304 has no body; other answers are HTML for a person's page, the error body otherwise.
    responses[status as '400'] = status === '304' ? { description } : { description, ...(operation.answer === 'html' ? html : json(errorBody)) };
  }
  return responses;
}

/** The failures a row can answer: from its role, its body and its path, plus the ones every request may get. */
function failuresOf(route: Route, operation: Operation): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  if (operation.body) {
    responses['400'] = FAILURES.badRequest;
    responses['413'] = FAILURES.tooLarge;
  }
  if (route.role !== 'public') responses['401'] = FAILURES.unauthorized;
  if (route.role === 'admin' || route.role === 'owner' || route.role === 'broadcaster') responses['403'] = FAILURES.forbidden;
  if (route.group === 'webhook' && route.path.includes('{id}')) responses['403'] = FAILURES.badToken;
  if (route.group === 'phone') responses['403'] = FAILURES.badSignature;
  if (route.path.includes('{id}')) responses['404'] = FAILURES.notFound;
  if (route.method !== 'GET') responses['409'] = FAILURES.conflict;
  if (operation.body || operation.query) responses['422'] = FAILURES.unprocessable;
  responses['429'] = FAILURES.tooMany;
  responses['500'] = FAILURES.internal;
  return responses;
}

/**
 * Public rows take no API key; the webhook row takes its integration's token, when the integration has one. PagerDuty's
 * Events API rows (`/v2/…`) are authenticated by the routing_key in their body, which OpenAPI cannot name as a scheme.
 */
function securityOf(route: Route): Record<string, string[]>[] {
  if (route.group === 'webhook' && route.path.includes('{id}')) return [{ integrationToken: [] }, {}];
  return route.role === 'public' ? [] : [{ apiKey: [] }];
}

function operationObject(route: Route): ZodOpenApiOperationObject {
  const operation = operationOf(route);
  const path = route.path.includes('{id}') ? idPath : undefined;
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: operation.summary,
    tags: [route.group],
    'x-hark-role': route.role,
    security: securityOf(route),
    ...(path || operation.query ? { requestParams: { ...(path ? { path } : {}), ...(operation.query ? { query: operation.query } : {}) } } : {}),
    // An empty body reads as `{}` (docs/architecture.md), so no body is formally required.
    ...(operation.body ? { requestBody: route.group === 'phone' ? { content: { 'application/x-www-form-urlencoded': { schema: operation.body } } } : json(operation.body) } : {}),
    responses: { ...successWithWarning(route, operation), ...failuresOf(route, operation), ...alsoOf(operation) },
  };
}

/** Builds the document from the route table: one path item per path, one operation per row. */
export function buildOpenApiDocument(): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of API_ROUTES) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    paths[route.path] = { ...paths[route.path], [method]: operationObject(route) };
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: API_TITLE,
        version: API_VERSION,
        description:
          'Alerting and on-call management. Management endpoints take `Authorization: Bearer <API key>`; ' +
          '`x-hark-role` on each operation names who may call it (docs/roles.md).',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An account API key' },
          integrationToken: { type: 'apiKey', in: 'header', name: WEBHOOK_TOKEN_HEADER, description: 'The integration’s token (docs/ingest.md)' },
        },
      },
      paths,
    },
    {},
  );
}

let cached: string | undefined;

/** The document as compact JSON text, built once per process (a Lambda container keeps it across requests). */
export function openApiJson(): string {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
}

/** The document as docs/openapi.json holds it: indented, one trailing newline. */
export const openApiFileText = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
