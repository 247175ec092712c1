// Sending wake-ups: after the owner's transaction stored its timers, one delayed message per timer.
// A failed send is logged and not retried here: the sweeper fires the timer anyway (docs/timers.md).

import { nowMs } from '../clock.ts';
import { wakeUpDelaySeconds } from '../escalation-engine/timers.ts';
import { logger } from '../logger.ts';
import { sendWakeUpMessages, type DelayedMessage, type WakeUpMessage } from '../queue/timers.ts';
import type { DurableTimer } from './types.ts';

export const wakeUpMessageOf = (timer: DurableTimer): WakeUpMessage => ({
  kind: 'timer',
  ownerType: timer.ownerType,
  accountId: timer.accountId,
  ownerId: timer.ownerId,
  timerId: timer.timerId,
  dueAt: timer.dueAt,
});

/** The message that wakes `timer`: delayed by min(900 s, due − now), whole seconds rounded up. */
export const wakeUpFor = (timer: DurableTimer, now: number): DelayedMessage => ({
  message: wakeUpMessageOf(timer),
  delaySeconds: wakeUpDelaySeconds(Date.parse(timer.dueAt), now),
});

/**
 * After the owner's transaction committed: a wake-up message per timer on the timers queue. Never throws: a
 * failed send is logged, and the sweeper fires the timer at most one sweep late.
 */
export async function sendWakeUps(timers: readonly DurableTimer[]): Promise<void> {
  if (timers.length === 0) return;
  try {
    const now = nowMs();
    const { failed } = await sendWakeUpMessages(timers.map((t) => wakeUpFor(t, now)));
    for (const f of failed) logger.warn('Timer wake-up not sent; the sweeper will fire it', { timerId: f.message.timerId, ownerId: f.message.ownerId });
  } catch (error) {
    logger.warn('Timer wake-ups not sent; the sweeper will fire them', { error: error as Error, timers: timers.map((t) => t.timerId) });
  }
}
