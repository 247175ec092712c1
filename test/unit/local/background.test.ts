// npm start's background functions (lib/local/background.ts, decision 0031): three hosts — the ingest worker, the
// timers function with the sweeper, the outgoing webhooks function — with the stack's batch sizes and the stated
// local concurrency.
import { describe, expect, it } from 'vitest';
import { TIMERS_BATCH_SIZE, WEBHOOKS_BATCH_SIZE, WORKER_BATCH_SIZE } from '../../../infra/stack.ts';
import { LOCAL_CONCURRENCY, SOURCE_BATCH_SIZES, sourceBackground } from '#lib/local/background.ts';

describe('the background hosts', () => {
  it("take the stack's batch sizes", () => {
    expect(SOURCE_BATCH_SIZES).toEqual({ ingest: WORKER_BATCH_SIZE, timers: TIMERS_BATCH_SIZE, webhooks: WEBHOOKS_BATCH_SIZE });
  });

  it('group the worker, timers with the sweeper, and webhooks, each queue with its concurrency', () => {
    const hosts = sourceBackground({ ingestQueueUrl: 'http://q/ingest.fifo', timersQueueUrl: 'http://q/timers', webhooksQueueUrl: 'http://q/webhooks' });
    expect(hosts.map((h) => [h.name, h.functions.map((f) => f.spec.name)])).toEqual([
      ['ingest', ['worker']],
      ['timers', ['timers', 'timers-sweeper']],
      ['webhooks', ['webhooks']],
    ]);
    expect(hosts.flatMap((h) => h.functions.flatMap((f) => f.queues.map((q) => [q.queueUrl, q.concurrency, q.reportBatchItemFailures])))).toEqual([
      ['http://q/ingest.fifo', LOCAL_CONCURRENCY.ingest, true],
      ['http://q/timers', LOCAL_CONCURRENCY.timers, true],
      ['http://q/webhooks', LOCAL_CONCURRENCY.webhooks, true],
    ]);
    const sweeper = hosts[1]!.functions[1]!;
    expect(sweeper.spec.code).toEqual({ kind: 'source', module: 'sweeper' });
    expect(sweeper.schedules[0]).toMatchObject({ everyMs: 5000, event: { source: 'aws.scheduler', 'detail-type': 'Scheduled Event' } });
  });
});
