// The inbound webhook's work: find the integration (one GetItem), check it may send, and hand the request to
// the ingest queue (one SendMessage). It answers success only once SQS has the message, so an accepted
// request is never lost; the worker applies it later (docs/ingest.md).

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { nowIso, nowMs } from '../clock.ts';
import { boundedRawBody } from '../api-shapes/body.ts';
import { badRequest, HttpError, notFound } from '../api-shapes/http-errors.ts';
import { unavailable } from '../errors.ts';
import { secretMatches } from '../ids.ts';
import { readerOf } from '../monitor-readers/index.ts';
import type { IntegrationReader, ReaderRequest } from '../monitor-readers/types.ts';
import { isJsonObject } from '../monitor-readers/wrapper-key.ts';
import { logIdsOf } from './request-ids.ts';
import { redactCredentials } from './redact.ts';
import { recordRefusedAtDoor, type Refusal } from './refusals.ts';
import { headerValue, loggableHeaders, readPayload, webhookFields } from './webhook.ts';
import { alertKeyOf } from '../monitor-readers/alert-key.ts';
import { logger } from '../logger.ts';
import { enqueueIngest, ingestMessageText, type IngestMessage } from '../queue/ingest.ts';
import { findIntegrationLookup, type IntegrationLookupItem } from '../integrations/lookup.ts';
import { ACCEPTED_STEPS } from './intake-steps.ts';
import { MAX_MESSAGE_BYTES, MAX_PATH_ID_LENGTH } from '../limits.ts';

/** The header that carries an integration's token (docs/integrations.md, "Tokens"). */
export const TOKEN_HEADER = 'service-token';

// MAX_MESSAGE_BYTES is the ingest queue's largest message (infra/ingest.ts; the local emulator's default). A body
// within HARK_MAX_BODY_BYTES always fits; the check keeps a message SQS would refuse from becoming a 503 the
// sender retries forever.

/**
 * A request refused at the door of a known integration (a wrong token, a bad signature, a topic not allowed): answered
 * as any HttpError, and recorded on the integration as a refused log under `refusal` (docs/ingest.md, "Refused requests").
 */
export class RefusedAtDoor extends HttpError {
  readonly integration: IntegrationLookupItem;
  readonly refusal: string;

  constructor(status: number, message: string, integration: IntegrationLookupItem, refusal: string) {
    super(status, message);
    this.integration = integration;
    this.refusal = refusal;
  }
}

/** The integration a webhook path names (one GetItem, cached per process); 404 when none. */
export async function integrationOfPath(pathId: string): Promise<IntegrationLookupItem> {
  const integration = pathId.length <= MAX_PATH_ID_LENGTH ? await findIntegrationLookup(pathId) : undefined;
  if (!integration) throw notFound('Integration');
  return integration;
}

/** 404 → 405 → 403, as the reference orders them (docs/integrations.md, "The webhook: statuses"). */
export async function authorizeWebhook(pathId: string, token: string | undefined, found?: IntegrationLookupItem): Promise<IntegrationLookupItem> {
  const integration = found ?? (await integrationOfPath(pathId));
  if (!integration.enabled) throw new HttpError(405, 'Integration is disabled; enable it to accept requests');
  if (integration.tokenHash !== null && (token === undefined || !secretMatches(token, integration.tokenHash))) {
    throw new RefusedAtDoor(403, `Missing or invalid ${TOKEN_HEADER} header`, integration, 'invalid_token');
  }
  return integration;
}

/**
 * The type's own check of a request before it is queued (a sender's signature, docs/monitors.md): a refusal answers
 * its status with the reason, queues nothing, and is recorded on the integration; the webhook's `webhook.refused` line logs it.
 */
export async function verifyAtIntake(integration: IntegrationLookupItem, event: APIGatewayProxyEventV2, rawBody: string, body: unknown): Promise<void> {
  const reader = readerOf(integration.integrationTypeId ?? 'webhook');
  if (!reader?.verify) return;
  const verdict = await reader.verify(readerRequestOf(event, rawBody, body), integration.verifyOptions ?? {});
  if (!verdict.ok) throw new RefusedAtDoor(verdict.status, verdict.reason, integration, verdict.refusal);
}

/** The request as a reader sees it at intake: header names lower-cased. */
function readerRequestOf(event: APIGatewayProxyEventV2, rawBody: string, body: unknown): ReaderRequest {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name.toLowerCase(), value);
  const query = new Map<string, string>();
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) query.set(name, value);
  return { method: event.requestContext?.http?.method ?? 'POST', headers: Object.fromEntries(headers), query: Object.fromEntries(query), body, rawBody };
}

/**
 * The body a type reads: one JSON object for most types (else 400); a type that takes any body (a heartbeat's ping)
 * gets the text as sent when it is no JSON object. A method other than POST only for a type that takes it (405).
 */
function bodyFor(reader: IntegrationReader | undefined, event: APIGatewayProxyEventV2, text: string): unknown {
  const method = event.requestContext?.http?.method ?? 'POST';
  if (method !== 'POST' && !reader?.methods?.includes(method as 'GET')) throw new HttpError(405, 'This integration takes POST requests only', { Allow: 'POST' });
  const reading = readPayload(text);
  if (reading.ok) return reading.payload;
  if (reader?.anyBody) return text;
  throw badRequest(reading.message);
}

/** Builds the ingest message of an accepted request. Pure apart from the clock. */
export function ingestMessageOf(event: APIGatewayProxyEventV2, integration: IntegrationLookupItem, payload: unknown, requestKey?: string): IngestMessage {
  // The wrapper key is not run here: only a plain path is followed to the Id (docs/ingest.md, section 2). A monitor
  // type's key is its reader's (a group key, an issue id), not a top-level Id: its requests share the integration's
  // one group, so they apply in the order they were accepted.
  const generic = (integration.integrationTypeId ?? 'webhook') === 'webhook';
  const fields = generic && isJsonObject(payload) ? webhookFields(payload, integration.wrapperKey) : undefined;
  const alertKey = fields && alertKeyOf(fields);
  const query = new Map<string, string>();
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) query.set(name, value);
  const sourceIp = event.requestContext?.http?.sourceIp;
  return {
    kind: 'webhook',
    // A sender's own message id (SNS's MessageId) makes its retries one request; the integration's id keeps two
    // integrations subscribed to one topic apart.
    requestId: requestKey !== undefined ? `${integration.integrationId}:${requestKey}` : event.requestContext?.requestId || randomUUID(),
    accountId: integration.accountId,
    integrationId: integration.integrationId,
    receivedAt: nowIso(),
    method: event.requestContext?.http?.method ?? 'POST',
    path: event.rawPath || `/integration/${event.pathParameters?.id ?? integration.integrationId}`,
    ...(alertKey !== undefined ? { alertKey } : {}),
    headers: loggableHeaders(event.headers),
    query: redactCredentials(Object.fromEntries(query)),
    ...(sourceIp ? { sourceIp } : {}),
    body: payload,
  };
}

/** What a queued request answers: it is queued, and the id of the log the worker keeps it as (`GET /logs/:id`). */
export interface Queued {
  status: 'queued';
  log_id: string;
}

/** The refused log's request: how it came, its headers redacted as any log's, no body (nothing of it was accepted). */
export function refusalOf(event: APIGatewayProxyEventV2, refused: RefusedAtDoor): Refusal {
  const sourceIp = event.requestContext?.http?.sourceIp;
  return {
    accountId: refused.integration.accountId,
    integrationId: refused.integration.integrationId,
    reason: refused.refusal,
    detail: refused.message,
    method: event.requestContext?.http?.method ?? 'POST',
    path: event.rawPath || `/integration/${event.pathParameters?.id ?? refused.integration.integrationId}`,
    headers: loggableHeaders(event.headers),
    ...(sourceIp ? { sourceIp } : {}),
  };
}

/**
 * Accepts one webhook request: 404 unknown integration, 405 disabled, 403 token missing or wrong, 400 body
 * not a JSON object, 413 too large, 503 when the queue could not take it (the sender should retry). A refusal at the
 * door of a known integration is also recorded on it, bounded (./refusals.ts); the answer stays the same. `found`: the
 * integration of the path when the caller has read it already.
 */
export async function acceptWebhook(event: APIGatewayProxyEventV2, found?: IntegrationLookupItem): Promise<Queued> {
  try {
    return await queueWebhook(event, found);
  } catch (error) {
    if (error instanceof RefusedAtDoor) await recordRefusedAtDoor(refusalOf(event, error), nowMs());
    throw error;
  }
}

async function queueWebhook(event: APIGatewayProxyEventV2, found: IntegrationLookupItem | undefined): Promise<Queued> {
  const integration = await authorizeWebhook(event.pathParameters?.id ?? '', headerValue(event.headers, TOKEN_HEADER), found);
  const reader = readerOf(integration.integrationTypeId ?? 'webhook');
  const text = boundedRawBody(event);
  const payload = bodyFor(reader, event, text);
  await verifyAtIntake(integration, event, text, payload);
  return acceptFor(integration, event, text, payload);
}

/**
 * Queues a request an integration accepted (its sender checked): the type's intake step first (a heartbeat's ping arms
 * its timer), then the message; 413 when it cannot fit the queue, 503 when the queue did not take it. `intakeNotes`
 * lead the request's log (an Opsgenie call says what the intake made of it).
 */
export async function acceptFor(integration: IntegrationLookupItem, event: APIGatewayProxyEventV2, text: string, payload: unknown, intakeNotes: readonly string[] = []): Promise<Queued> {
  const reader = readerOf(integration.integrationTypeId ?? 'webhook');
  const request = readerRequestOf(event, text, payload);
  const message = ingestMessageOf(event, integration, payload, reader?.requestKey?.(request));
  const acceptedStep = reader && ACCEPTED_STEPS[reader.id];
  const notes = [...intakeNotes];
  if (acceptedStep) {
    const context = { accountId: integration.accountId, integrationId: integration.integrationId, requestId: message.requestId, receivedAt: message.receivedAt, options: integration.verifyOptions ?? {} };
    notes.push(...(await acceptedStep(request, context)).notes);
  }
  if (notes.length) message.intakeNotes = notes;
  await queueAccepted(message);
  return { status: 'queued', log_id: logIdsOf(message).prefixId };
}

/** Queues an accepted request: 413 when the message would pass the queue's largest, 503 when the queue did not take it. */
export async function queueAccepted(message: IngestMessage): Promise<void> {
  const body = ingestMessageText(message);
  const size = Buffer.byteLength(body, 'utf8');
  if (size > MAX_MESSAGE_BYTES) {
    throw new HttpError(413, `Request is too large to queue: ${size} bytes with its headers and query; the limit is ${MAX_MESSAGE_BYTES}`);
  }
  try {
    await enqueueIngest(message, body);
  } catch (error) {
    logger.error('Ingest queue refused a webhook request', { error: error as Error, integrationId: message.integrationId, requestId: message.requestId });
    throw unavailable('The request could not be queued; retry later');
  }
  // Debug, not info: an accepted request is already recorded by its source log; a line per request is I/O on the hot path.
  logger.debug('Webhook request queued', { integrationId: message.integrationId, requestId: message.requestId });
}
