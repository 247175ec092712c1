// Destinations a router holds back (`assign` with `delay`): one durable `delayed_start` timer per distinct delay,
// stored with the new alert; its firing starts that destination's escalation unless the alert was acknowledged or resolved
// meanwhile. Rules: docs/alerts.md, "Router destinations"; docs/routing.md, "Duplicates and delays".
import { scaledWait, type EscalationEvent } from '../escalation-engine/index.ts';
import { durationText } from '../routing-engine/messages.ts';
import type { RoutedReceiver } from '../routing-engine/index.ts';
import type { DurableTimer } from '../timers/index.ts';
import { accountUserDestinations, loadSchedules, scheduleIdsOf, teamDestinations } from './destinations.ts';
import { alertTimer } from './effects.ts';
import type { AlertItem, LogEntry } from './items.ts';

export const DELAYED_START_TIMER_KIND = 'delayed_start';

interface DelayedStartPayload {
  destinations: { kind: 'team' | 'account_user'; id: string; router_id: string | null }[];
}

/** The delayed receivers grouped by delay, shortest first: each group starts together, from one timer. */
export function delayGroups(receivers: readonly RoutedReceiver[]): RoutedReceiver[][] {
  const byDelay = new Map<number, RoutedReceiver[]>();
  for (const receiver of receivers) byDelay.set(receiver.delay_ms, [...(byDelay.get(receiver.delay_ms) ?? []), receiver]);
  return [...byDelay.entries()].sort(([a], [b]) => a - b).map(([, group]) => group);
}

/**
 * The timer of each group of delayed receivers of `alert` (its state already started): due after the delay,
 * divided by HARK_TIME_SCALE; one per distinct delay, so many receivers held back alike cost one item.
 */
export function delayedStartTimers(alert: AlertItem, groups: readonly (readonly RoutedReceiver[])[], now: number): DurableTimer[] {
  return groups.map((group) => {
    const payload: DelayedStartPayload = { destinations: group.map((r) => ({ kind: r.kind, id: r.id, router_id: r.router_id })) };
    return alertTimer(alert, DELAYED_START_TIMER_KIND, new Date(now + scaledWait(group[0]!.delay_ms, alert.escalation.time_scale)).toISOString(), payload, now);
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

/** The engine event of a delayed start's firing: the destinations as they are now (policies copied now; gone → left out). */
export async function delayedStartEvent(accountId: string, timer: DurableTimer): Promise<EscalationEvent> {
  const payload = timer.payload as unknown as DelayedStartPayload;
  const idsOf = (kind: 'team' | 'account_user') => payload.destinations.filter((d) => d.kind === kind).map((d) => d.id);
  const destinations = [...(await teamDestinations(accountId, idsOf('team'))), ...(await accountUserDestinations(accountId, idsOf('account_user')))];
  const schedules = await loadSchedules(accountId, scheduleIdsOf(destinations));
  return { type: 'delayedStart', epoch: timer.epoch, destinations, schedules };
}
