// The deliver timer: writes the notification records, outbox messages and log entries of a step that paged too
// many people for the step's own transaction (and the timers of a create holding back too many router delays to
// store with the alert), in batches that record their progress on the timer, safe to fire again after a crash.
// Rules: docs/alerts.md, "How a step is applied"; the timer kind: docs/timers.md.
import { isConditionCheckFailed, isConditionFailure } from '../db/conditions.ts';
import { getItem, transact } from '../db/items.ts';
import { batchUnits, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { alertPk } from '../db/keys.ts';
import { backoffDelayMs } from '../db/retry.ts';
import { isPending, markTimerFired, sendWakeUps, timerKey, timerProgressItem, timerPutItems, type DurableTimer, type TimerItem } from '../timers/index.ts';
import { deliveryBatches, deliveryUnits, type DeliveryPart } from './batching.ts';
import { alertMessageOwner, decideMessages, messageUnits, type DeliveryPayload } from './effects.ts';
import { findAlert } from './store.ts';

/**
 * Writes the units in transactions of at most 100 items. When a batch finds something already written (a second
 * firing after a crash part-way), every unit is written alone instead, and the units already there are skipped:
 * what is missing is written, nothing twice. Any other failure is thrown, leaving the timer pending.
 */
export async function writeMissing(units: readonly WriteUnit[], write: TransactWriter = transact): Promise<void> {
  try {
    for (const batch of batchUnits(units)) await write(batch);
    return;
  } catch (error) {
    if (!isConditionCheckFailed(error)) throw error;
  }
  for (const unit of units) {
    try {
      await write(unit.writes);
    } catch (error) {
      if (!isConditionCheckFailed(error)) throw error;
    }
  }
}

/** Writes one transaction; the firing's writer, which a test may wrap to stop a firing part-way. */
export type TransactWriter = (items: readonly TransactItem[]) => Promise<void>;

/** Consecutive lost races (TransactionConflict with no progress meanwhile) a firing retries before leaving the timer pending. */
const CONFLICT_RETRIES = 5;

/**
 * Fires a deliver timer: the alert's pages as the step decided them, at the step's instant (channels are chosen
 * for that instant), in transactions that each record on the timer how many parts are written, the last marking it
 * fired. Delivered whatever happened to the alert since: the pages were decided by a committed step. An alert
 * deleted meanwhile gets nothing written.
 */
export async function onDeliverTimer(timer: DurableTimer, now: Date, write: TransactWriter = transact): Promise<void> {
  const alert = await findAlert(timer.accountId, timer.ownerId);
  const payload = timer.payload as unknown as DeliveryPayload;
  const carried = payload.timers ?? [];
  if (!alert) {
    await markTimerFired(timer, now);
    return;
  }
  const at = Date.parse(payload.at);
  const units = await messageUnits(alertMessageOwner(alert), await decideMessages(alert, payload.messages, at), at);
  // Carried timers are stored as they were planned (each only if absent), then the left-out entries, then the messages.
  const pk = alertPk(alert.accountId, alert.id);
  const parts: DeliveryPart[] = [
    ...timerPutItems(pk, carried, payload.at).map((put) => ({ writes: [put] })),
    ...payload.logs.map((log) => ({ writes: [], log })),
    ...units.map((unit) => ({ writes: unit.writes, log: unit.log })),
  ];
  const outcome = await writeParts(timer, pk, payload.at, parts, now, write);
  if (outcome === 'legacy') {
    // A firing begun before entries were grouped wrote one item per entry: finish it that way.
    const timerUnits = parts.slice(0, carried.length).map((part) => ({ writes: [...part.writes] }));
    await writeMissing([...timerUnits, ...deliveryUnits(alert, timer.timerId, payload.at, payload.logs, units)], write);
  }
  // With parts, the last transaction marked the timer fired (or another firing's did).
  if (parts.length === 0 || outcome === 'legacy') await markTimerFired(timer, now);
  // Parts another firing wrote had other timer ids: their wake-ups find no timer and do nothing.
  await sendWakeUps([...carried, ...units.flatMap((unit) => unit.timers)]);
}

/**
 * Writes `parts` in transactions, each conditioned on the timer's progress (lib/timers, timerProgressItem). When
 * one fails, the timer read again says why: fired or gone (another firing finished: 'elsewhere'), further on
 * (another firing is writing: go on from there), or never started though something is there ('legacy': a firing
 * from before grouping). A lost race with no progress is retried a few times, then thrown (the timer stays pending).
 */
async function writeParts(timer: DurableTimer, pk: string, at: string, parts: readonly DeliveryPart[], now: Date, write: TransactWriter): Promise<'written' | 'elsewhere' | 'legacy'> {
  let start = 0;
  let conflicts = 0;
  const progress = (from: number, to: number, last: boolean) => timerProgressItem(pk, timer, { from, to, last }, now);
  for (;;) {
    let failure: unknown;
    try {
      for (const batch of deliveryBatches({ accountId: timer.accountId, id: timer.ownerId }, timer.timerId, at, parts, start, progress)) {
        await write(batch.writes);
        start = batch.to;
      }
      return 'written';
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      failure = error;
    }
    const stored = await getItem<TimerItem>(timerKey(timer), { consistent: true });
    if (!stored || !isPending(stored)) return 'elsewhere';
    const reached = stored.progress ?? 0;
    if (reached > start) {
      start = reached;
      conflicts = 0;
      continue;
    }
    if (stored.progress === undefined && isConditionCheckFailed(failure)) return 'legacy';
    if (++conflicts > CONFLICT_RETRIES) throw failure;
    await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(conflicts, Math.random())));
  }
}
