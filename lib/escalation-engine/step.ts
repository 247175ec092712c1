// The escalation state machine: one pure step per event. No clock, no storage: `now` and the schedules are
// arguments, and everything to do is returned as plain effects. Rules and timelines: docs/alerts.md.
import type { ScheduleEvent } from '../schedule-engine/index.ts';
import { transition } from './status.ts';
import { scaledWait } from './timers.ts';
import type {
  AlertEscalation,
  Destination,
  Effect,
  Escalation,
  EscalationEvent,
  EscalationTimer,
  LogEvent,
  LogFields,
  OnCallAt,
  PageReason,
  PersonWorkflow,
  ScheduleEventsById,
  StepResult,
  WorkflowStatus,
} from './types.ts';

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
  switch (event.type) {
    case 'start':
      return start(state, event.destinations, event.schedules, event.reassignedFrom, now, onCallAt, event.delayedStarts ?? 0);
    case 'delayedStart':
      return delayedStart(state, event.epoch, event.destinations, event.schedules, now, onCallAt);
    case 'timerFired':
      return timerFired(state, event.timer, event.schedules, now, onCallAt);
    case 'acknowledge':
      return stopAll(state, 'acknowledge', event.by, now, event.via);
    case 'resolve':
      return stopAll(state, 'resolve', event.by, now, event.via);
    case 'reject':
      return reject(state, event.by, event.schedules, now, onCallAt);
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

const timerOf = (epoch: number, escalation: number, layer: number, pass: number, dueAt: number): EscalationTimer => ({
  kind: 'layer_timeout',
  dueAt,
  epoch,
  escalation,
  layer,
  pass,
});

/** The state being changed by one step, and the effects collected on the way. */
class Draft {
  status: AlertEscalation['status'];
  epoch: number;
  acknowledgedAt: number | null;
  resolvedAt: number | null;
  delayedStarts: number;
  readonly escalations: Escalation[];
  readonly workflows: PersonWorkflow[];
  readonly effects: Effect[] = [];
  private readonly base: AlertEscalation;
  readonly now: number;
  private readonly onCallAt: OnCallAt;
  private readonly schedules: ScheduleEventsById;

  constructor(base: AlertEscalation, now: number, onCallAt: OnCallAt, schedules: ScheduleEventsById) {
    this.base = base;
    this.now = now;
    this.onCallAt = onCallAt;
    this.schedules = schedules;
    this.status = base.status;
    this.epoch = base.epoch;
    this.acknowledgedAt = base.acknowledged_at;
    this.resolvedAt = base.resolved_at;
    this.delayedStarts = base.delayed_starts ?? 0;
    this.escalations = [...base.escalations];
    this.workflows = [...base.workflows];
  }

  result(): StepResult {
    const state: AlertEscalation = {
      status: this.status,
      epoch: this.epoch,
      time_scale: this.base.time_scale,
      acknowledged_at: this.acknowledgedAt,
      resolved_at: this.resolvedAt,
      escalations: this.escalations,
      workflows: this.workflows,
      ...(this.delayedStarts > 0 ? { delayed_starts: this.delayedStarts } : {}),
    };
    return { ok: true, state, effects: this.effects };
  }

  log(event: LogEvent, message: string, fields: LogFields): void {
    this.effects.push({ type: 'log', event, message, fields });
  }

  update(index: number, change: Partial<Escalation>): Escalation {
    const next = { ...(this.escalations[index] as Escalation), ...change };
    this.escalations[index] = next;
    return next;
  }

  /** Closes the matching open workflows with `status`; returns the ones closed. */
  closeWorkflows(match: (w: PersonWorkflow) => boolean, status: WorkflowStatus): PersonWorkflow[] {
    const closed: PersonWorkflow[] = [];
    this.workflows.forEach((w, i) => {
      if (w.status !== 'open' || !match(w)) return;
      this.workflows[i] = { ...w, status, closed_at: this.now };
      closed.push(w);
    });
    return closed;
  }

  /** Adds and enters an escalation for the destination. */
  begin(destination: Destination, reassignedFrom: number | null, startReason: PageReason = 'start'): void {
    const index = this.escalations.length;
    this.escalations.push({
      index,
      destination,
      reassigned_from: reassignedFrom,
      phase: 'waiting',
      layer: null,
      pass: 1,
      started_at: this.now,
      deadline_at: null,
      ended_reason: null,
    });
    const reason: PageReason = reassignedFrom === null ? startReason : 'reassigned';
    if (destination.kind === 'account_user') this.pageDirectly(index, destination.account_user_id, destination.timeout_ms, reason);
    else this.enterFrom(index, 0, 1, reason);
  }

  private pageDirectly(index: number, accountUserId: string, timeoutMs: number, reason: PageReason): void {
    this.page(index, [accountUserId], 1, 1, timeoutMs, reason);
  }

  /**
   * Pages the first layer with someone on call, trying layers from position `layerIndex` of pass `pass` on
   * (wrapping into the next pass); ends the escalation when the passes are done or a whole round of layers has
   * nobody on call at this instant.
   */
  enterFrom(index: number, layerIndex: number, pass: number, reason: PageReason): void {
    const escalation = this.escalations[index] as Escalation;
    const destination = escalation.destination;
    if (destination.kind !== 'team') throw new Error('only a team escalation has layers');
    const { layers, repeat } = destination.policy;
    const passes = repeat + 1;
    const onCall = this.onCallOf(destination.schedule_id);
    const team = { team_id: destination.team_id };
    let position = layerIndex;
    let currentPass = pass;
    let why = reason;
    for (let empty = 0; ; position++) {
      if (position >= layers.length) {
        position = 0;
        currentPass++;
        if (currentPass > passes) {
          this.end(index, `${passes} ${passes === 1 ? 'pass' : 'passes'} through the layers ended with no acknowledgement`);
          return;
        }
        why = 'repeat';
        this.log('repeated', `Pass ${currentPass} of ${passes}: team ${destination.team_id} is paged again from its first layer.`, { ...team, pass: currentPass });
      }
      const layer = layers[position] as (typeof layers)[number];
      const people = onCall(layer.layer);
      if (people.length > 0) {
        this.page(index, people, layer.layer, currentPass, layer.timeout_ms, why);
        return;
      }
      this.log('skipped', `Nobody is on call on layer ${layer.layer} of team ${destination.team_id}'s schedule; the layer is skipped.`, {
        ...team,
        layer: layer.layer,
        pass: currentPass,
      });
      if (++empty >= layers.length) {
        this.end(index, `nobody is on call on any layer of team ${destination.team_id}'s schedule`);
        return;
      }
    }
  }

  private page(index: number, people: readonly string[], layer: number, pass: number, timeoutMs: number, reason: PageReason): void {
    const dueAt = this.now + scaledWait(timeoutMs, this.base.time_scale);
    const destination = (this.escalations[index] as Escalation).destination;
    const teamId = destination.kind === 'team' ? destination.team_id : undefined;
    this.update(index, { phase: 'waiting', layer, pass, deadline_at: dueAt });
    for (const person of people) {
      this.workflows.push({ escalation: index, account_user_id: person, layer, pass, status: 'open', started_at: this.now, deadline_at: dueAt, closed_at: null });
      this.effects.push({ type: 'page', account_user_id: person, escalation: index, layer, pass, reason });
      const via = teamId === undefined ? 'directly' : `on layer ${layer} of team ${teamId} (pass ${pass})`;
      this.log('paged', `Account user ${person} is paged ${via}: ${REASON_TEXT[reason]}.`, {
        account_user_id: person,
        ...(teamId === undefined ? {} : { team_id: teamId }),
        layer,
        pass,
      });
    }
    this.effects.push({ type: 'scheduleTimer', timer: timerOf(this.epoch, index, layer, pass, dueAt) });
  }

  /** Nobody is left to page in this escalation: hand the alert to the policy's reassign targets, or end it. */
  end(index: number, why: string): void {
    const escalation = this.escalations[index] as Escalation;
    const destination = escalation.destination;
    const fields = fieldsOf(destination);
    if (destination.kind === 'team' && escalation.reassigned_from === null) {
      const { reassign_team_ids: teams, reassign_account_user_ids: users } = destination.policy;
      if (teams.length + users.length > 0) {
        this.update(index, { phase: 'reassigning', deadline_at: null, ended_reason: why });
        this.effects.push({ type: 'reassign', escalation: index, team_ids: teams, account_user_ids: users });
        this.log('reassigned', `Escalation of team ${destination.team_id} ended (${why}); the alert is reassigned to ${describeTargets(teams, users)}.`, fields);
        return;
      }
    }
    this.update(index, { phase: 'exhausted', deadline_at: null, ended_reason: why });
    this.log('exhausted', `Escalation of ${describe(destination)} ended: ${why}.`, fields);
  }

  /** An open alert with nothing left running is dropped, and the teams that had it are told. */
  settle(): void {
    if (this.status !== 'open') return;
    if (this.delayedStarts > 0) return; // a destination held back by a router is still to start
    if (this.escalations.some((e) => e.phase === 'waiting' || e.phase === 'reassigning')) return;
    this.status = 'dropped';
    const reason = this.escalations.length === 0 ? 'the alert has no destination to page' : 'nobody acknowledged and nobody is left to page';
    this.effects.push({ type: 'drop', reason });
    this.log('dropped', `Alert dropped: ${reason}.`, {});
    const teams = new Set<string>();
    for (const e of this.escalations) if (e.phase === 'exhausted' && e.destination.kind === 'team') teams.add(e.destination.team_id);
    for (const team_id of teams) this.effects.push({ type: 'notifyDrop', team_id });
  }

  /** Who is on call on a layer of the schedule now: every attendee of that layer's active entries, once, in entry order. */
  private onCallOf(scheduleId: string): (layer: number) => string[] {
    const events: readonly ScheduleEvent[] | undefined = this.schedules[scheduleId];
    if (events === undefined) throw new Error(`the events of schedule ${scheduleId} were not passed to the escalation step`);
    const entries = this.onCallAt(events, this.now);
    return (layer) => [...new Set(entries.filter((e) => e.layer === layer).flatMap((e) => e.attendees))];
  }
}

const REASON_TEXT: Record<PageReason, string> = {
  start: 'the alert arrived',
  timeout: 'the previous layer timed out',
  rejected: 'everyone paged on the previous layer rejected',
  repeat: 'a new pass through the layers',
  reassigned: 'the alert was reassigned here',
  delayed: "the router's delay before this destination ended",
};

const fieldsOf = (d: Destination): LogFields => (d.kind === 'team' ? { team_id: d.team_id } : { account_user_id: d.account_user_id });

const describe = (d: Destination): string => (d.kind === 'team' ? `team ${d.team_id}` : `the direct page of account user ${d.account_user_id}`);

function describeTargets(teams: readonly string[], users: readonly string[]): string {
  const parts = [...teams.map((t) => `team ${t}`), ...users.map((u) => `account user ${u}`)];
  return parts.join(', ');
}

function start(
  state: AlertEscalation,
  destinations: readonly Destination[],
  schedules: ScheduleEventsById,
  reassignedFrom: number | undefined,
  now: number,
  onCallAt: OnCallAt,
  delayedStarts = 0,
): StepResult {
  const draft = new Draft(state, now, onCallAt, schedules);
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
function delayedStart(state: AlertEscalation, epoch: number, destinations: readonly Destination[], schedules: ScheduleEventsById, now: number, onCallAt: OnCallAt): StepResult {
  if (state.status !== 'open' || epoch !== state.epoch || (state.delayed_starts ?? 0) === 0) return unchanged(state);
  const draft = new Draft(state, now, onCallAt, schedules);
  draft.delayedStarts -= 1;
  for (const destination of destinations) draft.begin(destination, null, 'delayed');
  draft.settle();
  return draft.result();
}

function timerFired(state: AlertEscalation, timer: EscalationTimer, schedules: ScheduleEventsById, now: number, onCallAt: OnCallAt): StepResult {
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

  const draft = new Draft(state, now, onCallAt, schedules);
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

function reject(state: AlertEscalation, by: string, schedules: ScheduleEventsById, now: number, onCallAt: OnCallAt): StepResult {
  const allowed = transition(state.status, 'reject');
  if (!allowed.ok) return allowed;
  if (openWorkflowsOf(state, by).length === 0) {
    return { ok: false, message: `account user ${by} has no open workflow on this alert; only a person being paged can reject it` };
  }
  const draft = new Draft(state, now, onCallAt, schedules);
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
  const draft = new Draft(state, now, () => [], {});
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
