// The escalation runner: reads what a step needs, runs the pure engine (lib/escalation-engine), and applies the
// new state with every effect in ONE transaction conditioned on the alert's version; the wake-ups of new timers
// go out after the commit. Actions and timer firings that lose a race read again and repeat.
// Rules: docs/alerts.md, "How a step is applied".
import { nowMs } from '../clock.ts';
import { alertPk } from '../db/keys.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { invalid } from '../errors.ts';
import {
  step,
  type AlertEscalation,
  type Effect,
  type EscalationEvent,
  type EscalationTimer,
  type NotPaged,
  type OnCallAt,
  type ScheduleEventsById,
  type TimerKind,
} from '../escalation-engine/index.ts';
import { onCallAt } from '../schedule-engine/index.ts';
import { sendWakeUps, timerFiredItem, type DurableTimer } from '../timers/index.ts';
import { accountUserDestinations, loadSchedules, scheduleIdsOf, teamDestinations } from './destinations.ts';
import { onCycleTimer } from './cycle-timer.ts';
import { CYCLE_TIMER_KIND, DELIVER_TIMER_KIND, effectWrites, type PlannedWrites } from './effects.ts';
import { alertIndexKeys, type AlertItem, type LogEntry } from './items.ts';
import type { TransactItem } from '../db/writes.ts';
import { DELAYED_START_TIMER_KIND, delayedStartEvent } from './delayed.ts';
import { onDeliverTimer } from './deferred-pages.ts';
import { commitAlert, commitOverhead, findAlert, getAlertItem } from './store.ts';
import { markTimerFired } from '../timers/index.ts';
import { cachedNotJoinedOf } from '../accounts/joined.ts';
import { cachedAbsencesOf } from '../time-off/service.ts';

export type Advanced = { ok: true; state: AlertEscalation; effects: Effect[] } | { ok: false; message: string };

const isReassign = (e: Effect): e is Extract<Effect, { type: 'reassign' }> => e.type === 'reassign';

/**
 * One engine step, and the follow-up `start` of every reassign it asks for (targets' policies copied now), so a
 * hand-off is written in the same transaction as the step that caused it and can never be lost. Nobody who may not
 * be paged is: the people a step would page are read, and the step runs again without those who have not joined
 * the account (skipped with a note), until it pages only people who may be paged (docs/alerts.md, "Who is paged").
 */
export async function advance(accountId: string, state: AlertEscalation, event: EscalationEvent, now: number): Promise<Advanced> {
  let notPaged: NotPaged = {};
  const checked = new Set<string>();
  // Time off is read once per step: the one on-call function then leaves out whoever is away (docs/schedules.md).
  const away = 'schedules' in event ? await cachedAbsencesOf(accountId) : [];
  const onCall: OnCallAt = (events, at) => onCallAt(events, at, away);
  for (;;) {
    const result = await advanceOnce(accountId, state, event, now, notPaged, onCall);
    if (!result.ok) return result;
    const unchecked = [...new Set(result.effects.flatMap((e) => (e.type === 'page' ? [e.account_user_id] : [])))].filter((id) => !checked.has(id));
    unchecked.forEach((id) => checked.add(id));
    const found = await cachedNotJoinedOf(accountId, unchecked);
    if (Object.keys(found).length === 0) return result;
    notPaged = { ...notPaged, ...found };
  }
}

/** Who must not be paged joins the events that may page (those carrying schedules). */
const withNotPaged = (event: EscalationEvent, notPaged: NotPaged): EscalationEvent => ('schedules' in event ? { ...event, notPaged } : event);

async function advanceOnce(accountId: string, state: AlertEscalation, event: EscalationEvent, now: number, notPaged: NotPaged, onCall: OnCallAt): Promise<Advanced> {
  const first = step(state, withNotPaged(event, notPaged), now, onCall);
  if (!first.ok) return first;
  let current = first.state;
  const effects = [...first.effects];
  let pending = first.effects.filter(isReassign);
  while (pending.length > 0) {
    const next: Extract<Effect, { type: 'reassign' }>[] = [];
    for (const reassign of pending) {
      const destinations = [...(await teamDestinations(accountId, reassign.team_ids)), ...(await accountUserDestinations(accountId, reassign.account_user_ids))];
      const schedules = await loadSchedules(accountId, scheduleIdsOf(destinations));
      const started = step(current, { type: 'start', destinations, schedules, notPaged, reassignedFrom: reassign.escalation }, now, onCall);
      if (!started.ok) throw new Error(started.message);
      current = started.state;
      effects.push(...started.effects);
      next.push(...started.effects.filter(isReassign));
    }
    pending = next;
  }
  return { ok: true, state: current, effects };
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The alert with `state` as its escalation state: status, timestamps and the status index follow it. */
export function withState(alert: AlertItem, state: AlertEscalation, now: number): AlertItem {
  return {
    ...alert,
    ...alertIndexKeys(alert.accountId, alert.id, alert.createdAt, state.status),
    version: alert.version + 1,
    updatedAt: new Date(now).toISOString(),
    escalation: state,
    data: { ...alert.data, status: state.status, acknowledged_at: isoOrNull(state.acknowledged_at), resolved_at: isoOrNull(state.resolved_at) },
  };
}

/** The schedules a step of this state may read (only escalations still waiting enter layers). */
export const schedulesOfState = (accountId: string, state: AlertEscalation): Promise<ScheduleEventsById> =>
  loadSchedules(accountId, scheduleIdsOf([], state));

/**
 * Applies one event to a stored alert: read, step, one conditional transaction; a lost race reads again. A
 * refusal of the engine is the 422 it words. Returns the alert as written. `extraWrites` join the transaction (the
 * webhook worker's once-per-request marker, docs/ingest.md).
 */
export async function applyToAlert(
  accountId: string,
  idOrPrefixId: string,
  eventOf: (alert: AlertItem) => Promise<EscalationEvent> | EscalationEvent,
  extraLogs: readonly LogEntry[] = [],
  extraWrites: readonly TransactItem[] = [],
  known?: AlertItem,
): Promise<AlertItem> {
  const { alert, planned } = await retryOnConflict(
    async (attempt) => {
      // The alert the caller just read serves the first attempt: the write is conditioned on its version anyway.
      const current = attempt === 1 && known ? known : await getAlertItem(accountId, idOrPrefixId);
      const now = nowMs();
      const result = await advance(accountId, current.escalation, await eventOf(current), now);
      if (!result.ok) throw invalid(result.message);
      const next = withState(current, result.state, now);
      const planned = await effectWrites(next, result.effects, now, extraLogs, commitOverhead(current, next) + extraWrites.length);
      await commitAlert(current, next, [...planned.writes, ...extraWrites]);
      return { alert: next, planned };
    },
    { exhausted: changedMeanwhile('Alert') },
  );
  await sendWakeUps(planned.timers);
  return alert;
}

/** The engine's view of a stored timer (its payload names the escalation, layer and pass). */
export function escalationTimerOf(timer: DurableTimer): EscalationTimer {
  const payload = timer.payload ?? {};
  return {
    kind: timer.kind as TimerKind,
    dueAt: Date.parse(timer.dueAt),
    epoch: timer.epoch,
    escalation: Number(payload.escalation),
    layer: Number(payload.layer),
    pass: Number(payload.pass),
  };
}

/**
 * The timers worker's handler for alert timers. A deliver timer writes the pages of a large step (./deferred-pages.ts).
 * A delayed start is `step(delayedStart)` (./delayed.ts) and a layer timeout `step(timerFired)`, each at `now`
 * and written with the timer's fired marker in the same transaction, so two firings of one timer cannot both page. A stale or duplicate firing
 * (the epoch moved on, the layer was left, the alert is gone) only marks the timer fired.
 */
export async function onAlertTimer(timer: DurableTimer, now: Date): Promise<void> {
  if (timer.kind === DELIVER_TIMER_KIND) return onDeliverTimer(timer, now);
  if (timer.kind === CYCLE_TIMER_KIND) return onCycleTimer(timer, now);
  const at = now.getTime();
  const escalationTimer = escalationTimerOf(timer);
  if (at < Date.parse(timer.dueAt)) return; // early: the wake-up rules send it again with the remainder
  const planned = await retryOnConflict<PlannedWrites | undefined>(
    async () => {
      const alert = await findAlert(timer.accountId, timer.ownerId);
      if (!alert) {
        await markTimerFired(timer, now);
        return undefined;
      }
      const event: EscalationEvent =
        timer.kind === DELAYED_START_TIMER_KIND
          ? await delayedStartEvent(alert.accountId, timer)
          : { type: 'timerFired', timer: escalationTimer, schedules: await schedulesOfState(alert.accountId, alert.escalation) };
      const result = await advance(alert.accountId, alert.escalation, event, at);
      if (!result.ok || result.state === alert.escalation) {
        await markTimerFired(timer, now);
        return undefined;
      }
      const next = withState(alert, result.state, at);
      const writes = await effectWrites(next, result.effects, at, [], commitOverhead(alert, next) + 1);
      await commitAlert(alert, next, [timerFiredItem(alertPk(alert.accountId, alert.id), timer, now), ...writes.writes]);
      return writes;
    },
    { exhausted: changedMeanwhile('Alert') },
  );
  if (planned) await sendWakeUps(planned.timers);
}
