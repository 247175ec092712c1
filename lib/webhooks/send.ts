// One HTTP attempt to a receiver: the host is resolved once, every address checked against the policy, and the
// connection made to the checked address (node's `lookup` hook), so a second resolution cannot swap in a private
// address. Redirects are not followed. docs/outgoing-webhooks.md, "Where Hark sends".
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_RESPONSE_BODY_BYTES } from '../limits.ts';
import { isPublicAddress, literalAddress, refusalOf, type AddressPolicy } from './address.ts';
import { parseRetryAfter, type AttemptResult, type ErrorKind } from './outcome.ts';

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: AddressPolicy;
}

export interface SendResult extends AttemptResult {
  /**
   * The first WEBHOOK_RESPONSE_BODY_BYTES of the answer, as text, from a receiver on a public address only: the answer
   * of a loopback or private receiver (a service of the machine or network Hark runs in) is never kept.
   */
  responseBody: string | null;
  /** Bytes of the answer's body read: up to WEBHOOK_RESPONSE_BODY_BYTES (Hark reads no further); null without an answer. */
  responseBytes: number | null;
  durationMs: number;
  /** Why it failed, in words (an error's message), when no 2xx came. */
  error: string | null;
}

class BlockedAddressError extends Error {
  readonly code = 'HARK_BLOCKED_ADDRESS';
}

/** Resolves with the system resolver and refuses when any address of the answer is not allowed. */
export function guardedLookup(policy: AddressPolicy, resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as unknown as LookupAddress[];
      for (const entry of list) {
        const refusal = refusalOf(entry.address, hostname, policy);
        if (refusal) return callback(new BlockedAddressError(refusal), '', 4);
      }
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

export function errorKindOf(error: unknown, timedOut: boolean): ErrorKind {
  if (timedOut) return 'timeout';
  const code = String((error as { code?: unknown })?.code ?? '');
  if (code === 'HARK_BLOCKED_ADDRESS') return 'blocked';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'dns';
  if (TLS_CODE.test(code) || /certificate|TLS|SSL/i.test(String((error as Error)?.message ?? ''))) return 'tls';
  return 'connection';
}

async function firstBytes(response: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch {
    // An answer cut short keeps what arrived.
  }
  response.destroy();
  return Buffer.concat(chunks).subarray(0, limit);
}

/** POSTs once; never throws: every failure is a result with its error kind. */
export function sendOnce(req: SendRequest, now: () => number = Date.now): Promise<SendResult> {
  const started = now();
  const url = new URL(req.url);
  const literal = literalAddress(url.hostname);
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: Math.max(0, Math.round(now() - started)) });
  if (literal) {
    const refusal = refusalOf(literal, literal, req.policy);
    if (refusal) return Promise.resolve(done({ status: null, errorKind: 'blocked', retryAfterSeconds: null, responseBody: null, responseBytes: null, error: refusal }));
  }
  return new Promise<SendResult>((resolve) => {
    let timedOut = false;
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(url, {
      method: 'POST',
      headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
      lookup: guardedLookup(req.policy),
      agent: false,
    });
    // One deadline for the whole exchange: connect, send, and the answer's first bytes.
    const timer = setTimeout(() => {
      timedOut = true;
      outgoing.destroy(new Error(`no answer within ${req.timeoutMs} ms`));
    }, req.timeoutMs);
    outgoing.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const retryAfter = parseRetryAfter(response.headers['retry-after'] as string | undefined, Date.now());
      // The address actually connected to (the checked one): only a public receiver's words are kept.
      const shown = isPublicAddress(response.socket?.remoteAddress);
      void firstBytes(response, WEBHOOK_RESPONSE_BODY_BYTES).then((body) => {
        const ok = status >= 200 && status < 300;
        const responseBody = shown ? body.toString('utf8') : null;
        finish(done({ status, errorKind: ok ? null : 'http', retryAfterSeconds: retryAfter, responseBody, responseBytes: body.length, error: ok ? null : `HTTP ${status}` }));
      });
    });
    outgoing.on('error', (error) => {
      finish(done({ status: null, errorKind: errorKindOf(error, timedOut), retryAfterSeconds: null, responseBody: null, responseBytes: null, error: error.message }));
    });
    outgoing.end(req.body);
  });
}
