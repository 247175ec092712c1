// The timers side of the local runtime: the timers queue fed to functions/timers.ts as Lambda's event source
// does, and the sweeper run on an interval in place of the EventBridge schedule (docs/timers.md).

import { logger } from '../logger.ts';
import { lambdaContext, loadHandler } from './gateway.ts';
import { startPoller, type Poller, type SqsHandler } from './poller.ts';

/** Locally the sweeper runs every 5 s (on AWS every minute): a lost wake-up costs a few seconds in a demo. */
export const LOCAL_SWEEP_INTERVAL_MS = 5_000;

/**
 * Receive loops of the timers queue locally: more than the ingest worker's, as on AWS the timers Lambda scales with its
 * standard queue while the FIFO worker is bound by message groups. A firing is a few short storage calls, so in a storm
 * (one process, two cores) due pages and escalations keep their turn while new requests wait, durably, in the ingest
 * queue: with as many loops as the worker a layer timeout waited behind thousands of wake-ups (docs/timers.md, "How a
 * wait is swept"; docs/benchmarks.md, "Alert storms").
 */
export const LOCAL_TIMER_RECEIVE_LOOPS = 32;

export const startTimersPoller = (queueUrl: string): Poller =>
  startPoller(queueUrl, { name: 'timers', concurrency: LOCAL_TIMER_RECEIVE_LOOPS, load: async () => (await loadHandler('timers')) as unknown as SqsHandler });

/** Runs `sweep` every `intervalMs`, never two at once; stop waits for a sweep under way. */
export function startInterval(sweep: () => Promise<unknown>, intervalMs: number): { stop(): Promise<void> } {
  let current: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    current = sweep()
      .catch((error: unknown) => logger.error('Timer sweep failed', { error: error as Error }))
      .finally(() => (busy = false));
  }, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await current;
    },
  };
}

/** HARK_SWEEP_INTERVAL_MS: unset → LOCAL_SWEEP_INTERVAL_MS; otherwise a whole number of milliseconds from 100. */
export function sweepIntervalMs(raw: string | undefined = process.env.HARK_SWEEP_INTERVAL_MS): number {
  const text = raw?.trim() ?? '';
  if (text === '') return LOCAL_SWEEP_INTERVAL_MS;
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 100) throw new Error(`HARK_SWEEP_INTERVAL_MS must be a whole number of milliseconds, at least 100 (got "${text}")`);
  return ms;
}

/** The sweeper Lambda's module (functions/sweeper.ts), every `intervalMs` (HARK_SWEEP_INTERVAL_MS, default 5 s). */
export function startSweeper(intervalMs = sweepIntervalMs()): { stop(): Promise<void> } {
  return startInterval(async () => {
    const sweep = await loadHandler('sweeper');
    await sweep({} as never, lambdaContext('timers-sweeper'));
  }, intervalMs);
}
