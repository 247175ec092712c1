// Reading request bodies: API Gateway's base64 form, the size limit, and JSON objects only.

import { config } from '../config.ts';
import { bodyDepthProblem } from '../storable.ts';
import { badRequest, payloadTooLarge } from './http-errors.ts';
import type { APIGatewayProxyEventV2 as HttpEvent } from 'aws-lambda';

/** The raw body as text, decoding API Gateway's base64 form. */
export function rawBody(event: HttpEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** The raw body as text, refused with 413 over HARK_MAX_BODY_BYTES. */
export function boundedRawBody(event: HttpEvent): string {
  const text = rawBody(event);
  const { maxBodyBytes } = config();
  if (Buffer.byteLength(text, 'utf8') > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
  return text;
}

/**
 * JSON object bodies only. Clients of the reference API send `Content-Type: application/json` with an
 * empty body on action POSTs and DELETEs, so an empty or whitespace body is `{}`.
 */
export function parseJsonBody(event: HttpEvent): Record<string, unknown> {
  const text = boundedRawBody(event);
  if (text.trim() === '') return {};
  const tooDeep = bodyDepthProblem(text);
  if (tooDeep) throw badRequest(tooDeep);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON in request body');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('Request body must be a JSON object');
  return parsed as Record<string, unknown>;
}
