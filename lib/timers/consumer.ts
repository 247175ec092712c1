// The wake-up consumer: one message of the timers queue → load the timer; not pending → done; early (a wait
// longer than 900 s, or an early delivery) → send itself again with the remainder; due → the owner's handler.

import { logger } from '../logger.ts';
import { sendWakeUpMessages, wakeUpMessageSchema, type WakeUpMessage } from '../queue/timers.ts';
import { fireStoredTimer, type FireOutcome } from './fire.ts';
import { timerKey, timerOf } from './items.ts';
import { TIMER_OWNER_TYPES, type TimerHandlers, type TimerOwnerType } from './types.ts';
import { wakeUpMessageOf } from './wake-ups.ts';

/** A wake-up that can never succeed; SQS retries it, then parks it in the dead-letter queue. */
export class PoisonMessageError extends Error {
  override name = 'PoisonMessageError';
}

export function parseWakeUp(body: string): WakeUpMessage & { ownerType: TimerOwnerType } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new PoisonMessageError('Timer wake-up is not JSON');
  }
  const parsed = wakeUpMessageSchema.safeParse(json);
  if (!parsed.success) throw new PoisonMessageError(`Timer wake-up does not fit its schema: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  const ownerType = parsed.data.ownerType;
  if (!(TIMER_OWNER_TYPES as readonly string[]).includes(ownerType)) throw new PoisonMessageError(`Timer wake-up names an unknown owner type "${ownerType}"`);
  return { ...parsed.data, ownerType: ownerType as TimerOwnerType };
}

/**
 * Applies one wake-up. Throws (so the message is retried, then parked in the dead-letter queue) when the owner's
 * handler fails or an early wake-up cannot be sent again; the timer stays pending and the sweeper covers it.
 */
export async function processWakeUp(body: string, handlers: Partial<TimerHandlers>, now?: number): Promise<FireOutcome['result']> {
  const message = parseWakeUp(body);
  const outcome = await fireStoredTimer(timerKey(message), handlers, now);
  if (outcome.result === 'early') {
    const { failed } = await sendWakeUpMessages([{ message: wakeUpMessageOf(timerOf(outcome.item)), delaySeconds: outcome.delaySeconds }]);
    if (failed.length > 0) throw new Error(`Could not send the wake-up of timer ${message.timerId} again`);
    logger.debug('Timer woke early; wake-up sent again', { timerId: message.timerId, delaySeconds: outcome.delaySeconds });
  }
  return outcome.result;
}
