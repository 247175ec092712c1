// Inbound webhook Lambda: POST /integration/{id}, authenticated by the integration's token (no API key), and PagerDuty's
// Events API v2 (POST /v2/enqueue, /v2/change/enqueue), authenticated by the body's routing_key. One GetItem and one
// SendMessage; the worker applies the request later (docs/ingest.md, docs/monitors.md "PagerDuty Events API v2").
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { webhookRefused } from '#lib/activity/events.ts';
import { impossiblePathId } from '#lib/http/path-ids.ts';
import { errorResponse, jsonResponse, type HttpResult } from '#lib/http/responses.ts';
import { acceptWebhook, integrationOfPath } from '#lib/ingest/intake.ts';
import { answerOpsgenie, isOpsgeniePath } from '#lib/ingest/opsgenie/intake.ts';
import { acceptPagerDuty, PAGERDUTY_TYPE, pagerDutyErrorBody, type PagerDutyTarget } from '#lib/ingest/pagerduty-intake.ts';
import { MAX_PATH_ID_LENGTH } from '#lib/limits.ts';
import { lambdaLogging } from '#lib/logger.ts';

/** The Events API's routes at the root: the body's routing_key names the integration. */
const PAGERDUTY_ROUTES: Readonly<Record<string, PagerDutyTarget>> = {
  'POST /v2/enqueue': { kind: 'event' },
  'POST /v2/change/enqueue': { kind: 'change' },
};

const messagesOf = (refused: HttpResult): string[] => (JSON.parse(refused.body) as { errors: { message: string }[] }).errors.map((e) => e.message);

/** A refusal in PagerDuty's shape (docs/monitors.md): the status and headers of the generic one, the dialect's body. */
function pagerDutyRefusal(refused: HttpResult): HttpResult {
  return jsonResponse({ status: refused.statusCode, body: pagerDutyErrorBody(refused.statusCode, messagesOf(refused)), headers: refused.headers as Record<string, string> });
}

/** An Opsgenie answer as the Lambda's result; a refusal (4xx, 503) prints a `webhook.refused` line as the webhook's do. */
function opsgenieResult(answer: Awaited<ReturnType<typeof answerOpsgenie>>, event: APIGatewayProxyEventV2): HttpResult {
  if (answer.status >= 400) {
    webhookRefused({ integration: (event.pathParameters?.id ?? 'opsgenie key').slice(0, MAX_PATH_ID_LENGTH), status: answer.status, reason: String(answer.body.message) });
  }
  return jsonResponse({ status: answer.status, body: answer.body, ...(answer.headers ? { headers: answer.headers } : {}) });
}

/**
 * 200 with `{"status":"queued","log_id":"log_…"}` once the request is queued (the log tells what it became,
 * docs/integrations.md, "The webhook: statuses"); 202 in PagerDuty's shape for its Events API, at the root or at a
 * pagerduty integration's path; failures get the JSON error body (the dialect's for PagerDuty) and an event line.
 */
export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event) => {
    // Opsgenie's calls answer in Opsgenie's shapes (docs/migrating.md, "From Opsgenie").
    if (isOpsgeniePath(event.rawPath)) return opsgenieResult(await answerOpsgenie(event), event);
    let dialect = PAGERDUTY_ROUTES[event.routeKey];
    try {
      if (dialect) return jsonResponse({ status: 202, body: await acceptPagerDuty(event, dialect) });
      const impossible = impossiblePathId('/integration/{id}', event.pathParameters ?? {});
      if (impossible) throw impossible;
      const integration = await integrationOfPath(event.pathParameters?.id ?? '');
      if (integration.integrationTypeId === PAGERDUTY_TYPE) {
        dialect = { kind: 'event', integration };
        return jsonResponse({ status: 202, body: await acceptPagerDuty(event, dialect) });
      }
      return jsonResponse({ status: 200, body: await acceptWebhook(event, integration) });
    } catch (error) {
      const refused = errorResponse(error);
      webhookRefused({ integration: (event.pathParameters?.id ?? event.rawPath ?? '').slice(0, MAX_PATH_ID_LENGTH), status: refused.statusCode, reason: messagesOf(refused).join('; ') });
      return dialect ? pagerDutyRefusal(refused) : refused;
    }
  });
