// Storage that stays unavailable after the SDK's retries: the API answers 503 with Retry-After (never 500), and the
// background workers (timers sweeper, wake-up consumers, the local sweep interval) log it and carry on. The failing
// storage is the real document client with its `send` replaced, so every storage call of the code under test fails.
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as ingestWorker } from '#functions/worker.ts';
import { documentClient } from '#lib/db/client.ts';
import { isUnavailable } from '#lib/db/retry.ts';
import { invalid, unavailable } from '#lib/errors.ts';
import { errorResponse } from '#lib/http/responses.ts';
import { STORAGE_ATTEMPTS, UNAVAILABLE_RETRY_AFTER_SECONDS } from '#lib/limits.ts';
import { lambdaContext } from '#lib/local/invoker.ts';
import { startInterval } from '#lib/local/timers.ts';
import { logger } from '#lib/logger.ts';
import { wakeUpBatchHandler } from '#lib/timers/batch-handler.ts';
import { TIMER_SHARDS } from '#lib/timers/items.ts';
import { sweepTimers } from '#lib/timers/sweeper.ts';
import { wakeUpMessageOf } from '#lib/timers/wake-ups.ts';

/** An error as the AWS SDK throws it once its retries ran out. */
const sdkError = (name: string, status: number, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${name} from storage`), { name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status, attempts: STORAGE_ATTEMPTS }, ...extra });
const internalFailure = () => sdkError('InternalFailure', 500);
const cancelled = (...codes: string[]) => sdkError('TransactionCanceledException', 400, { CancellationReasons: codes.map((Code) => ({ Code })) });

/** Makes every storage call fail with `error`, or answer by command as `answer` says. */
function failingStorage(answer: (command: { constructor: { name: string } }) => unknown) {
  return vi.spyOn(documentClient(), 'send').mockImplementation((async (command: { constructor: { name: string } }) => {
    const result = answer(command);
    if (result instanceof Error) throw result;
    return result;
  }) as never);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('isUnavailable', () => {
  it('is true for throttling, 5xx, timeouts, broken connections and transactions cancelled only by throttling', () => {
    for (const error of [
      internalFailure(),
      sdkError('ServiceUnavailable', 503),
      sdkError('ThrottlingException', 400),
      sdkError('ProvisionedThroughputExceededException', 400),
      sdkError('RequestLimitExceeded', 400),
      sdkError('SomethingNew', 502),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('timed out'), { name: 'TimeoutError' }),
      cancelled('None', 'ThrottlingError'),
      unavailable(),
    ]) {
      expect(isUnavailable(error), `${(error as Error).name} ${(error as Error).message}`).toBe(true);
    }
  });

  it('is false for our own mistakes, lost races and domain refusals', () => {
    for (const error of [
      sdkError('ValidationException', 400),
      sdkError('ConditionalCheckFailedException', 400),
      cancelled('ConditionalCheckFailed', 'ThrottlingError'),
      cancelled('TransactionConflict'),
      invalid('name is required'),
      new TypeError('x is undefined'),
      undefined,
      'a string',
    ]) {
      expect(isUnavailable(error), String((error as Error)?.name ?? error)).toBe(false);
    }
  });
});

describe('errorResponse of unavailable storage', () => {
  it('answers 503 with Retry-After and the JSON error body, never 500', () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    for (const error of [internalFailure(), sdkError('ThrottlingException', 400), cancelled('ThrottlingError'), unavailable('The request could not be queued; retry later')]) {
      const result = errorResponse(error);
      expect(result.statusCode).toBe(503);
      expect(result.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      const body = JSON.parse(result.body) as { errors: { message: string }[]; code: number };
      expect(body.code).toBe(503);
      expect(body.errors[0]!.message).toMatch(/retry later$/);
    }
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('keeps a ValidationException a 500 (a fault of ours, to be fixed, not retried)', () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    expect(errorResponse(sdkError('ValidationException', 400)).statusCode).toBe(500);
  });

  it('sets the SDK to retry STORAGE_ATTEMPTS times before any of this', async () => {
    expect(await documentClient().config.maxAttempts()).toBe(STORAGE_ATTEMPTS);
  });
});

describe('background workers with storage failing', () => {
  it('the sweeper logs each shard it could not read and resolves; the next sweep reads them again', async () => {
    failingStorage(() => internalFailure());
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    await expect(sweepTimers({})).resolves.toEqual({ found: 0, fired: 0, failed: 0, unread: TIMER_SHARDS });
    expect(warn).toHaveBeenCalledTimes(TIMER_SHARDS);
    expect(warn.mock.calls[0]![0]).toBe('Sweeper could not read a timer shard; the next sweep reads it again');
    expect(error).not.toHaveBeenCalled();
  });

  it('the sweeper counts a timer it could not fire and goes on with the others', async () => {
    failingStorage((command) =>
      command.constructor.name === 'QueryCommand' ? { Items: [{ pk: 'A#x#AL#y', sk: 'TIMER#z', timerId: 'z' }], Count: 1 } : internalFailure(),
    );
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    await expect(sweepTimers({})).resolves.toEqual({ found: TIMER_SHARDS, fired: 0, failed: TIMER_SHARDS, unread: 0 });
    expect(warn.mock.calls.map((call) => call[0])).toEqual(Array(TIMER_SHARDS).fill('Sweeper could not fire a timer; the next sweep tries again'));
  });

  it('a wake-up consumer reports the record as failed (SQS retries it) instead of throwing, and warns', async () => {
    failingStorage(() => internalFailure());
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const wakeUp = wakeUpMessageOf({ accountId: 'A1', ownerType: 'alert', ownerId: 'AL1', timerId: 'T1', kind: 'wait', dueAt: '2030-01-01T00:00:00.000Z', epoch: 0 });
    const event: SQSEvent = {
      Records: ['m1', 'm2'].map((messageId) => ({ messageId, body: JSON.stringify(wakeUp), receiptHandle: messageId, attributes: {}, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn', awsRegion: 'us-east-1' }) as never),
    };
    const handler = wakeUpBatchHandler({ alert: async () => undefined }, 'Timer wake-up failed; it will be retried');
    const result = await handler(event, lambdaContext('timers'));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }]);
    expect(warn.mock.calls.filter((call) => call[0] === 'Timer wake-up failed; it will be retried')).toHaveLength(2);
  });

  it('the ingest worker reports the message as failed (SQS delivers it again) and warns', async () => {
    failingStorage(() => internalFailure());
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const message = { kind: 'webhook', requestId: 'r1', accountId: 'A1', integrationId: 'I1', receivedAt: '2030-01-01T00:00:00.000Z', headers: {}, query: {}, body: { event_type: 'create', Title: 't' } };
    const record = { messageId: 'm1', body: JSON.stringify(message), receiptHandle: 'm1', attributes: { MessageGroupId: 'I1:none' }, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn', awsRegion: 'us-east-1' };
    const result = await ingestWorker({ Records: [record as never] }, lambdaContext('worker'));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    expect(warn.mock.calls.filter((call) => call[0] === 'Ingest message failed')).toHaveLength(1);
  });

  it('the local sweep interval logs a failed sweep and runs the next one', async () => {
    vi.useFakeTimers();
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    let sweeps = 0;
    const interval = startInterval(async () => {
      sweeps += 1;
      throw internalFailure();
    }, 1000);
    await vi.advanceTimersByTimeAsync(3000);
    await interval.stop();
    expect(sweeps).toBe(3);
    expect(error).toHaveBeenCalledTimes(3);
  });
});
