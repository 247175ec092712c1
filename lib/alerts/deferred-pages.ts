// The deliver timer: writes the notification records, outbox messages and log entries of a step that paged too
// many people for the step's own transaction (and the timers of a create holding back too many router delays to
// store with the alert), in batches, safe to fire again after a crash.
// Rules: docs/alerts.md, "How a step is applied"; the timer kind: docs/timers.md.
import { isConditionCheckFailed } from '../db/conditions.ts';
import { transact } from '../db/items.ts';
import { batchUnits, type WriteUnit } from '../db/writes.ts';
import { alertPk } from '../db/keys.ts';
import { sendWakeUps, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { deliveryUnits } from './batching.ts';
import { alertMessageOwner, decideMessages, messageUnits, type DeliveryPayload } from './effects.ts';
import { findAlert } from './store.ts';
import { markTimerFired } from '../timers/index.ts';


/**
 * Writes the units in transactions of at most 100 items. When a batch finds something already written (a second
 * firing after a crash part-way), every unit is written alone instead, and the units already there are skipped:
 * what is missing is written, nothing twice. Any other failure is thrown, leaving the timer pending.
 */
export async function writeMissing(units: readonly WriteUnit[]): Promise<void> {
  try {
    for (const batch of batchUnits(units)) await transact(batch);
    return;
  } catch (error) {
    if (!isConditionCheckFailed(error)) throw error;
  }
  for (const unit of units) {
    try {
      await transact(unit.writes);
    } catch (error) {
      if (!isConditionCheckFailed(error)) throw error;
    }
  }
}

/**
 * Fires a deliver timer: the alert's pages as the step decided them, at the step's instant (channels are chosen
 * for that instant), then the timer's fired marker. Delivered whatever happened to the alert since: the pages
 * were decided by a committed step. An alert deleted meanwhile gets nothing written.
 */
export async function onDeliverTimer(timer: DurableTimer, now: Date): Promise<void> {
  const alert = await findAlert(timer.accountId, timer.ownerId);
  const payload = timer.payload as unknown as DeliveryPayload;
  const carried = payload.timers ?? [];
  if (alert) {
    const at = Date.parse(payload.at);
    const units = await messageUnits(alertMessageOwner(alert), await decideMessages(alert, payload.messages, at), at);
    // Carried timers are stored as they were planned (each only if absent), so a second firing stores none twice.
    const timerUnits = timerPutItems(alertPk(alert.accountId, alert.id), carried, payload.at).map((write) => ({ writes: [write] }));
    await writeMissing([...timerUnits, ...deliveryUnits(alert, timer.timerId, payload.at, payload.logs, units)]);
    await markTimerFired(timer, now);
    // Units skipped as already written had fresh timer ids: their wake-ups find no timer and do nothing.
    await sendWakeUps([...carried, ...units.flatMap((unit) => unit.timers)]);
    return;
  }
  await markTimerFired(timer, now);
}
