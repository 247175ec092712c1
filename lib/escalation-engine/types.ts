// The escalation state of one alert as plain data, the events that move it and the effects it asks for.
// Times are instants in epoch milliseconds; the caller supplies "now". Rules: docs/alerts.md.
import type { OnCallEntry, ScheduleEvent } from '../schedule-engine/index.ts';
import type { AlertStatus } from './status.ts';

/**
 * Who is on call at an instant, for the events of one schedule: exactly the schedule engine's `onCallAt`, the
 * function the schedule views answer current_oncall with, so the service passes that function unchanged.
 */
export type OnCallAt = (events: readonly ScheduleEvent[], nowMs: number) => OnCallEntry[];

/** One layer of a copied policy: its number and its timeout, converted to milliseconds when copied. */
export interface LayerCopy {
  readonly layer: number;
  readonly timeout_ms: number;
}

/**
 * The escalation policy as it was when the alert reached the team: later edits of the policy never change an
 * escalation in flight. A layer has no targets of its own: its targets are the attendees on call on that
 * layer of the team's schedule, read when the layer is entered.
 */
export interface PolicyCopy {
  readonly policy_id: string;
  readonly repeat: number;
  /** Sorted by layer number; at least one. */
  readonly layers: readonly LayerCopy[];
  readonly reassign_team_ids: readonly string[];
  readonly reassign_account_user_ids: readonly string[];
}

/** A destination whose escalation runs: a team (its schedule, its policy copied) or one account user paged directly. */
export type Destination =
  | { readonly kind: 'team'; readonly team_id: string; readonly schedule_id: string; readonly policy: PolicyCopy }
  | { readonly kind: 'account_user'; readonly account_user_id: string; readonly timeout_ms: number };

/**
 * Where an escalation stands. `waiting`: people on the current layer are paged and the layer's timer runs.
 * `reassigning`: its passes are done and the policy's reassign targets are being started (effect `reassign`).
 * `reassigned`: they were started. `exhausted`: nobody is left to page. `stopped`: acknowledged or resolved.
 */
export type EscalationPhase = 'waiting' | 'reassigning' | 'reassigned' | 'exhausted' | 'stopped';

export interface Escalation {
  /** Position in `AlertEscalation.escalations`; timers and effects name an escalation by it. */
  readonly index: number;
  readonly destination: Destination;
  /** Index of the escalation whose policy reassigned the alert here; null for a destination of the alert itself. */
  readonly reassigned_from: number | null;
  readonly phase: EscalationPhase;
  /** Layer number being paged (the last one paged once it ends); null before any layer had someone on call. */
  readonly layer: number | null;
  /** 1-based pass through the layers. */
  readonly pass: number;
  readonly started_at: number;
  /** When the current layer times out; null unless waiting. */
  readonly deadline_at: number | null;
  /** Why it stopped paging, in words (for the workflow view); null while it runs. */
  readonly ended_reason: string | null;
}

export const WORKFLOW_STATUSES = ['open', 'acknowledged', 'rejected', 'timed_out', 'closed'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** One person paged on one layer of one pass of one escalation. */
export interface PersonWorkflow {
  readonly escalation: number;
  readonly account_user_id: string;
  readonly layer: number;
  readonly pass: number;
  readonly status: WorkflowStatus;
  readonly started_at: number;
  readonly deadline_at: number;
  readonly closed_at: number | null;
}

/** The escalation state of one alert. */
export interface AlertEscalation {
  readonly status: AlertStatus;
  /** Bumped by every transition that cancels all waiting (acknowledge, resolve): older timers are stale. */
  readonly epoch: number;
  /** Waits are divided by this (HARK_TIME_SCALE, 1 on AWS); instants stay real. */
  readonly time_scale: number;
  readonly acknowledged_at: number | null;
  readonly resolved_at: number | null;
  readonly escalations: readonly Escalation[];
  readonly workflows: readonly PersonWorkflow[];
  /**
   * Destinations a router holds back (`assign` with `delay`) whose start is still to come, each woken by its own
   * durable timer: while any is pending an open alert is not dropped. Absent means none.
   */
  readonly delayed_starts?: number;
}

export const TIMER_KINDS = ['layer_timeout'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

/** A durable timer of one alert, as stored and as carried by its wake-up message. */
export interface EscalationTimer {
  readonly kind: TimerKind;
  readonly dueAt: number;
  readonly epoch: number;
  readonly escalation: number;
  readonly layer: number;
  readonly pass: number;
}

/** The team schedules an event may need, by schedule id, as the schedule engine sees them. */
export type ScheduleEventsById = Readonly<Record<string, readonly ScheduleEvent[]>>;

/**
 * Account users a step must not page, each with why in words (for the alert's log): a layer or a direct page
 * skips them with a `skipped` note, as if they were not on call. The runner fills it (docs/alerts.md).
 */
export type NotPaged = Readonly<Record<string, string>>;

/**
 * What happens to an alert. Events that may enter a layer carry the events of the schedules involved
 * (`schedules`): the service reads them just before the step, so "on call" means on call at that instant; and
 * may carry who must not be paged (`notPaged`, none when absent).
 */
export type EscalationEvent =
  /** Starts escalations for destinations; with `reassignedFrom`, the follow-up of a `reassign` effect. */
  | {
      readonly type: 'start';
      readonly destinations: readonly Destination[];
      readonly schedules: ScheduleEventsById;
      readonly notPaged?: NotPaged;
      readonly reassignedFrom?: number;
      /** How many more destinations start later (router delays); each will come as a `delayedStart`. */
      readonly delayedStarts?: number;
    }
  /** A delayed destination's time came: starts it unless the alert was acknowledged or resolved since (`epoch`). */
  | { readonly type: 'delayedStart'; readonly epoch: number; readonly destinations: readonly Destination[]; readonly schedules: ScheduleEventsById; readonly notPaged?: NotPaged }
  | { readonly type: 'timerFired'; readonly timer: EscalationTimer; readonly schedules: ScheduleEventsById; readonly notPaged?: NotPaged }
  /** `by`: the account user acting; null for an integration, which `via` names in words (e.g. "integration int_…"). */
  | { readonly type: 'acknowledge'; readonly by: string | null; readonly via?: string }
  | { readonly type: 'resolve'; readonly by: string | null; readonly via?: string }
  | { readonly type: 'reject'; readonly by: string; readonly schedules: ScheduleEventsById; readonly notPaged?: NotPaged };

/** Why a layer was entered. */
export type PageReason = 'start' | 'timeout' | 'rejected' | 'repeat' | 'reassigned' | 'delayed';

export const LOG_EVENTS = [
  'paged',
  'skipped',
  'timeout',
  'rejected',
  'repeated',
  'reassigned',
  'exhausted',
  'dropped',
  'acknowledged',
  'resolved',
] as const;
export type LogEvent = (typeof LOG_EVENTS)[number];

export interface LogFields {
  readonly account_user_id?: string;
  readonly team_id?: string;
  readonly layer?: number;
  readonly pass?: number;
}

/** Plain data the service applies: the state change and these effects in one conditional write, then the follow-ups. */
export type Effect =
  | { readonly type: 'page'; readonly account_user_id: string; readonly escalation: number; readonly layer: number; readonly pass: number; readonly reason: PageReason }
  | { readonly type: 'scheduleTimer'; readonly timer: EscalationTimer }
  | { readonly type: 'log'; readonly event: LogEvent; readonly message: string; readonly fields: LogFields }
  /** Start escalations for these targets, then send `start` with `reassignedFrom: escalation`. */
  | { readonly type: 'reassign'; readonly escalation: number; readonly team_ids: readonly string[]; readonly account_user_ids: readonly string[] }
  | { readonly type: 'drop'; readonly reason: string }
  /** Tell the team's drop-notification recipients that the alert they had was dropped. */
  | { readonly type: 'notifyDrop'; readonly team_id: string }
  /**
   * Tell the people paged on the alert who have not acted (neither acknowledged nor rejected, and not the actor)
   * that it was acknowledged or resolved; `by` says who did, in words.
   */
  | { readonly type: 'notifyStopped'; readonly action: 'acknowledged' | 'resolved'; readonly account_user_ids: readonly string[]; readonly by: string };

/** The outcome of a step: the next state and its effects, or a refusal the API answers with 422. */
export type StepResult =
  | { readonly ok: true; readonly state: AlertEscalation; readonly effects: readonly Effect[] }
  | { readonly ok: false; readonly message: string };
