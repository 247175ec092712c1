// The on-call schedule engine: pure functions over events, no I/O and no clock (callers pass instants).
// Semantics for admins: docs/schedules.md.
export type {
  Absence,
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
export { occurrencesInWindow, occurrencesInWindowAtMost, onCallAt } from './views.ts';
export { gapsBetween, type Gap } from './gaps.ts';
export { occurrencesPage, type EntryPage } from './pages.ts';
export { occurrenceAt, planAddException, planOverride, planTerminateOn } from './actions.ts';
export { eventProblems } from './validate.ts';
export { NotAnOccurrenceError, ScheduleInputError } from './errors.ts';
// Wall clock ↔ instant in a zone, exactly as the engine reads event times; other domains (event and
// maintenance window times) use these so their answers agree with the engine's.
export { resolveZone, zoneClock, type ZoneClock } from './zone-clock.ts';
export { formatWallClock, parseLocalDate, parseWallClock } from './wall-clock.ts';
