// PagerDuty Events API v2 at the door (docs/monitors.md, "PagerDuty Events API v2"): POST /v2/enqueue and
// /v2/change/enqueue name their integration by the body's routing_key, POST /integration/<id> of a pagerduty
// integration by its path (the key must be its own). The event is checked as PagerDuty checks it, queued like every
// webhook request, and answered as PagerDuty answers, with the dedup_key, before the worker applies it.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { boundedRawBody } from '../api-shapes/body.ts';
import { HttpError } from '../api-shapes/http-errors.ts';
import { findIntegrationBySenderKey, senderKeyMatches, type IntegrationLookupItem } from '../integrations/lookup.ts';
import { checkPagerDutyChange, checkPagerDutyEvent } from '../monitor-readers/pagerduty-event.ts';
import { isJsonObject } from '../monitor-readers/wrapper-key.ts';
import { ingestMessageOf, queueAccepted } from './intake.ts';
import { generatedThirdpartyId } from './request-ids.ts';
import { readPayload } from './webhook.ts';

export const PAGERDUTY_TYPE = 'pagerduty';

/** What the sender is told when no pagerduty integration has its key: nothing else (docs/monitors.md). */
export const UNKNOWN_ROUTING_KEY = 'Invalid routing key';

/** Where the event came in: the root routes name the integration by the key; /integration/<id> has found it already. */
export type PagerDutyTarget = { kind: 'event' | 'change' } | { kind: 'event'; integration: IntegrationLookupItem };

export interface PagerDutyAccepted {
  status: 'success';
  message: 'Event processed' | 'Change event processed';
  dedup_key?: string;
}

/** PagerDuty's error body for a refused request: 4xx as an invalid event, 5xx as an error to retry. */
export function pagerDutyErrorBody(status: number, messages: readonly string[]): Record<string, unknown> {
  if (status < 500) return { status: 'invalid event', message: 'Event object is invalid', errors: [...messages] };
  return { status: 'error', message: messages.join('; '), errors: [...messages] };
}

const invalid = (errors: readonly string[]) => new HttpError(400, errors);

/** The integration the key names: a pagerduty integration whose key it is, enabled; else a 400 telling nothing more. */
async function integrationOfKey(target: PagerDutyTarget, routingKey: string): Promise<IntegrationLookupItem> {
  const integration = 'integration' in target ? target.integration : await findIntegrationBySenderKey(routingKey);
  if (!integration || integration.integrationTypeId !== PAGERDUTY_TYPE || !senderKeyMatches(integration, routingKey)) throw invalid([UNKNOWN_ROUTING_KEY]);
  if (!integration.enabled) throw invalid(['The integration of this routing_key is disabled']);
  return integration;
}

/**
 * Accepts one Events API v2 request: 413 over the body limit, 400 with PagerDuty's errors for an event it would refuse
 * or an unknown key, 503 when the queue did not take it; else queued, with the dedup_key the alert will have (the
 * sender's, or one made from the request id, so a redelivery of the request reads the same).
 */
export async function acceptPagerDuty(event: APIGatewayProxyEventV2, target: PagerDutyTarget): Promise<PagerDutyAccepted> {
  // A pagerduty integration's path is served for GET too (heartbeats): the Events API takes POST only.
  if ((event.requestContext?.http?.method ?? 'POST') !== 'POST') throw new HttpError(405, 'The Events API takes POST requests only', { Allow: 'POST' });
  const text = boundedRawBody(event);
  const reading = readPayload(text);
  if (!reading.ok) throw invalid([reading.message]);
  const check = target.kind === 'change' ? checkPagerDutyChange(reading.payload) : checkPagerDutyEvent(reading.payload);
  if (!check.ok) throw invalid(check.errors);
  const integration = await integrationOfKey(target, check.routingKey);
  // The key is the credential and every member reads the request's log: it is not kept (docs/ingest.md, "Logs").
  const body = isJsonObject(reading.payload) ? { ...reading.payload, routing_key: '[redacted]' } : reading.payload;
  const message = ingestMessageOf(event, integration, body);
  if (target.kind === 'change') {
    await queueAccepted(message);
    return { status: 'success', message: 'Change event processed' };
  }
  // The reader keys the alert by the same value (generateId(0) is generatedThirdpartyId of the request, event 0).
  const sent = (check as { dedupKey?: string }).dedupKey;
  const dedupKey = sent ?? generatedThirdpartyId(message.requestId, 0);
  // One message group per alert, as the generic webhook's Id: a dedup_key's events stay in order, others run beside.
  message.alertKey = dedupKey;
  await queueAccepted(message);
  return { status: 'success', message: 'Event processed', dedup_key: dedupKey };
}
