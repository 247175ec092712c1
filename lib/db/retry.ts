// Conflict retry: a read-check-write whose conditional write lost a race reads again and repeats, after a
// jittered, growing pause so that racing writers spread out instead of colliding again in step.
// docs/storage.md, "Concurrency and idempotency".
//
// Storage that is briefly unavailable (throttled, a failing node, the network) is retried by the AWS SDK itself,
// STORAGE_ATTEMPTS times with backoff (lib/db/client.ts): that is the one loop for it, so nothing here repeats it
// on top. What still fails is recognised by `isUnavailable` and answered 503 with Retry-After (lib/http/responses.ts);
// background workers log it and leave the work for their next pass. docs/storage.md, "When storage is unavailable".

import { conflict, DomainError } from '../errors.ts';
import { isConditionFailure } from './conditions.ts';

/** Attempts of an ordinary read-check-write before it answers 409. */
export const WRITE_ATTEMPTS = 5;
/** Attempts of a change whose intent does not depend on what it read (a delete): it keeps going. */
export const PERSISTENT_ATTEMPTS = 12;

const BASE_DELAY_MS = 5;
const MAX_DELAY_MS = 250;

/** True for a write that lost a race: nothing was written and the same change may succeed on a fresh read. */
export function lostARace(error: unknown): boolean {
  return isConditionFailure(error) || (error instanceof DomainError && error.lostRace);
}

/** Failures of a dependency that may pass (the SDK's own names for throttling, 5xx and timeouts). */
const UNAVAILABLE_NAMES: ReadonlySet<string> = new Set([
  'InternalFailure',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'ThrottlingException',
  'Throttling',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
/** Node's errors of a connection that failed or broke. */
const NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * True when storage (or another AWS service) could not answer for a while and the SDK's retries ran out: throttling,
 * a 5xx, a timeout, a broken connection, or a transaction cancelled only by throttling. Nothing was written; the same
 * request may succeed later. Our own mistakes (a ValidationException) are not this: they stay 500s to be fixed.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof DomainError) return error.kind === 'unavailable';
  const e = error as { name?: string; code?: string; $fault?: string; $metadata?: { httpStatusCode?: number }; CancellationReasons?: { Code?: string }[] } | undefined;
  if (!e || typeof e !== 'object') return false;
  if (e.name !== undefined && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (e.code !== undefined && NETWORK_CODES.has(e.code)) return true;
  if (e.$fault === 'server' && (e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  if (e.name === 'TransactionCanceledException') {
    const codes = (e.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
    return codes.includes('ThrottlingError') && codes.every((c) => c === 'ThrottlingError' || c === 'None');
  }
  return false;
}

/**
 * The pause before attempt `attempt + 1` ("full jitter"): uniformly random up to a cap that doubles with
 * each attempt. `random` is a number in [0, 1).
 */
export function backoffDelayMs(attempt: number, random: number): number {
  const cap = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return Math.floor(random * cap);
}

export interface RetryOptions {
  /** Attempts in all (the first included). */
  attempts?: number;
  /** The 409 answered when every attempt lost its race. */
  exhausted: () => Error;
  /**
   * Runs after a lost race, before the pause: may throw the real answer (e.g. 422 when a referenced object
   * turned out to be gone, or the collection limit).
   */
  afterLostRace?: (error: unknown, attempt: number) => Promise<void> | void;
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it succeeds, throws something other than a lost race, or runs out of attempts. */
export async function retryOnConflict<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const attempts = options.attempts ?? WRITE_ATTEMPTS;
  const sleep = options.sleep ?? pause;
  const random = options.random ?? Math.random;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!lostARace(error)) throw error;
      await options.afterLostRace?.(error, n);
      if (n >= attempts) throw options.exhausted();
      await sleep(backoffDelayMs(n, random()));
    }
  }
}

/** The usual 409 of a change that kept losing its race. */
export const changedMeanwhile = (what: string) => () => conflict(`${what} was changed by another request at the same time; retry`);
