// The escalation engine: the alert lifecycle and the escalation state machine as pure functions (no clock, no
// storage, no queue; callers pass instants and schedules and apply the returned effects), plus the pure rules
// of durable timers. Rules: docs/alerts.md.
export { ALERT_ACTIONS, ALERT_STATUSES, allowedFrom, transition, type AlertAction, type AlertStatus, type TransitionResult } from './status.ts';
export type {
  AlertEscalation,
  Destination,
  Effect,
  Escalation,
  EscalationEvent,
  EscalationPhase,
  EscalationTimer,
  LayerCopy,
  LogEvent,
  LogFields,
  NotPaged,
  OnCallAt,
  PageReason,
  PersonWorkflow,
  PolicyCopy,
  ScheduleEventsById,
  StepResult,
  TimerKind,
  WorkflowStatus,
} from './types.ts';
export { LOG_EVENTS, TIMER_KINDS, WORKFLOW_STATUSES } from './types.ts';
export { DIRECT_PAGE_TIMEOUT_MS, accountUserDestination, copyPolicy, teamDestination, type PolicySource } from './destinations.ts';
export { newAlertEscalation, openWorkflowsOf, peopleToTell, pendingTimers, step } from './step.ts';
export {
  MAX_TIME_SCALE,
  MAX_WAKE_UP_DELAY_SECONDS,
  SWEEP_GRACE_MS,
  isCurrentFiring,
  isOverdue,
  onWakeUp,
  scaledWait,
  wakeUpDelaySeconds,
  type TimerRecord,
  type WakeUp,
} from './timers.ts';
