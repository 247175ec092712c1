// A node:http server that behaves like API Gateway HTTP API (payload format 2.0) in front of the same
// handler modules Lambda runs: each request becomes a v2 event for the function its route names — the group of the route
// API Gateway would select from source (sourceRouter, lib/http/gateway-routes.ts), or the synthesized template's route
// in bundle mode (lib/local/bundles.ts).

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { selectGatewayRoute } from '../http/gateway-routes.ts';
import { errorResponse, type HttpResult } from '../http/responses.ts';
import { badRequest, errorBody, HttpError } from '../api-shapes/http-errors.ts';
import { inThreadInvoker, sourceSpec, type Invoker } from './invoker.ts';

/** API Gateway's own payload limit. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;

/** The route a request matched (its route key and path parameters) and the function that serves it. */
export interface RouteTarget {
  routeKey: string;
  params: Record<string, string>;
  invoke(event: APIGatewayProxyEventV2): Promise<unknown>;
}

/** Picks a request's route and function, as API Gateway does with the stack's routes. */
export type ApiRouter = (method: string, path: string) => RouteTarget | Promise<RouteTarget>;

/** The API's functions, each from its source, on this thread, made once (a warm Lambda per group). */
export function sourceInvokers(make: (module: string) => Invoker = (module) => inThreadInvoker(sourceSpec(module, module === 'fallback' ? 3_000 : 10_000))): (module: string) => Invoker {
  const invokers = new Map<string, Invoker>();
  return (module) => {
    let invoker = invokers.get(module);
    if (!invoker) {
      invoker = make(module);
      invokers.set(module, invoker);
    }
    return invoker;
  };
}

/**
 * Source mode: the route table (lib/http/routes.ts) names each route's group, `functions/<group>.ts`; unmatched requests
 * go to the `$default` route's function, functions/fallback.ts, as they do behind API Gateway.
 */
export function sourceRouter(invokerOf = sourceInvokers()): ApiRouter {
  return (method, path) => {
    // The route API Gateway would select: its key and parameters reach the function as they do on AWS.
    const selected = selectGatewayRoute(method, path);
    const invoker = invokerOf(selected ? selected.route.group : 'fallback');
    return {
      routeKey: selected ? selected.route.key : '$default',
      params: selected?.params ?? {},
      invoke: (event) => invoker.invoke(event),
    };
  };
}

/** The gateway's own refusal of a body over API Gateway's limit; the connection is closed after the answer. */
const bodyTooLarge = () => new HttpError(413, `Request body is larger than ${GATEWAY_MAX_BODY} bytes`, { connection: 'close' });

/**
 * Reads the body up to the limit. Over it, the rest is read and discarded (not the socket destroyed) and the 413
 * answered once the client has finished sending, with `Connection: close`: the client reads the answer instead
 * of a reset, and its next request goes on a fresh connection.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => (size > GATEWAY_MAX_BODY ? reject(bodyTooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

/** The request target split as API Gateway sees it: the raw path and the raw query string. */
export function requestTarget(url: string | undefined): { path: string; rawQueryString: string } {
  const target = url ?? '/';
  if (!target.startsWith('/')) throw badRequest('The request target must be a path starting with /');
  const question = target.indexOf('?');
  return question < 0 ? { path: target, rawQueryString: '' } : { path: target.slice(0, question), rawQueryString: target.slice(question + 1) };
}

/** `queryStringParameters` as API Gateway builds it: decoded values, a repeated name's values joined with commas. */
export function queryParameters(rawQueryString: string): Record<string, string> {
  if (rawQueryString === '') return {};
  const joined = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQueryString)) joined.set(name, joined.has(name) ? `${joined.get(name)},${value}` : value);
  // fromEntries defines own properties, so a parameter named __proto__ is a parameter, not a prototype.
  return Object.fromEntries(joined);
}

/**
 * The payload 2.0 event API Gateway sends: repeated headers joined with commas, the Cookie header moved to `cookies`
 * (one entry per cookie, the header left out), a body that is not text in base64.
 */
export function toEvent(req: IncomingMessage, body: Buffer, route: { routeKey: string; params: Record<string, string> } | undefined): APIGatewayProxyEventV2 {
  const { path, rawQueryString } = requestTarget(req.url);
  // Node lower-cases header names already; repeated headers (arrays) are joined, as API Gateway does. fromEntries
  // defines own properties, so a header named __proto__ stays a header.
  const entries: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) entries.push([name, Array.isArray(value) ? value.join(',') : value]);
  const headers: Record<string, string> = Object.fromEntries(entries.filter(([name]) => name !== 'cookie'));
  const cookieHeader = entries.find(([name]) => name === 'cookie')?.[1];
  const cookies = cookieHeader ? cookieHeader.split(/;\s*/).filter((c) => c !== '') : [];
  const query = queryParameters(rawQueryString);
  const method = (req.method ?? 'GET').toUpperCase();
  const isText = body.length === 0 || /json|text|x-www-form-urlencoded/i.test(headers['content-type'] ?? 'application/json');
  return {
    version: '2.0',
    routeKey: route?.routeKey ?? '$default',
    rawPath: path,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(route && Object.keys(route.params).length ? { pathParameters: route.params } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
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
  // As API Gateway does: a base64-encoded result is sent as its bytes (a gzip answer).
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  res.writeHead(result.statusCode, { ...result.headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function dispatch(req: IncomingMessage, router: ApiRouter): Promise<HttpResult> {
  const method = (req.method ?? 'GET').toUpperCase();
  const { path } = requestTarget(req.url);
  const body = await readBody(req);
  const target = await router(method, path);
  const event = toEvent(req, body, target.routeKey === '$default' ? undefined : target);
  const result = (await target.invoke(event)) as HttpResult;
  return { statusCode: result.statusCode, headers: result.headers ?? {}, body: result.body ?? '', ...(result.isBase64Encoded ? { isBase64Encoded: true } : {}) };
}

/** Requests node's HTTP parser refuses before any handler sees them, by the parser's error code. */
const PARSER_REFUSALS: Readonly<Record<string, { status: number; message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request header section is larger than the limit' },
  HPE_INVALID_METHOD: { status: 400, message: 'Malformed request: unknown HTTP method' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
};
const MALFORMED_REQUEST = { status: 400, message: 'Malformed HTTP request' };

/** A complete raw HTTP response carrying the JSON error body, closing the connection. */
export function rawErrorResponse(code: string | undefined): string {
  const { status, message } = (code && PARSER_REFUSALS[code]) || MALFORMED_REQUEST;
  const body = JSON.stringify(errorBody(status, [message]));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Node answers parser failures itself with an empty body unless told otherwise: answer with the error body. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(error.code));
}

/** How long the gateway keeps an idle keep-alive connection (Node's default is 5 s, a second over its fetch's 4 s). */
const IDLE_CONNECTION_MS = 65_000;

export function startGateway(port: number, host = '127.0.0.1', router: ApiRouter = sourceRouter()): Promise<Server> {
  const server = createServer((req, res) => {
    dispatch(req, router).then(
      (result) => send(res, result),
      (error: unknown) => send(res, errorResponse(error)),
    );
  });
  server.on('clientError', answerClientError);
  // An idle connection stays open longer than clients keep one (Node's fetch: 4 s), so the server never closes one
  // just as a client sends on it ("other side closed"), as a load balancer's idle timeout outlasts its clients'.
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
