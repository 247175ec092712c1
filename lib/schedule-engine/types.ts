export const FREQUENCY_UNITS = ['hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export type FrequencyUnit = (typeof FREQUENCY_UNITS)[number];

/**
 * A schedule calendar event as the engine sees it. Treated as an immutable value: the engine caches what it
 * derives from each event object, so change an event by making a new object (the planners do).
 */
export interface ScheduleEvent {
  readonly id: string;
  /** Escalation layer, integer ≥ 1. */
  readonly layer: number;
  /** IANA id (a listed Rails name is also accepted and resolved with ianaZoneOf). */
  readonly timeZone: string;
  /** Wall clock in timeZone, 'YYYY-MM-DDTHH:mm:ss', no offset. */
  readonly start: string;
  readonly end: string;
  readonly repeat: boolean;
  /** Required when repeat is true: every `frequency` `frequencyUnit`s. */
  readonly frequency?: number;
  readonly frequencyUnit?: FrequencyUnit;
  /** 0 = Sunday … 6 = Saturday; absent or empty = every day. */
  readonly daysOfWeek?: readonly number[];
  /** Local date 'YYYY-MM-DD' in timeZone; an occurrence starting on that day still happens. */
  readonly repeatEnd?: string;
  readonly rotation: boolean;
  /** Account user ids in position order. */
  readonly attendees: readonly string[];
  /** Start instants (ISO 8601 with offset, normally UTC) of occurrences that do not happen. */
  readonly exceptions: readonly string[];
  /** The event this one overrides, or was cut from (see `remainder`). */
  readonly parentId?: string;
  /**
   * Set on the pieces planOverride keeps of an overridden occurrence: they carry the original's coverage, so
   * unlike an override they take no precedence over other events on their layer.
   */
  readonly remainder?: boolean;
  readonly scheduleIds: readonly string[];
}

/** A new event planned by an action; the caller assigns its id. */
export type EventDraft = Omit<ScheduleEvent, 'id'>;

/** One occurrence of one event. Times are instants (epoch milliseconds). */
export interface Occurrence {
  readonly eventId: string;
  readonly layer: number;
  /** 0-based position in the event's sequence of occurrences (drives rotations). */
  readonly index: number;
  readonly startMs: number;
  readonly endMs: number;
  /** Who is on call: the on-duty attendee for a rotation, everyone otherwise. */
  readonly attendees: readonly string[];
}

/** One row of an on-call view: an occurrence, or the part of it an override leaves. */
export interface OnCallEntry extends Occurrence {
  /** Start and end of the whole occurrence (the action_time of add_exception, terminate_on, override). */
  readonly occurrenceStartMs: number;
  readonly occurrenceEndMs: number;
  /** The entry comes from an override event. */
  readonly override: boolean;
  /** Set when a rotation's on-duty attendee is away: the account user the attendee on call covers for. */
  readonly coveringFor?: string;
}

/** One stretch of time off: the account user is not on call in [startMs, endMs) except by an override. */
export interface Absence {
  readonly accountUserId: string;
  readonly startMs: number;
  readonly endMs: number;
}

/** What an action changes, applied by the caller in one transaction. */
export interface EventPlan {
  readonly updateOriginal?: ScheduleEvent;
  readonly deleteOriginal: boolean;
  readonly create: readonly EventDraft[];
}

export interface OverridePlan extends EventPlan {
  /** The override event; also the last element of `create`. */
  readonly override: EventDraft;
}

export interface OverrideInput {
  /** Wall clock in timeZone, 'YYYY-MM-DD HH:mm' (seconds and a T separator are also accepted). */
  readonly start: string;
  readonly end: string;
  readonly layer: number;
  /** IANA id or listed name. */
  readonly timeZone: string;
  readonly attendees: readonly string[];
}

export const isOverride = (event: ScheduleEvent): boolean =>
  event.parentId !== undefined && event.parentId !== null && event.remainder !== true;
