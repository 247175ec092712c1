// The start of a schedule's durable daily gap check (lib/gap-check/check.ts runs it): its state item and first timer,
// written when a schedule gets events. Here, beside the events that start it, so the events resource does not import
// the check, which reads events, people and time off (decision 0034).
import { getItem, transact } from '../db/items.ts';
import { gapCheckKey } from '../db/keys.ts';
import { isConditionFailure } from '../db/repository.ts';
import { putNew } from '../db/writes.ts';
import { newId } from '../ids.ts';
import { sendWakeUps, timerPutItems, type DurableTimer } from '../timers/index.ts';

export const GAP_CHECK_KIND = 'gap_check';

export interface CheckState {
  pk: string;
  sk: string;
  version: number;
  /** The one timer of the chain that counts: a firing of any other is stale. */
  nextTimerId: string;
  /** Keys of the gaps already told (lib/gap-check/notice.ts, gapKey). */
  told: string[];
}

export function checkTimer(accountId: string, scheduleId: string, dueMs: number): DurableTimer {
  return { accountId, ownerType: 'schedule', ownerId: scheduleId, timerId: newId(), kind: GAP_CHECK_KIND, dueAt: new Date(dueMs).toISOString(), epoch: 0 };
}

/**
 * Starts the schedule's check chain unless it runs already: the state item and a first check due now, in one
 * transaction conditioned on the state being absent. Called after a schedule gets events (a schedule without
 * events has no gaps), so a schedule is checked from its first event on.
 */
export async function ensureGapCheck(accountId: string, scheduleId: string, nowMs: number): Promise<void> {
  const key = gapCheckKey(accountId, scheduleId);
  if (await getItem<CheckState>(key, { consistent: false })) return;
  const timer = checkTimer(accountId, scheduleId, nowMs);
  const state: CheckState = { ...key, version: 1, nextTimerId: timer.timerId, told: [] };
  try {
    await transact([putNew(state), ...timerPutItems(key.pk, [timer])]);
  } catch (error) {
    if (isConditionFailure(error)) return; // started meanwhile by another write
    throw error;
  }
  await sendWakeUps([timer]);
}
