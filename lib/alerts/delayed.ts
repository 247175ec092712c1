// Destinations a router holds back (`assign` with `delay`): one durable `delayed_start` timer each, stored with
// the new alert; its firing starts that destination's escalation unless the alert was acknowledged or resolved
// meanwhile. Rules: docs/alerts.md, "Router destinations"; docs/routing.md, "Duplicates and delays".
import { scaledWait, type EscalationEvent } from '../escalation-engine/index.ts';
import { durationText } from '../routing/messages.ts';
import type { RoutedReceiver } from '../routing/index.ts';
import type { DurableTimer } from '../timers/index.ts';
import { accountUserDestinations, loadSchedules, scheduleIdsOf, teamDestinations } from './destinations.ts';
import { nextId } from './effects.ts';
import type { AlertItem, LogEntry } from './items.ts';

export const DELAYED_START_TIMER_KIND = 'delayed_start';

interface DelayedStartPayload {
  destination_kind: 'team' | 'account_user';
  destination_id: string;
  router_id: string | null;
}

/** The timer of each delayed receiver of `alert` (its state already started): due after the delay, divided by HARK_TIME_SCALE. */
export function delayedStartTimers(alert: AlertItem, receivers: readonly RoutedReceiver[], now: number): DurableTimer[] {
  return receivers.map((receiver) => {
    const payload: DelayedStartPayload = { destination_kind: receiver.kind, destination_id: receiver.id, router_id: receiver.router_id };
    return {
      accountId: alert.accountId,
      ownerType: 'alert',
      ownerId: alert.id,
      timerId: nextId(now),
      kind: DELAYED_START_TIMER_KIND,
      dueAt: new Date(now + scaledWait(receiver.delay_ms, alert.escalation.time_scale)).toISOString(),
      epoch: alert.escalation.epoch,
      payload: payload as unknown as Record<string, unknown>,
    };
  });
}

/** The log entry saying when a delayed receiver starts. */
export function delayedStartLog(receiver: RoutedReceiver, timer: DurableTimer): LogEntry {
  const noun = receiver.kind === 'team' ? `Team ${receiver.id}` : `Account user ${receiver.id}`;
  return {
    event: 'routed',
    message: `${noun} starts after ${durationText(receiver.delay_ms)} (at ${timer.dueAt}), held back by the router's delay, unless the alert is acknowledged or resolved first.`,
    router_id: receiver.router_id ?? undefined,
    ...(receiver.kind === 'team' ? { team_id: receiver.id } : { account_user_id: receiver.id }),
  };
}

/** The engine event of a delayed start's firing: the destination as it is now (its policy copied now; gone → none). */
export async function delayedStartEvent(accountId: string, timer: DurableTimer): Promise<EscalationEvent> {
  const payload = timer.payload as unknown as DelayedStartPayload;
  const destinations =
    payload.destination_kind === 'team'
      ? await teamDestinations(accountId, [payload.destination_id])
      : await accountUserDestinations(accountId, [payload.destination_id]);
  const schedules = await loadSchedules(accountId, scheduleIdsOf(destinations));
  return { type: 'delayedStart', epoch: timer.epoch, destinations, schedules };
}
