// The next step of a person's notification cycle (docs/notifications.md, "The notification cycle"): a
// `notification_cycle` timer of the alert, scheduled by the page or the previous step. It sends only while the
// person is still being paged for that page: the alert open under the same epoch (no acknowledge or resolve since)
// and their workflow of that escalation, layer and pass still open (no layer timeout, reject, or hand-off).
import { alertPk } from '../db/keys.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { unchangedCheck, type TransactItem } from '../db/writes.ts';
import { cycleStep, isCyclePosition } from '../delivery/cycle.ts';
import { sendWakeUps, timerFiredItem, type DurableTimer } from '../timers/index.ts';
import { loadContacts } from './contacts.ts';
import { alertMessageOwner, messageUnits, stepLogPuts, type CyclePayload, type Message, type MessageDecision } from './effects.ts';
import type { AlertItem } from './items.ts';
import { findAlert, transactAlert } from './store.ts';
import { markTimerFired } from '../timers/index.ts';

/** Whether the page that started this cycle still stands: same epoch, alert open, the person's workflow open. */
function cycleContinues(alert: Pick<AlertItem, 'escalation'>, timer: Pick<DurableTimer, 'epoch'>, payload: CyclePayload): boolean {
  const state = alert.escalation;
  if (state.epoch !== timer.epoch || state.status !== 'open') return false;
  return state.workflows.some(
    (w) => w.escalation === payload.escalation && w.account_user_id === payload.account_user_id && w.layer === payload.layer && w.pass === payload.pass && w.status === 'open',
  );
}

const isCyclePayload = (value: unknown): value is CyclePayload => {
  const p = value as Partial<CyclePayload> | undefined;
  return typeof p?.account_user_id === 'string' && Array.isArray(p.actions) && isCyclePosition(p.position);
};

/**
 * Fires a cycle timer: the step's records, outbox messages and delivery timers (and the timer of the step after)
 * in one transaction with the fired marker, conditioned on the alert being unchanged since read, so an acknowledge
 * racing the step either comes first (nothing is sent) or makes the step read again.
 */
export async function onCycleTimer(timer: DurableTimer, now: Date): Promise<void> {
  const at = now.getTime();
  const pk = alertPk(timer.accountId, timer.ownerId);
  const payload = timer.payload;
  const timers = await retryOnConflict<DurableTimer[]>(
    async () => {
      const alert = await findAlert(timer.accountId, timer.ownerId);
      if (!alert || !isCyclePayload(payload) || !cycleContinues(alert, timer, payload)) {
        await markTimerFired(timer, now);
        return [];
      }
      const step = cycleStep(payload.actions, payload.position);
      const message: Message = {
        account_user_id: payload.account_user_id,
        type: 'alert.open',
        layer: payload.layer,
        pass: payload.pass,
        why: `Reminder: ${payload.why}`,
        escalation: payload.escalation,
      };
      const { contact, reason } = (await loadContacts(alert.accountId, [payload.account_user_id]))(payload.account_user_id);
      const cycle = step.next ? { actions: payload.actions, position: step.next.position, delayMs: step.next.delayMs } : undefined;
      const decision: MessageDecision = contact
        ? { message, kind: 'channels', contact, via: 'rule', channels: [...step.channels], ...(cycle ? { cycle } : {}) }
        : { message, kind: 'no_contact', reason: reason! };
      const units = await messageUnits(alertMessageOwner(alert), [decision], at);
      const writes: TransactItem[] = [
        unchangedCheck(alert),
        timerFiredItem(pk, timer, now),
        ...stepLogPuts(alert, units.map((unit) => unit.log), at),
        ...units.flatMap((unit) => unit.writes),
      ];
      await transactAlert(writes);
      return units.flatMap((unit) => unit.timers);
    },
    { exhausted: changedMeanwhile('Alert') },
  );
  await sendWakeUps(timers);
}
