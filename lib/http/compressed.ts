// Answers compressed with gzip when the client accepts it (Accept-Encoding), for bodies larger than one plain Lambda
// response carries (docs/events-api.md, "Large windows"; docs/api.md).
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ApiResponse } from './context.ts';

/** Below this a body is sent as it is: compressing saves nothing worth the time. */
const COMPRESS_FROM_BYTES = 1_024;

/** True when Accept-Encoding names gzip (or `*`) without `q=0`. */
export function acceptsGzip(event: APIGatewayProxyEventV2): boolean {
  const header = event.headers?.['accept-encoding'] ?? '';
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === 'x-gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** A 200 JSON answer, gzip-compressed when `gzip` and the body is large enough; `Vary: Accept-Encoding` either way. */
export function jsonAnswer(body: unknown, gzip: boolean, headers: Record<string, string> = {}): ApiResponse {
  const vary = { ...headers, vary: 'Accept-Encoding' };
  const text = JSON.stringify(body);
  if (!gzip || text.length < COMPRESS_FROM_BYTES) return { status: 200, body, headers: vary };
  return { status: 200, base64Body: gzipSync(text).toString('base64'), headers: { ...vary, 'content-encoding': 'gzip' } };
}
