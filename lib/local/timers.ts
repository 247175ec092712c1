// The timers side of the local runtime: the sweeper's interval in place of the EventBridge schedule (docs/timers.md),
// and the timers queue fed to functions/timers.ts on this thread, for tests that run a stack of their own.
import { startInterval } from './function-host.ts';
import { inThreadInvoker, sourceSpec } from './invoker.ts';
import { startPoller, type Poller } from './poller.ts';

export { startInterval };

/** Locally the sweeper runs every 5 s (on AWS every minute): a lost wake-up costs a few seconds in a demo. */
export const LOCAL_SWEEP_INTERVAL_MS = 5_000;

/** The timers queue fed to functions/timers.ts on this thread, with `npm start`'s concurrency (lib/local/background.ts). */
export function startTimersPoller(queueUrl: string, concurrency = 32): Poller {
  const timers = inThreadInvoker(sourceSpec('timers'));
  return startPoller(queueUrl, { name: 'timers', concurrency, invoke: (event) => timers.invoke(event) });
}

/** HARK_SWEEP_INTERVAL_MS: unset → LOCAL_SWEEP_INTERVAL_MS; otherwise a whole number of milliseconds from 100. */
export function sweepIntervalMs(raw: string | undefined = process.env.HARK_SWEEP_INTERVAL_MS): number {
  const text = raw?.trim() ?? '';
  if (text === '') return LOCAL_SWEEP_INTERVAL_MS;
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 100) throw new Error(`HARK_SWEEP_INTERVAL_MS must be a whole number of milliseconds, at least 100 (got "${text}")`);
  return ms;
}
