// Inbound webhook Lambda: POST /integration/{id}, authenticated by the integration's token (no API key).
// One GetItem and one SendMessage; the worker applies the request later (docs/ingest.md).
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { impossiblePathId } from '#lib/http/path-ids.ts';
import { errorResponse, type HttpResult } from '#lib/http/responses.ts';
import { acceptWebhook } from '#lib/integrations/intake.ts';
import { lambdaLogging } from '#lib/logger.ts';

/** 200 with an empty body once the request is queued, as the reference answers; failures get the JSON error body. */
export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event) => {
    try {
      const impossible = impossiblePathId('/integration/{id}', event.pathParameters ?? {});
      if (impossible) throw impossible;
      await acceptWebhook(event);
      return { statusCode: 200, headers: {}, body: '' };
    } catch (error) {
      return errorResponse(error);
    }
  });
