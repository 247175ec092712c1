// The pure rules of durable timers: the wake-up delay, early wake-ups, which firing is current, the sweeper's
// notion of overdue, and the local time scale. The timer item in DynamoDB is the truth; a delayed SQS message
// only wakes it. Rules: docs/alerts.md.

import { MAX_TIME_SCALE, MAX_WAKE_UP_DELAY_SECONDS } from '../limits.ts';

// Both limits live in lib/limits.ts (docs/limits.md); re-exported for the engine's callers.
export { MAX_TIME_SCALE, MAX_WAKE_UP_DELAY_SECONDS };

/**
 * A pending timer this much past its due time is fired again by the sweeper: its wake-up message was lost or
 * is late. Smaller would race the message that is about to arrive; the sweep period adds to it.
 */
export const SWEEP_GRACE_MS = 5_000;

/**
 * DelaySeconds of the wake-up message: min(900 s, dueAt − now), never negative, rounded up to whole seconds so a
 * wake-up is never early because of rounding.
 */
export function wakeUpDelaySeconds(dueAt: number, now: number): number {
  const remainingMs = Math.max(0, dueAt - now);
  return Math.min(MAX_WAKE_UP_DELAY_SECONDS, Math.ceil(remainingMs / 1000));
}

export type WakeUp = { readonly action: 'fire' } | { readonly action: 'resend'; readonly delaySeconds: number };

/**
 * What a wake-up message does when it arrives: fire when the timer is due, otherwise (a wait longer than 900 s,
 * or a message delivered early) send itself again with the remainder.
 */
export function onWakeUp(dueAt: number, now: number): WakeUp {
  if (now >= dueAt) return { action: 'fire' };
  return { action: 'resend', delaySeconds: Math.max(1, wakeUpDelaySeconds(dueAt, now)) };
}

/** The stored side of a timer that decides whether a firing still counts. */
export interface TimerRecord {
  /** False once fired (the sparse pending index key is removed by the firing write). */
  readonly pending: boolean;
  readonly epoch: number;
}

/**
 * A firing counts only when the timer is still pending and was set under the owner's current epoch: anything
 * else is a duplicate delivery or a timer cancelled by acknowledge or resolve, and does nothing.
 */
export const isCurrentFiring = (timer: TimerRecord, ownerEpoch: number): boolean => timer.pending && timer.epoch === ownerEpoch;

/** The sweeper re-fires a pending timer only once its wake-up is clearly late. */
export const isOverdue = (dueAt: number, now: number, graceMs: number = SWEEP_GRACE_MS): boolean => now - dueAt > graceMs;

/** A wait as the engine schedules it under HARK_TIME_SCALE: divided by the scale, whole milliseconds, never 0 for a positive wait. */
export function scaledWait(waitMs: number, timeScale: number): number {
  if (waitMs <= 0) return 0;
  return Math.max(1, Math.ceil(waitMs / timeScale));
}
