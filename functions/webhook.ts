// Inbound webhook Lambda: POST /integration/{id}, authenticated by the integration's token (no API key).
// One GetItem and one SendMessage; the worker applies the request later (docs/ingest.md).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { impossiblePathId } from '#lib/http/path-ids.ts';
import { errorResponse, type HttpResult } from '#lib/http/responses.ts';
import { acceptWebhook } from '#lib/integrations/intake.ts';

/** 200 with an empty body once the request is queued, as the reference answers; failures get the JSON error body. */
export const handler = async (event: APIGatewayProxyEventV2): Promise<HttpResult> => {
  try {
    const impossible = impossiblePathId('/integration/{id}', event.pathParameters ?? {});
    if (impossible) throw impossible;
    await acceptWebhook(event);
    return { statusCode: 200, headers: {}, body: '' };
  } catch (error) {
    return errorResponse(error);
  }
};
