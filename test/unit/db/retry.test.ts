// Conflict retry, offline: which failures are retried, how long it pauses, and what it answers at the end.
import { describe, expect, it } from 'vitest';
import { conflict, DomainError, invalid, lostRace } from '#lib/errors.ts';
import { backoffDelayMs, lostARace, retryOnConflict, WRITE_ATTEMPTS } from '#lib/db/retry.ts';

const conditionFailure = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
const cancelled = (code: string) => Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'None' }, { Code: code }] });

describe('lostARace', () => {
  it('is true for failed conditions, cancelled transactions that conflicted and retryable domain conflicts only', () => {
    expect(lostARace(conditionFailure())).toBe(true);
    expect(lostARace(cancelled('ConditionalCheckFailed'))).toBe(true);
    expect(lostARace(cancelled('TransactionConflict'))).toBe(true);
    expect(lostARace(lostRace('Team was changed'))).toBe(true);
    expect(lostARace(cancelled('ValidationError'))).toBe(false);
    expect(lostARace(conflict('Team is in use'))).toBe(false);
    expect(lostARace(invalid('name is required'))).toBe(false);
    expect(lostARace(new TypeError('x'))).toBe(false);
  });
});

describe('backoffDelayMs', () => {
  it('is a random share of a cap that doubles per attempt up to 250 ms', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelayMs(n, 0.999999))).toEqual([4, 9, 19, 39, 79, 159, 249, 249]);
    expect(backoffDelayMs(3, 0)).toBe(0);
    expect(backoffDelayMs(3, 0.5)).toBe(10);
  });
});

describe('retryOnConflict', () => {
  const options = (pauses: number[]) => ({
    exhausted: () => conflict('gave up'),
    sleep: async (ms: number) => void pauses.push(ms),
    random: () => 0.5,
  });

  it('repeats a lost race, pausing with backoff, until the attempt succeeds', async () => {
    const pauses: number[] = [];
    const seen: number[] = [];
    const result = await retryOnConflict(async (n) => {
      seen.push(n);
      if (n < 3) throw n === 1 ? conditionFailure() : lostRace('changed');
      return 'done';
    }, options(pauses));
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
    expect(pauses).toEqual([2, 5]);
  });

  it('answers the exhausted error after the last attempt, without a final pause', async () => {
    const pauses: number[] = [];
    let attempts = 0;
    const failure = await retryOnConflict(async () => {
      attempts++;
      throw conditionFailure();
    }, options(pauses)).catch((error: unknown) => error);
    expect(attempts).toBe(WRITE_ATTEMPTS);
    expect(pauses).toHaveLength(WRITE_ATTEMPTS - 1);
    expect(failure).toBeInstanceOf(DomainError);
    expect((failure as DomainError).messages).toEqual(['gave up']);
  });

  it('passes any other failure through at once', async () => {
    let attempts = 0;
    const failure = await retryOnConflict(async () => {
      attempts++;
      throw invalid('name is required');
    }, options([])).catch((error: unknown) => error);
    expect(attempts).toBe(1);
    expect((failure as DomainError).kind).toBe('invalid');
  });

  it('lets afterLostRace replace the retry with the real answer', async () => {
    const failure = await retryOnConflict(async () => {
      throw conditionFailure();
    }, { ...options([]), attempts: 9, afterLostRace: () => { throw invalid('schedule_ids contains unknown schedule s'); } }).catch((error: unknown) => error);
    expect((failure as DomainError).messages).toEqual(['schedule_ids contains unknown schedule s']);
  });
});
