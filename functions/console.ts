// The console: server-rendered pages for people (docs/console.md), one Lambda behind the same HTTP API. The session
// cookie authenticates, not an API key; lib/console/router.ts serves the route table's `console` rows.
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { nowMs } from '#lib/clock.ts';
import { handleConsole } from '#lib/console/router.ts';
import type { HttpResult } from '#lib/http/responses.ts';
import { lambdaLogging } from '#lib/logger.ts';
import { loadSecrets } from '#lib/channel-adapters/secrets.ts';

// On AWS, provider credentials (sign-in mail) come from the stack's secret, read once per cold start.
await loadSecrets();

export const handler = middy<APIGatewayProxyEventV2, HttpResult, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event) => handleConsole(event, nowMs()));
