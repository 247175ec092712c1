// Opsgenie's Alert API v2 and heartbeat pings at Hark's door (docs/migrating.md, "From Opsgenie"): the GenieKey names
// an `opsgenie` integration, a write call is checked as Opsgenie checks it, queued like any webhook request and answered
// 202 at once; the worker applies it through the integration's reader. Reads and pings are ./reads.ts and ./heartbeats.ts.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { boundedRawBody } from '../../api-shapes/body.ts';
import { HttpError } from '../../api-shapes/http-errors.ts';
import { isDomainError } from '../../errors.ts';
import { findIntegrationBySenderKey, findIntegrationLookup, senderKeyMatches, type IntegrationLookupItem } from '../../integrations/lookup.ts';
import { MAX_PATH_ID_LENGTH } from '../../limits.ts';
import { callErrors, opsgenieCallOf } from '../../monitor-readers/opsgenie-calls.ts';
import { acceptFor, RefusedAtDoor, refusalOf } from '../intake.ts';
import { nowMs } from '../../clock.ts';
import { recordRefusedAtDoor } from '../refusals.ts';
import { headerValue, readPayload } from '../webhook.ts';
import { heartbeatAdmin } from './heartbeat-admin.ts';
import { pingHeartbeat } from './heartbeats.ts';
import { readCall } from './reads.ts';
import { answerOf, errorAnswer, notAuthenticated, OpsgenieError, unprocessable, type OpsgenieAnswer } from './shapes.ts';

export const OPSGENIE_TYPE = 'opsgenie';

/** The paths of Opsgenie's routes: `/v2/…` at the root or under `/integration/{id}` (lib/http/routes.ts, OPSGENIE_ROWS). */
export const isOpsgeniePath = (path: string): boolean => /^(?:\/integration\/[^/]+)?\/v2\/(?:alerts|heartbeats)(?:\/|$)/.test(path);

/** The key a request names: `Authorization: GenieKey <key>`, else the `apiKey` query parameter some clients use. */
export function genieKeyOf(event: Pick<APIGatewayProxyEventV2, 'headers' | 'queryStringParameters'>): string | undefined {
  const match = /^GenieKey\s+(\S+)\s*$/i.exec(headerValue(event.headers, 'authorization') ?? '');
  if (match) return match[1];
  const query = event.queryStringParameters?.apiKey;
  return query !== undefined && query !== '' ? query : undefined;
}

/**
 * The `opsgenie` integration the key names; under `/integration/{id}/v2/…` it must be that integration's key. Any
 * miss is Opsgenie's one 401, so a caller learns nothing of which keys or integrations exist.
 */
export async function opsgenieIntegration(event: APIGatewayProxyEventV2): Promise<IntegrationLookupItem> {
  const key = genieKeyOf(event);
  if (key === undefined) {
    const pathId = event.pathParameters?.id;
    const found = pathId !== undefined && pathId.length <= MAX_PATH_ID_LENGTH ? await findIntegrationLookup(pathId) : undefined;
    if (found?.integrationTypeId === OPSGENIE_TYPE) await refused(found, event);
    throw notAuthenticated();
  }
  const pathId = event.pathParameters?.id;
  let lookup: IntegrationLookupItem | undefined;
  if (pathId === undefined) lookup = await findIntegrationBySenderKey(key);
  else {
    const found = pathId.length <= MAX_PATH_ID_LENGTH ? await findIntegrationLookup(pathId) : undefined;
    lookup = found && senderKeyMatches(found, key) ? found : undefined;
    if (found && !lookup && found.integrationTypeId === OPSGENIE_TYPE) await refused(found, event);
  }
  if (!lookup || lookup.integrationTypeId !== OPSGENIE_TYPE) throw notAuthenticated();
  // Opsgenie answers a disabled integration's key with 401 too; only the key's holder learns why.
  if (!lookup.enabled) throw new OpsgenieError(401, 'Integration is disabled; enable it to accept requests');
  return lookup;
}

/**
 * A request to a known opsgenie integration's path with a missing or wrong key, kept as the integration's `refused`
 * log (at most one per minute, the rest counted: docs/ingest.md, "Refused requests"), so its admin sees a sender
 * configured with the wrong key. Recording never changes the answer.
 */
async function refused(integration: IntegrationLookupItem, event: APIGatewayProxyEventV2): Promise<void> {
  const detail = 'Missing or wrong GenieKey (Authorization: GenieKey <key> or ?apiKey=); answered 401';
  await recordRefusedAtDoor(refusalOf(event, new RefusedAtDoor(401, detail, integration, 'wrong_key')), nowMs());
}

/** The query parameters as a plain record (API Gateway joins repeats with commas; Opsgenie's calls take none twice). */
export const queryOf = (event: APIGatewayProxyEventV2): Record<string, string> =>
  Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));

/** The segments after `/v2/heartbeats` of an admin call (not a ping); undefined for any other path. */
export function heartbeatAdminSegments(path: string): string[] | undefined {
  const match = /\/v2\/heartbeats(\/.*)?$/.exec(path);
  if (!match) return undefined;
  const segments = (match[1] ?? '').split('/').slice(1).map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  return segments.at(-1) === 'ping' && segments.length === 2 ? undefined : segments;
}

/** A call's body: empty is `{}` (a close may carry none); anything but one JSON object is 400. */
function bodyOf(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const reading = readPayload(text);
  if (!reading.ok) throw new OpsgenieError(400, reading.message);
  return reading.payload;
}

/** What the intake's own failures are in Opsgenie's words: a 413, a 503 to retry; anything else is the handler's 500. */
function asOpsgenieError(error: unknown): OpsgenieError {
  if (error instanceof OpsgenieError) return error;
  if (error instanceof HttpError) return new OpsgenieError(error.status, error.messages.join('; '), undefined, error.headers);
  if (isDomainError(error, 'unavailable')) return new OpsgenieError(503, error.message, undefined, { 'Retry-After': '5' });
  throw error;
}

/**
 * Answers one request of an Opsgenie route: 401 for a missing or unknown key, 400 a body that is no JSON object, 413
 * one too large, 422 a call Opsgenie would refuse (`errors` by field), 503 when it could not be queued (retry), else
 * 202 `{"result":"Request will be processed","took":…,"requestId":"log_…"}` — the request id is the log the worker
 * keeps it as, which `GET /v2/alerts/requests/{requestId}` reads.
 */
export async function answerOpsgenie(event: APIGatewayProxyEventV2): Promise<OpsgenieAnswer> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started) / 1000;
  const gatewayId = event.requestContext?.requestId || randomUUID();
  try {
    const integration = await opsgenieIntegration(event);
    const method = event.requestContext.http.method;
    const query = queryOf(event);
    const admin = heartbeatAdminSegments(event.rawPath);
    if (admin) return await heartbeatAdmin(integration, method, admin, bodyOf(boundedRawBody(event)), took, gatewayId);
    if (method === 'GET' && !event.rawPath.endsWith('/ping')) return await readCall(integration, event.rawPath, query, took, gatewayId);
    const call = opsgenieCallOf(method, event.rawPath, query);
    if (!call) throw new OpsgenieError(404, 'No handler found for this method and path');
    const text = boundedRawBody(event);
    if (call.kind === 'ping') return await pingHeartbeat(integration, call.name, event, text, took);
    const body = bodyOf(text);
    const errors = callErrors(call, body, query);
    if (Object.keys(errors).length) throw unprocessable(errors);
    const queued = await acceptFor(integration, event, text, body);
    return answerOf(202, { result: 'Request will be processed' }, took(), queued.log_id);
  } catch (error) {
    return errorAnswer(asOpsgenieError(error), took(), gatewayId);
  }
}
