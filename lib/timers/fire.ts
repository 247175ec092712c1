// Firing a stored timer, shared by the wake-up consumer and the sweeper: the item read consistently decides,
// never the message or the index entry that pointed at it (docs/timers.md, "How a wait is woken").

import { nowMs } from '../clock.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { getItem, transact } from '../db/items.ts';
import type { Key } from '../db/writes.ts';
import { onWakeUp } from '../escalation-engine/timers.ts';
import { logger } from '../logger.ts';
import { isPending, timerFiredItem, timerOf, timerOwnerPk, type TimerItem } from './items.ts';
import type { DurableTimer, TimerHandlers } from './types.ts';

export type FireOutcome =
  /** The owner's handler ran and committed. */
  | { readonly result: 'fired' }
  /** Gone (the owner was deleted) or already fired: nothing to do. */
  | { readonly result: 'done' }
  /** Not due yet: the caller wakes it again later. */
  | { readonly result: 'early'; readonly item: TimerItem; readonly delaySeconds: number };

/** The owner has no handler for its timers in this deployment: the timer stays pending and is retried. */
export class MissingTimerHandlerError extends Error {
  override name = 'MissingTimerHandlerError';
}

const loadTimer = (key: Key) => getItem<TimerItem>(key, { consistent: true });

/**
 * Fires the timer stored at `key` if it is pending and due at `now`. A handler that fails because another
 * firing of the same timer committed first (the sweeper racing a late message) counts as done; any other
 * failure is thrown and leaves the timer pending.
 */
export async function fireStoredTimer(key: Key, handlers: Partial<TimerHandlers>, now: number = nowMs()): Promise<FireOutcome> {
  const item = await loadTimer(key);
  if (!item || !isPending(item)) return { result: 'done' };
  const decision = onWakeUp(Date.parse(item.dueAt), now);
  if (decision.action === 'resend') return { result: 'early', item, delaySeconds: decision.delaySeconds };
  const handler = handlers[item.ownerType];
  if (!handler) throw new MissingTimerHandlerError(`No timer handler for owner type "${item.ownerType}"`);
  try {
    await handler(timerOf(item), new Date(now));
  } catch (error) {
    const after = await loadTimer(key);
    if (!after || !isPending(after)) {
      logger.info('Timer was fired by another firing meanwhile', { timerId: item.timerId, ownerId: item.ownerId });
      return { result: 'done' };
    }
    throw error;
  }
  return { result: 'fired' };
}

/**
 * Marks a timer fired on its own, for an owner that had nothing to do (it moved on, or is gone); a timer fired
 * meanwhile (by a duplicate wake-up or the sweeper) is fine.
 */
export async function markTimerFired(timer: DurableTimer, now: Date): Promise<void> {
  try {
    await transact([timerFiredItem(timerOwnerPk(timer), timer, now)]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
