// When a failed attempt is tried again: exponential backoff from DELIVERY_FIRST_RETRY_SECONDS, times 4 per attempt,
// capped at DELIVERY_MAX_RETRY_SECONDS, for at most DELIVERY_ATTEMPTS attempts. Pure. docs/notifications.md, "Retries".
import { DELIVERY_ATTEMPTS, DELIVERY_FIRST_RETRY_SECONDS, DELIVERY_MAX_RETRY_SECONDS } from '../limits.ts';

const BACKOFF_FACTOR = 4;

/** The wait before attempt `attempt + 1`, in ms of real time (before HARK_TIME_SCALE). */
export function retryDelayMs(attempt: number): number {
  const seconds = Math.min(DELIVERY_MAX_RETRY_SECONDS, DELIVERY_FIRST_RETRY_SECONDS * BACKOFF_FACTOR ** Math.max(0, attempt - 1));
  return seconds * 1000;
}

/** After `attempts` attempts (this one included) failed retryably: the wait before the next, or give up. */
export function nextAttempt(attempts: number): { retry: true; delayMs: number } | { retry: false } {
  return attempts >= DELIVERY_ATTEMPTS ? { retry: false } : { retry: true, delayMs: retryDelayMs(attempts) };
}
