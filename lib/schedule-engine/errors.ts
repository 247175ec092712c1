// Failures of schedule actions. Each message names the request field so the API can answer 422 with it as is.

export class ScheduleInputError extends Error {
  readonly messages: readonly string[];

  constructor(messages: string | readonly string[]) {
    const list = typeof messages === 'string' ? [messages] : messages;
    super(list.join('; '));
    this.name = 'ScheduleInputError';
    this.messages = list;
  }
}

/** action_time is not the start of an occurrence; carries the nearest starts so the client can correct it. */
export class NotAnOccurrenceError extends ScheduleInputError {
  readonly actionMs: number;
  readonly previousStartMs: number | undefined;
  readonly nextStartMs: number | undefined;

  constructor(actionMs: number, previousStartMs: number | undefined, nextStartMs: number | undefined) {
    super(`action_time ${iso(actionMs)} is not the start of an occurrence of this event; ${nearest(previousStartMs, nextStartMs)}`);
    this.name = 'NotAnOccurrenceError';
    this.actionMs = actionMs;
    this.previousStartMs = previousStartMs;
    this.nextStartMs = nextStartMs;
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

function nearest(before: number | undefined, after: number | undefined): string {
  if (before !== undefined && after !== undefined) return `the nearest occurrences start at ${iso(before)} and ${iso(after)}`;
  if (before !== undefined) return `the last occurrence starts at ${iso(before)}`;
  if (after !== undefined) return `the next occurrence starts at ${iso(after)}`;
  return 'the event has no occurrences';
}
