// What an attempt's answer means: success only on 2xx, retries for 429, 5xx and failures to get an answer, a stop
// on other 4xx, 410 Gone, the schedule with jitter, and Retry-After.
import { describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_SCHEDULE_SECONDS } from '#lib/limits.ts';
import { failingTooLong, parseRetryAfter, retryDelayMs, verdictOf } from '#lib/webhooks/outcome.ts';

const http = (status: number, retryAfterSeconds: number | null = null) => ({ status, errorKind: status < 300 ? null : ('http' as const), retryAfterSeconds });
const noAnswer = (errorKind: 'timeout' | 'dns' | 'tls' | 'connection' | 'blocked') => ({ status: null, errorKind, retryAfterSeconds: null });

describe('verdictOf', () => {
  it.each([200, 201, 204, 299])('%i is delivered', (status) => expect(verdictOf(http(status), 1, 0.5)).toEqual({ kind: 'delivered' }));
  it.each([429, 500, 502, 503, 599])('%i is retried', (status) => expect(verdictOf(http(status), 1, 0.5).kind).toBe('retry'));
  it.each(['timeout', 'dns', 'tls', 'connection'] as const)('%s is retried', (kind) => expect(verdictOf(noAnswer(kind), 1, 0.5).kind).toBe('retry'));
  it.each([301, 400, 401, 404, 422])('%i stops', (status) =>
    expect(verdictOf(http(status), 1, 0.5)).toEqual({ kind: 'failed', reason: `the receiver answered ${status}, which is not retried` }));
  it('410 is gone', () => expect(verdictOf(http(410), 1, 0.5)).toEqual({ kind: 'gone' }));
  it('a refused address is not retried', () => expect(verdictOf(noAnswer('blocked'), 1, 0.5)).toEqual({ kind: 'failed', reason: 'the address is not allowed' }));
  it('gives up after the last scheduled attempt', () => {
    expect(verdictOf(http(500), WEBHOOK_MAX_ATTEMPTS - 1, 0.5).kind).toBe('retry');
    expect(verdictOf(http(500), WEBHOOK_MAX_ATTEMPTS, 0.5)).toEqual({ kind: 'failed', reason: `no success after ${WEBHOOK_MAX_ATTEMPTS} attempts` });
  });
});

describe('retryDelayMs', () => {
  it('follows the schedule with ±10 % jitter', () => {
    WEBHOOK_RETRY_SCHEDULE_SECONDS.forEach((seconds, i) => {
      expect(retryDelayMs(i + 1, null, 0)).toBe(seconds * 900);
      expect(retryDelayMs(i + 1, null, 0.5)).toBe(seconds * 1000);
      expect(retryDelayMs(i + 1, null, 0.999999)).toBeLessThanOrEqual(seconds * 1100);
    });
    expect(WEBHOOK_RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });
  it('waits for Retry-After when the receiver asks for longer, capped at 10 h', () => {
    expect(retryDelayMs(1, 60, 0.5)).toBe(60_000);
    expect(retryDelayMs(1, 1, 0.5)).toBe(5_000);
    expect(retryDelayMs(1, 10 ** 9, 0.5)).toBe(36_000_000);
  });
  it('is divided by the time scale', () => expect(retryDelayMs(1, null, 0.5, 60)).toBe(83));
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds and HTTP dates; ignores the rest', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('failingTooLong', () => {
  const since = '2026-01-01T00:00:00.000Z';
  it('is true from WEBHOOK_DISABLE_AFTER_DAYS of failure on, never without a failure streak', () => {
    expect(failingTooLong(since, Date.parse('2026-01-05T23:59:59Z'))).toBe(false);
    expect(failingTooLong(since, Date.parse('2026-01-06T00:00:00Z'))).toBe(true);
    expect(failingTooLong(undefined, Date.parse('2027-01-01T00:00:00Z'))).toBe(false);
    expect(failingTooLong(since, Date.parse('2026-01-01T00:02:00Z'), 3600)).toBe(true);
  });
});
