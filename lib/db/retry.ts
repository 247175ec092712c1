// Conflict retry: a read-check-write whose conditional write lost a race reads again and repeats, after a
// jittered, growing pause so that racing writers spread out instead of colliding again in step.
// docs/storage.md, "Concurrency and idempotency".

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
