// Inbound webhook Lambda: POST /integration/{id}, authenticated by the integration's token (no API key).
// One GetItem and one SendMessage; the worker applies the request later (docs/ingest.md).
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { webhookRefused } from '#lib/activity/events.ts';
import { impossiblePathId } from '#lib/http/path-ids.ts';
import { errorResponse, jsonResponse, type HttpResult } from '#lib/http/responses.ts';
import { acceptWebhook } from '#lib/ingest/intake.ts';
import { answerOpsgenie, isOpsgeniePath } from '#lib/ingest/opsgenie/intake.ts';
import { MAX_PATH_ID_LENGTH } from '#lib/limits.ts';
import { lambdaLogging } from '#lib/logger.ts';

/** An Opsgenie answer as the Lambda's result; a refusal (4xx, 503) prints a `webhook.refused` line as the webhook's do. */
function opsgenieResult(answer: Awaited<ReturnType<typeof answerOpsgenie>>, event: APIGatewayProxyEventV2): HttpResult {
  if (answer.status >= 400) {
    webhookRefused({ integration: (event.pathParameters?.id ?? 'opsgenie key').slice(0, MAX_PATH_ID_LENGTH), status: answer.status, reason: String(answer.body.message) });
  }
  return jsonResponse({ status: answer.status, body: answer.body, ...(answer.headers ? { headers: answer.headers } : {}) });
}

/**
 * 200 with `{"status":"queued","log_id":"log_…"}` once the request is queued (the log tells what it became,
 * docs/integrations.md, "The webhook: statuses"); failures get the JSON error body and an event line.
 */
export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event) => {
    // Opsgenie's calls answer in Opsgenie's shapes (docs/migrating.md, "From Opsgenie").
    if (isOpsgeniePath(event.rawPath)) return opsgenieResult(await answerOpsgenie(event), event);
    try {
      const impossible = impossiblePathId('/integration/{id}', event.pathParameters ?? {});
      if (impossible) throw impossible;
      return jsonResponse({ status: 200, body: await acceptWebhook(event) });
    } catch (error) {
      const refused = errorResponse(error);
      const reason = (JSON.parse(refused.body) as { errors: { message: string }[] }).errors.map((e) => e.message).join('; ');
      webhookRefused({ integration: (event.pathParameters?.id ?? '').slice(0, MAX_PATH_ID_LENGTH), status: refused.statusCode, reason });
      return refused;
    }
  });
