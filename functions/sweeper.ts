// Sweeper Lambda, run every minute by EventBridge Scheduler (every 5 s by the local runtime): the sweep handler
// of functions/timers.ts under the name Lambda calls.
export { sweepHandler as handler } from './timers.ts';
