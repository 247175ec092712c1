// A host of local functions: each function's invoker, the queue pollers that feed it as its event source mappings do,
// and the schedules that invoke it on an interval. `npm start` runs one host per background function group in a
// worker thread of its own (lib/local/function-thread.ts); tests may run one on the calling thread (docs/decisions/0033).
import type { SQSEvent } from 'aws-lambda';
import { logger } from '../logger.ts';
import { inThreadInvoker, type FunctionSpec, type Invoker } from './invoker.ts';
import type { Poller } from './poller.ts';

/** A queue feeding a function, as its event source mapping says. */
export interface QueueSource {
  queueUrl: string;
  batchSize: number;
  reportBatchItemFailures: boolean;
  /** Receive loops side by side: the local concurrency of the function on this queue. */
  concurrency: number;
}

/** A schedule invoking a function (EventBridge Scheduler on AWS) every `everyMs`, never two at once. */
export interface ScheduleSource {
  everyMs: number;
  /** The event the schedule sends (lib/local/events.ts, scheduledEvent). */
  event: unknown;
}

export interface HostedFunction {
  spec: FunctionSpec;
  queues: QueueSource[];
  schedules: ScheduleSource[];
}

/** What a host offers, on this thread or across a thread boundary. */
export interface FunctionHost {
  invoke(functionName: string, event: unknown): Promise<unknown>;
  /** Stops the pollers of one queue taking batches; resolves once the batches in hand are done. */
  pause(queueUrl: string): Promise<void>;
  resume(queueUrl: string): void;
  stop(): Promise<void>;
}

/** Runs `tick` every `intervalMs`, never two at once; stop waits for a tick under way. */
export function startInterval(tick: () => Promise<unknown>, intervalMs: number, what = 'Timer sweep'): { stop(): Promise<void> } {
  let current: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    current = tick()
      .catch((error: unknown) => logger.error(`${what} failed`, { error: error as Error }))
      .finally(() => (busy = false));
  }, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await current;
    },
  };
}

/** Starts the functions' sources on this thread. The poller module is loaded only when a queue is hosted. */
export async function startFunctionHost(functions: readonly HostedFunction[]): Promise<FunctionHost> {
  const invokers = new Map<string, Invoker>();
  const pollers = new Map<string, Poller>();
  const intervals: { stop(): Promise<void> }[] = [];
  // Loaded only when a queue is hosted: a bundle's thread with no queue reads none of this process's wiring.
  const startPoller = functions.some((f) => f.queues.length > 0) ? (await import('./poller.ts')).startPoller : undefined;
  for (const { spec, queues, schedules } of functions) {
    const invoker = inThreadInvoker(spec);
    invokers.set(spec.name, invoker);
    for (const queue of queues) {
      pollers.set(
        queue.queueUrl,
        startPoller!(queue.queueUrl, {
          name: spec.name,
          invoke: (event: SQSEvent) => invoker.invoke(event),
          batchSize: queue.batchSize,
          reportBatchItemFailures: queue.reportBatchItemFailures,
          concurrency: queue.concurrency,
        }),
      );
    }
    for (const schedule of schedules) intervals.push(startInterval(() => invoker.invoke(schedule.event), schedule.everyMs, `The scheduled ${spec.name} run`));
  }
  const pollerOf = (queueUrl: string) => {
    const poller = pollers.get(queueUrl);
    if (!poller) throw new Error(`No function of this host polls ${queueUrl}`);
    return poller;
  };
  return {
    invoke: (name, event) => {
      const invoker = invokers.get(name);
      return invoker ? invoker.invoke(event) : Promise.reject(new Error(`No function ${name} in this host`));
    },
    pause: (queueUrl) => pollerOf(queueUrl).pause(),
    resume: (queueUrl) => pollerOf(queueUrl).resume(),
    stop: async () => {
      await Promise.all([...pollers.values()].map((p) => p.stop()));
      await Promise.all(intervals.map((i) => i.stop()));
      await Promise.all([...invokers.values()].map((i) => i.stop()));
    },
  };
}
