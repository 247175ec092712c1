import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';

/** The one configured logger: structured JSON, level from POWERTOOLS_LOG_LEVEL (default INFO). */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'hark' });

/** The API Gateway request id of an HTTP event (the id its access log line carries), if any. */
function apiRequestIdOf(event: unknown): string | undefined {
  const id = (event as { requestContext?: { requestId?: unknown } } | undefined)?.requestContext?.requestId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Middy middlewares of every Lambda entry point: each log line of an invocation carries the Lambda context
 * (function name, version, memory, cold start, `function_request_id`) and, for HTTP events, the API Gateway
 * request id as `correlation_id`, which joins it to the access log. Keys added during an invocation are dropped
 * at its end, so nothing leaks into the next request a warm container serves.
 */
export function lambdaLogging(): MiddlewareObj[] {
  return [
    injectLambdaContext(logger, { resetKeys: true }),
    {
      before: (request) => {
        const id = apiRequestIdOf(request.event);
        if (id) logger.setCorrelationId(id);
      },
    },
  ];
}
