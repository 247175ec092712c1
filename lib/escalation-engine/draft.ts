// The state one escalation step changes (lib/escalation-engine/step.ts): the draft of the next state, the effects
// collected on the way, and how a layer or a direct page picks the people it pages. Pure. Rules: docs/alerts.md.
import type { ScheduleEvent } from '../schedule-engine/index.ts';
import { scaledWait } from './timers.ts';
import type {
  AlertEscalation,
  Destination,
  Effect,
  Escalation,
  EscalationTimer,
  LogEvent,
  LogFields,
  NotPaged,
  OnCallAt,
  PageReason,
  PersonWorkflow,
  ScheduleEventsById,
  StepResult,
  WorkflowStatus,
} from './types.ts';

export const timerOf = (epoch: number, escalation: number, layer: number, pass: number, dueAt: number): EscalationTimer => ({
  kind: 'layer_timeout',
  dueAt,
  epoch,
  escalation,
  layer,
  pass,
});

/** What a step reads besides the state: who is on call (the schedule engine's onCallAt, the schedules' events) and who must not be paged. */
export interface StepReads {
  readonly onCallAt: OnCallAt;
  readonly schedules: ScheduleEventsById;
  readonly notPaged: NotPaged;
}

/** The state being changed by one step, and the effects collected on the way. */
export class Draft {
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
  private readonly reads: StepReads;

  constructor(base: AlertEscalation, now: number, reads: StepReads) {
    this.base = base;
    this.now = now;
    this.reads = reads;
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
    if (this.pageable([accountUserId], { account_user_id: accountUserId, layer: 1, pass: 1 }, 'directly').length === 0) {
      this.end(index, `account user ${accountUserId} cannot be paged: ${this.reads.notPaged[accountUserId]}`);
      return;
    }
    this.page(index, [accountUserId], 1, 1, timeoutMs, reason);
  }

  /**
   * The people who may be paged; each one the step must not page is skipped with a `skipped` note saying why
   * (an account user who has not accepted the account's invitation: docs/people.md, "People between accounts").
   */
  private pageable(people: readonly string[], fields: LogFields, where: string): string[] {
    const { notPaged } = this.reads;
    for (const person of people.filter((p) => notPaged[p] !== undefined)) {
      this.log('skipped', `Account user ${person} is not paged ${where}: ${notPaged[person]}.`, { ...fields, account_user_id: person });
    }
    return people.filter((p) => notPaged[p] === undefined);
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
    let skippedSomeone = false;
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
      const fields = { ...team, layer: layer.layer, pass: currentPass };
      const onCallNow = onCall(layer.layer);
      const people = this.pageable(onCallNow, fields, `on layer ${layer.layer} of team ${destination.team_id} (pass ${currentPass})`);
      if (people.length > 0) {
        this.page(index, people, layer.layer, currentPass, layer.timeout_ms, why);
        return;
      }
      skippedSomeone ||= onCallNow.length > 0;
      const nobody = onCallNow.length === 0 ? 'Nobody is on call' : 'Nobody who can be paged is on call';
      this.log('skipped', `${nobody} on layer ${layer.layer} of team ${destination.team_id}'s schedule; the layer is skipped.`, fields);
      if (++empty >= layers.length) {
        this.end(index, `nobody ${skippedSomeone ? 'who can be paged ' : ''}is on call on any layer of team ${destination.team_id}'s schedule`);
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
    const events: readonly ScheduleEvent[] | undefined = this.reads.schedules[scheduleId];
    if (events === undefined) throw new Error(`the events of schedule ${scheduleId} were not passed to the escalation step`);
    const entries = this.reads.onCallAt(events, this.now);
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

export const fieldsOf = (d: Destination): LogFields => (d.kind === 'team' ? { team_id: d.team_id } : { account_user_id: d.account_user_id });

export const describe = (d: Destination): string => (d.kind === 'team' ? `team ${d.team_id}` : `the direct page of account user ${d.account_user_id}`);

function describeTargets(teams: readonly string[], users: readonly string[]): string {
  const parts = [...teams.map((t) => `team ${t}`), ...users.map((u) => `account user ${u}`)];
  return parts.join(', ');
}
