// The escalation state machine: one pure step per event. No clock, no storage: `now` and the schedules are
// arguments, and everything to do is returned as plain effects. Rules and timelines: docs/alerts.md.
import { describe, Draft, fieldsOf, timerOf, type StepReads } from './draft.ts';
import { transition } from './status.ts';
import type { AlertEscalation, Destination, Escalation, EscalationEvent, EscalationTimer, NotPaged, OnCallAt, PersonWorkflow, ScheduleEventsById, StepResult } from './types.ts';

/** A new alert's escalation state: queued, nothing started. */
export function newAlertEscalation(timeScale = 1): AlertEscalation {
  return { status: 'queued', epoch: 0, time_scale: timeScale, acknowledged_at: null, resolved_at: null, escalations: [], workflows: [] };
}

/**
 * Applies one event at `now`. Returns the next state and the effects to apply with it, or a refusal (the 422
 * message) for an action the alert does not allow. An event that no longer applies (a stale or early timer, a
 * repeated start) returns the state unchanged with no effects.
 */
export function step(state: AlertEscalation, event: EscalationEvent, now: number, onCallAt: OnCallAt): StepResult {
  const reads = (schedules: ScheduleEventsById, notPaged: NotPaged = {}): StepReads => ({ onCallAt, schedules, notPaged });
  switch (event.type) {
    case 'start':
      return start(state, event.destinations, event.reassignedFrom, now, reads(event.schedules, event.notPaged), event.delayedStarts ?? 0);
    case 'delayedStart':
      return delayedStart(state, event.epoch, event.destinations, now, reads(event.schedules, event.notPaged));
    case 'timerFired':
      return timerFired(state, event.timer, now, reads(event.schedules, event.notPaged));
    case 'acknowledge':
      return stopAll(state, 'acknowledge', event.by, now, event.via);
    case 'resolve':
      return stopAll(state, 'resolve', event.by, now, event.via);
    case 'reject':
      return reject(state, event.by, now, reads(event.schedules, event.notPaged));
  }
}

/** The workflows of the person that are open now (what POST /alerts/:id/reject requires). */
export const openWorkflowsOf = (state: AlertEscalation, accountUserId: string): PersonWorkflow[] =>
  state.workflows.filter((w) => w.account_user_id === accountUserId && w.status === 'open');

/** The timers the state waits on: one per waiting escalation (the sweeper's cross-check). */
export function pendingTimers(state: AlertEscalation): EscalationTimer[] {
  if (state.status !== 'open') return [];
  return state.escalations.flatMap((e) =>
    e.phase === 'waiting' && e.layer !== null && e.deadline_at !== null ? [timerOf(state.epoch, e.index, e.layer, e.pass, e.deadline_at)] : [],
  );
}

const unchanged = (state: AlertEscalation): StepResult => ({ ok: true, state, effects: [] });

function start(
  state: AlertEscalation,
  destinations: readonly Destination[],
  reassignedFrom: number | undefined,
  now: number,
  reads: StepReads,
  delayedStarts = 0,
): StepResult {
  const draft = new Draft(state, now, reads);
  if (reassignedFrom === undefined) {
    // Only a queued alert starts; a repeated start (a duplicated message) changes nothing.
    if (state.status !== 'queued') return unchanged(state);
    draft.status = 'open';
    draft.delayedStarts = delayedStarts;
    for (const destination of destinations) draft.begin(destination, null);
  } else {
    const from = state.escalations[reassignedFrom];
    if (state.status !== 'open' || from?.phase !== 'reassigning') return unchanged(state);
    if (destinations.length === 0) {
      // Every reassign target is gone (deleted since the policy was copied): nobody is left on this path.
      draft.update(reassignedFrom, { phase: 'exhausted' });
      draft.log('exhausted', `Escalation of ${describe(from.destination)} ended: none of its reassign targets exists any more.`, fieldsOf(from.destination));
    } else {
      draft.update(reassignedFrom, { phase: 'reassigned' });
    }
    for (const destination of destinations) draft.begin(destination, reassignedFrom);
  }
  draft.settle();
  return draft.result();
}

/**
 * A destination a router held back starts now, paged with reason `delayed`, unless the alert is no longer open
 * under the epoch the delay was scheduled in (acknowledged or resolved meanwhile) or no delayed start is pending
 * (a repeated firing): then nothing changes. A destination gone meanwhile starts nothing; the alert may then drop.
 */
function delayedStart(state: AlertEscalation, epoch: number, destinations: readonly Destination[], now: number, reads: StepReads): StepResult {
  if (state.status !== 'open' || epoch !== state.epoch || (state.delayed_starts ?? 0) === 0) return unchanged(state);
  const draft = new Draft(state, now, reads);
  draft.delayedStarts -= 1;
  for (const destination of destinations) draft.begin(destination, null, 'delayed');
  draft.settle();
  return draft.result();
}

function timerFired(state: AlertEscalation, timer: EscalationTimer, now: number, reads: StepReads): StepResult {
  const escalation = state.escalations[timer.escalation];
  const current =
    state.status === 'open' &&
    timer.epoch === state.epoch &&
    escalation?.phase === 'waiting' &&
    escalation.layer === timer.layer &&
    escalation.pass === timer.pass &&
    escalation.deadline_at === timer.dueAt;
  // An early wake-up is not a firing: the timer rules send it again with the remainder.
  if (!current || now < timer.dueAt) return unchanged(state);

  const draft = new Draft(state, now, reads);
  const { layer, pass } = timer;
  draft.closeWorkflows((w) => w.escalation === escalation.index && w.layer === layer && w.pass === pass, 'timed_out');
  const destination = escalation.destination;
  if (destination.kind === 'account_user') {
    draft.log('timeout', `The direct page of account user ${destination.account_user_id} timed out with no acknowledgement.`, {
      account_user_id: destination.account_user_id,
      layer,
      pass,
    });
    draft.end(escalation.index, 'the direct page timed out');
  } else {
    draft.log('timeout', `Layer ${layer} of team ${destination.team_id} timed out with no acknowledgement (pass ${pass}).`, {
      team_id: destination.team_id,
      layer,
      pass,
    });
    draft.enterFrom(escalation.index, positionOf(destination, layer) + 1, pass, 'timeout');
  }
  draft.settle();
  return draft.result();
}

function reject(state: AlertEscalation, by: string, now: number, reads: StepReads): StepResult {
  const allowed = transition(state.status, 'reject');
  if (!allowed.ok) return allowed;
  if (openWorkflowsOf(state, by).length === 0) {
    return { ok: false, message: `account user ${by} has no open workflow on this alert; only a person being paged can reject it` };
  }
  const draft = new Draft(state, now, reads);
  const rejected = draft.closeWorkflows((w) => w.account_user_id === by, 'rejected');
  for (const w of rejected) {
    const destination = (state.escalations[w.escalation] as Escalation).destination;
    draft.log('rejected', `Account user ${by} rejected the page${destination.kind === 'team' ? ` on layer ${w.layer} of team ${destination.team_id}` : ''}.`, {
      account_user_id: by,
      ...(destination.kind === 'team' ? { team_id: destination.team_id } : {}),
      layer: w.layer,
      pass: w.pass,
    });
  }
  for (const index of new Set(rejected.map((w) => w.escalation))) {
    const escalation = draft.escalations[index] as Escalation;
    const { layer, pass, destination } = escalation;
    const stillOpen = draft.workflows.some((w) => w.escalation === index && w.layer === layer && w.pass === pass && w.status === 'open');
    if (stillOpen || layer === null) continue;
    if (destination.kind === 'account_user') draft.end(index, `account user ${destination.account_user_id} rejected the direct page`);
    else draft.enterFrom(index, positionOf(destination, layer) + 1, pass, 'rejected');
  }
  draft.settle();
  return draft.result();
}

/**
 * Who hears of an acknowledgement or resolve: each person paged on the alert (any workflow, in the order first
 * paged), except the actor and anyone who already acted on it (acknowledged or rejected). docs/alerts.md, "Notifications".
 */
export function peopleToTell(state: AlertEscalation, by: string | null): string[] {
  const acted = new Set(state.workflows.filter((w) => w.status === 'acknowledged' || w.status === 'rejected').map((w) => w.account_user_id));
  if (by !== null) acted.add(by);
  return [...new Set(state.workflows.map((w) => w.account_user_id))].filter((person) => !acted.has(person));
}

/** Acknowledge or resolve: stops every escalation and cancels every timer (the epoch moves on). */
function stopAll(state: AlertEscalation, action: 'acknowledge' | 'resolve', by: string | null, now: number, via = 'the integration'): StepResult {
  const allowed = transition(state.status, action);
  if (!allowed.ok) return allowed;
  const draft = new Draft(state, now, { onCallAt: () => [], schedules: {}, notPaged: {} });
  draft.status = allowed.status;
  draft.epoch = state.epoch + 1;
  if (action === 'acknowledge') {
    draft.acknowledgedAt ??= now;
    if (by !== null) draft.closeWorkflows((w) => w.account_user_id === by, 'acknowledged');
  } else {
    draft.resolvedAt = now;
  }
  draft.closeWorkflows(() => true, 'closed');
  for (const e of state.escalations) {
    if (e.phase === 'waiting' || e.phase === 'reassigning') draft.update(e.index, { phase: 'stopped', deadline_at: null, ended_reason: `${action}d` });
  }
  const who = by === null ? `by ${via}` : `by account user ${by}`;
  draft.log(action === 'acknowledge' ? 'acknowledged' : 'resolved', `Alert ${action}d ${who}.`, by === null ? {} : { account_user_id: by });
  const told = peopleToTell(state, by);
  if (told.length > 0) draft.effects.push({ type: 'notifyStopped', action: `${action}d`, account_user_ids: told, by: by === null ? via : `account user ${by}` });
  return draft.result();
}

function positionOf(destination: Extract<Destination, { kind: 'team' }>, layer: number): number {
  const position = destination.policy.layers.findIndex((l) => l.layer === layer);
  if (position < 0) throw new Error(`layer ${layer} is not in the copied policy ${destination.policy.policy_id}`);
  return position;
}
