// The on-call schedule engine: pure functions over events, no I/O and no clock (callers pass instants).
// Semantics for admins: docs/schedules.md.
export type {
  EventDraft,
  EventPlan,
  FrequencyUnit,
  Occurrence,
  OnCallEntry,
  OverrideInput,
  OverridePlan,
  ScheduleEvent,
} from './types.ts';
export { FREQUENCY_UNITS, isOverride } from './types.ts';
export { occurrencesBetween } from './expand.ts';
export { occurrencesInWindow, onCallAt } from './views.ts';
export { occurrenceAt, planAddException, planOverride, planTerminateOn } from './actions.ts';
export { eventProblems } from './validate.ts';
export { NotAnOccurrenceError, ScheduleInputError } from './errors.ts';
