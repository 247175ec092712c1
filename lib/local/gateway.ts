// A node:http server that behaves like API Gateway HTTP API (payload format 2.0) in front of the same
// handler modules Lambda runs: each request becomes a v2 event for the group the route table names.

import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { findRoute, type Group } from '../http/routes.ts';
import { errorResponse, type HttpResult } from '../http/responses.ts';
import { HttpError } from '../http/errors.ts';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult | unknown>;

/** API Gateway's own payload limit. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;

const handlerCache = new Map<string, Promise<Handler>>();

/** Loads `functions/<group>.ts` the way Lambda loads its bundle: once, then reused (warm starts). */
export function loadHandler(module: Group | 'fallback' | 'worker' | 'timers' | 'sweeper'): Promise<Handler> {
  let loaded = handlerCache.get(module);
  if (!loaded) {
    loaded = import(`../../functions/${module}.ts`).then((m: { handler: Handler }) => m.handler);
    handlerCache.set(module, loaded);
  }
  return loaded;
}

export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY) throw new HttpError(413, `Request body is larger than ${GATEWAY_MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function toEvent(req: IncomingMessage, body: Buffer, route: { routeKey: string; params: Record<string, string> } | undefined): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const method = (req.method ?? 'GET').toUpperCase();
  const isText = body.length === 0 || /json|text|x-www-form-urlencoded/i.test(headers['content-type'] ?? 'application/json');
  return {
    version: '2.0',
    routeKey: route?.routeKey ?? '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(route && Object.keys(route.params).length ? { pathParameters: route.params } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: route?.routeKey ?? '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function send(res: ServerResponse, result: HttpResult): void {
  res.writeHead(result.statusCode, result.headers);
  res.end(result.body);
}

async function dispatch(req: IncomingMessage): Promise<HttpResult> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = (req.method ?? 'GET').toUpperCase();
  const body = await readBody(req);
  const found = findRoute(method, url.pathname);
  const route = found && 'route' in found ? found : undefined;
  const event = toEvent(req, body, route ? { routeKey: `${route.route.method} ${route.route.path}`, params: route.params } : undefined);
  // Unmatched requests go to the $default route's function, as they do behind API Gateway.
  const module = route ? route.route.group : 'fallback';
  const handler = await loadHandler(module);
  const result = (await handler(event, lambdaContext(module))) as HttpResult;
  return { statusCode: result.statusCode, headers: result.headers ?? {}, body: result.body ?? '' };
}

export function startGateway(port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    dispatch(req).then(
      (result) => send(res, result),
      (error: unknown) => send(res, errorResponse(error)),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
