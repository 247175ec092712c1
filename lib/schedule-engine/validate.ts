import { FREQUENCY_UNITS, type ScheduleEvent } from './types.ts';
import { parseInstant, parseLocalDate, parseWallClock, startOfDay } from './wall-clock.ts';
import { resolveZone } from './zone-clock.ts';

/**
 * What keeps the engine from reading an event, as 422 messages naming the API fields; empty when valid.
 * The engine itself never throws on a bad stored event: it puts nobody on call for it, so one broken event
 * cannot take a whole schedule's answer down. Check events with this before storing them.
 */
export function eventProblems(event: ScheduleEvent): string[] {
  const problems: string[] = [];
  const startF = parseWallClock(event.start);
  const endF = parseWallClock(event.end);
  if (!Number.isInteger(event.layer) || event.layer < 1) problems.push('layer must be an integer of at least 1');
  if (!resolveZone(event.timeZone)) problems.push('time_zone is not a valid time zone');
  if (startF === undefined) problems.push('start_time must be a wall-clock time YYYY-MM-DDTHH:mm:ss');
  if (endF === undefined) problems.push('end_time must be a wall-clock time YYYY-MM-DDTHH:mm:ss');
  if (startF !== undefined && endF !== undefined && endF <= startF) problems.push('end_time must be after start_time');
  if (event.attendees.length === 0) problems.push('account_user_ids must name at least one account user');
  if (event.exceptions.some((e) => !Number.isFinite(parseInstant(e)))) {
    problems.push('exceptions must be ISO 8601 instants');
  }
  if (event.repeat) problems.push(...repeatProblems(event, startF));
  return problems;
}

function repeatProblems(event: ScheduleEvent, startF: number | undefined): string[] {
  const problems: string[] = [];
  const { frequency, frequencyUnit, daysOfWeek, repeatEnd } = event;
  if (!Number.isInteger(frequency) || (frequency as number) < 1) problems.push('frequency must be an integer of at least 1');
  if (!frequencyUnit || !FREQUENCY_UNITS.includes(frequencyUnit)) {
    problems.push(`frequency_unit must be one of ${FREQUENCY_UNITS.join(', ')}`);
  }
  if (daysOfWeek?.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) {
    problems.push('days_of_week must hold integers from 0 (Sunday) to 6 (Saturday)');
  }
  if (repeatEnd !== undefined) {
    const endDayF = parseLocalDate(repeatEnd);
    if (endDayF === undefined) problems.push('repeat_end_datetime must be a date YYYY-MM-DD');
    else if (startF !== undefined && endDayF < startOfDay(startF)) problems.push('repeat_end_datetime must not be before start_time');
  }
  return problems;
}
