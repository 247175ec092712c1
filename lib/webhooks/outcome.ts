// What one attempt's result means (docs/outgoing-webhooks.md, "Retries"): pure, so test/unit/webhooks checks
// every branch offline.
import { WEBHOOK_DISABLE_AFTER_DAYS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_MAX_RETRY_AFTER_SECONDS, WEBHOOK_RETRY_SCHEDULE_SECONDS } from '../limits.ts';

/** How an attempt failed before or without an HTTP answer, or `http` for a non-2xx answer. */
export const ERROR_KINDS = ['timeout', 'dns', 'tls', 'connection', 'blocked', 'http'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface AttemptResult {
  /** The HTTP status; null when no answer came. */
  status: number | null;
  errorKind: ErrorKind | null;
  /** The receiver's Retry-After, in seconds, when it sent one we could read. */
  retryAfterSeconds: number | null;
}

export type Verdict =
  /** 2xx. */
  | { kind: 'delivered' }
  /** 429, 5xx, timeouts and connection errors, while attempts remain. */
  | { kind: 'retry'; delayMs: number }
  /** Other 4xx, a refused address, or no attempts left. */
  | { kind: 'failed'; reason: string }
  /** 410 Gone: the receiver asks never to be called again; the subscription is disabled. */
  | { kind: 'gone' };

const retryable = (result: AttemptResult): boolean =>
  result.status === null ? result.errorKind !== 'blocked' : result.status === 429 || result.status >= 500;

/**
 * The wait before retry `attempt + 1` (attempt is 1-based, the one that just failed): the schedule's step with
 * ±10 % jitter (`random` in [0, 1)), or the receiver's Retry-After when it asks for longer (capped), divided by
 * the time scale.
 */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | null, random: number, timeScale = 1): number {
  const step = WEBHOOK_RETRY_SCHEDULE_SECONDS[Math.min(attempt, WEBHOOK_RETRY_SCHEDULE_SECONDS.length) - 1]!;
  const jittered = step * 1000 * (0.9 + 0.2 * random);
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds, WEBHOOK_MAX_RETRY_AFTER_SECONDS) * 1000;
  return Math.max(1, Math.round(Math.max(jittered, asked) / timeScale));
}

/** The verdict on attempt number `attempt` (1-based) of a scheduled delivery. */
export function verdictOf(result: AttemptResult, attempt: number, random: number, timeScale = 1): Verdict {
  if (result.status !== null && result.status >= 200 && result.status < 300) return { kind: 'delivered' };
  if (result.status === 410) return { kind: 'gone' };
  if (!retryable(result)) {
    return { kind: 'failed', reason: result.status !== null ? `the receiver answered ${result.status}, which is not retried` : 'the address is not allowed' };
  }
  if (attempt >= WEBHOOK_MAX_ATTEMPTS) return { kind: 'failed', reason: `no success after ${attempt} attempts` };
  return { kind: 'retry', delayMs: retryDelayMs(attempt, result.retryAfterSeconds, random, timeScale) };
}

/** Retry-After as seconds: a whole number of seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * Whether a subscription failing without a success since `failingSince` has failed long enough to be disabled
 * (WEBHOOK_DISABLE_AFTER_DAYS, divided by the time scale).
 */
export const failingTooLong = (failingSince: string | undefined, nowMs: number, timeScale = 1): boolean =>
  failingSince !== undefined && nowMs - Date.parse(failingSince) >= (WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000) / timeScale;
