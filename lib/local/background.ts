// The background functions of the local stack in source mode, grouped as `npm start` runs them (docs/decisions/0033):
// the ingest worker; the timers function (which sends every message) with the sweeper; the outgoing webhooks
// function. Each group is one host — a worker thread of its own, or this thread when isolation is off (tests that
// install delivery adapters in-process). Batch sizes are the stack's (infra/stack.ts; test/unit/local checks them).
import { scheduledEvent } from './events.ts';
import { startFunctionHost, type FunctionHost, type HostedFunction } from './function-host.ts';
import { sourceSpec } from './invoker.ts';
import { startThreadHost } from './threads.ts';
import { sweepIntervalMs } from './timers.ts';

/** The stack's event source mappings' BatchSize (infra/stack.ts: WORKER_, TIMERS_, WEBHOOKS_BATCH_SIZE). */
export const SOURCE_BATCH_SIZES = { ingest: 10, timers: 10, webhooks: 10 } as const;

/**
 * Receive loops per queue: the local concurrency of each background function. Lambda runs several batches of one
 * queue at once (on a FIFO queue for different message groups), so a slow batch does not hold the next one.
 */
export const LOCAL_CONCURRENCY = {
  ingest: 4,
  /**
   * More than the worker's, as on AWS the timers Lambda scales with its standard queue while the FIFO worker is bound
   * by message groups: a firing is a few short storage calls, so in a storm due pages and escalations keep their turn
   * (docs/timers.md, "How a wait is swept"; docs/benchmarks.md, "Alert storms").
   */
  timers: 32,
  webhooks: 4,
} as const;

/** The stack's function timeouts (infra/stack.ts): the context's remaining time counts down from them. */
const TIMEOUT_MS = { worker: 30_000, timers: 30_000, sweeper: 60_000, webhooks: 60_000 } as const;

export interface BackgroundQueues {
  ingestQueueUrl: string;
  timersQueueUrl: string;
  webhooksQueueUrl: string;
}

export type Isolation = 'threads' | 'none';

/** The source-mode background hosts' functions: one entry per host. */
export function sourceBackground(queues: BackgroundQueues): { name: string; functions: HostedFunction[] }[] {
  const queue = (queueUrl: string, kind: keyof typeof LOCAL_CONCURRENCY) => ({
    queueUrl,
    batchSize: SOURCE_BATCH_SIZES[kind],
    reportBatchItemFailures: true,
    concurrency: LOCAL_CONCURRENCY[kind],
  });
  return [
    { name: 'ingest', functions: [{ spec: sourceSpec('worker', TIMEOUT_MS.worker), queues: [queue(queues.ingestQueueUrl, 'ingest')], schedules: [] }] },
    {
      name: 'timers',
      functions: [
        { spec: sourceSpec('timers', TIMEOUT_MS.timers), queues: [queue(queues.timersQueueUrl, 'timers')], schedules: [] },
        { spec: { ...sourceSpec('sweeper', TIMEOUT_MS.sweeper), name: 'timers-sweeper' }, queues: [], schedules: [{ everyMs: sweepIntervalMs(), event: scheduledEvent('timers-sweeper') }] },
      ],
    },
    { name: 'webhooks', functions: [{ spec: sourceSpec('webhooks', TIMEOUT_MS.webhooks), queues: [queue(queues.webhooksQueueUrl, 'webhooks')], schedules: [] }] },
  ];
}

/** Starts hosts (threads, or this thread) and joins them into one: a call goes to the host that has the function or queue. */
export async function startHosts(groups: { name: string; functions: HostedFunction[]; environment?: Record<string, string> }[], isolation: Isolation): Promise<FunctionHost> {
  const hosts = await Promise.all(groups.map(async (g) => ({ group: g, host: isolation === 'threads' ? startThreadHost(g) : await startFunctionHost(g.functions) })));
  const byFunction = (name: string) => hosts.find((h) => h.group.functions.some((f) => f.spec.name === name))?.host;
  const byQueue = (url: string) => hosts.find((h) => h.group.functions.some((f) => f.queues.some((q) => q.queueUrl === url)))?.host;
  const missing = (what: string) => new Error(`No local function host has ${what}`);
  return {
    invoke: (name, event) => byFunction(name)?.invoke(name, event) ?? Promise.reject(missing(name)),
    pause: (url) => byQueue(url)?.pause(url) ?? Promise.reject(missing(url)),
    resume: (url) => byQueue(url)?.resume(url),
    stop: async () => void (await Promise.all(hosts.map((h) => h.host.stop()))),
  };
}
