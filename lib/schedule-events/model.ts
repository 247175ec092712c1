// Between stored EVENT items and the schedule engine's ScheduleEvent, and the API rendering of events.
import type { EntityItem } from '../db/repository.ts';
import { render } from '../db/repository.ts';
import { newPrefixId } from '../ids.ts';
import type { EventDraft, ScheduleEvent } from '../schedule-engine/index.ts';
import { ATTENDEE_TYPE, type EventAttendee, type EventData, type EventException } from './schema.ts';
import { floatingOfStored, ianaOf, instantFromUtcText, isoInZone, isoOfWall, wallTextOf } from './time.ts';

export type EventItem = EntityItem<EventData>;

/** Attendee rows in position order. */
export const attendeesInOrder = (data: EventData): EventAttendee[] => [...data.event_attendees].sort((a, b) => a.position - b.position);

/** The IANA zone the event computes with; Etc/UTC only for a stored zone that no longer resolves. */
export const ianaOfEvent = (data: EventData): string => ianaOf(data.time_zone) ?? 'Etc/UTC';

/** The engine's view of a stored event (a fresh object: the engine caches per object). */
export function toEngine(item: EventItem): ScheduleEvent {
  const d = item.data;
  return {
    id: item.id,
    layer: d.layer,
    timeZone: ianaOfEvent(d),
    start: wallTextOf(d.start_time),
    end: wallTextOf(d.end_time),
    repeat: d.repeat,
    ...(d.frequency !== null ? { frequency: d.frequency } : {}),
    ...(d.frequency_unit !== null ? { frequencyUnit: d.frequency_unit } : {}),
    ...(d.days_of_week.length > 0 ? { daysOfWeek: d.days_of_week } : {}),
    ...(d.repeat_end_datetime ? { repeatEnd: wallTextOf(d.repeat_end_datetime).slice(0, 10) } : {}),
    rotation: d.rotation,
    attendees: attendeesInOrder(d).map((a) => a.attendee_id),
    exceptions: d.exceptions.map((e) => e.start_datetime),
    ...(d.parent_id ? { parentId: d.parent_id } : {}),
    ...(d.remainder ? { remainder: true } : {}),
    scheduleIds: d.schedule_ids,
  };
}

/** A stored time re-rendered from its wall clock, so the offset always follows the zone rules in force. */
function renderWallTime(stored: string, iana: string): string {
  const floating = floatingOfStored(stored);
  return floating === undefined ? stored : isoOfWall(floating, iana);
}

function renderInstant(stored: string, iana: string): string {
  const ms = instantFromUtcText(stored);
  return ms === undefined ? stored : isoInZone(ms, iana);
}

/** API object of an event: common attributes, the stored fields, and iana_time_zone. */
export function renderEvent(item: EventItem): Record<string, unknown> {
  const d = item.data;
  const iana = ianaOfEvent(d);
  return {
    ...render(item),
    start_time: renderWallTime(d.start_time, iana),
    end_time: renderWallTime(d.end_time, iana),
    repeat_end_datetime: d.repeat_end_datetime === null ? null : renderWallTime(d.repeat_end_datetime, iana),
    iana_time_zone: iana,
    event_attendees: attendeesInOrder(d),
    exceptions: d.exceptions.map((e) => ({ id: e.id, start_datetime: renderInstant(e.start_datetime, iana) })),
  };
}

/** Attendee rows for account user ids in order, keeping the row ids of attendees already there. */
export function attendeeRows(accountUserIds: readonly string[], previous: readonly EventAttendee[] = []): EventAttendee[] {
  const reusable = [...previous].sort((a, b) => a.position - b.position);
  return accountUserIds.map((attendeeId, i) => {
    const at = reusable.findIndex((row) => row.attendee_id === attendeeId);
    const id = at >= 0 ? (reusable.splice(at, 1)[0] as EventAttendee).id : newPrefixId('ATTENDEE');
    return { id, attendee_id: attendeeId, attendee_type: ATTENDEE_TYPE, position: i + 1 };
  });
}

/** Exception rows for instants, keeping the rows (ids and text) of exceptions already there. */
export function exceptionRows(instants: readonly string[], previous: readonly EventException[], iana: string): EventException[] {
  const byMs = new Map(previous.map((e) => [instantFromUtcText(e.start_datetime), e]));
  const seen = new Set<number>();
  const rows: EventException[] = [];
  for (const text of instants) {
    const ms = instantFromUtcText(text);
    if (ms === undefined || seen.has(ms)) continue;
    seen.add(ms);
    rows.push(byMs.get(ms) ?? { id: newPrefixId('EXCEPTION'), start_datetime: isoInZone(ms, iana) });
  }
  return rows.sort((a, b) => (instantFromUtcText(a.start_datetime) ?? 0) - (instantFromUtcText(b.start_datetime) ?? 0));
}

/**
 * Stored data for an engine event (an action's updated original, or a new draft). `previous` is the stored
 * event it updates: its attendee and exception rows and its repeat_end text are kept where the engine left them
 * unchanged. The zone is stored as the first of `zoneTexts` (what clients sent) naming the engine's zone, else
 * as the IANA id.
 */
export function dataFromEngine(event: ScheduleEvent | EventDraft, previous: EventData | undefined, zoneTexts: readonly string[]): EventData {
  const iana = event.timeZone;
  const timeZone = zoneTexts.find((text) => ianaOf(text) === iana) ?? iana;
  const wall = (text: string) => isoOfWall(floatingOfStored(text) as number, iana);
  let repeatEnd: string | null = null;
  if (event.repeatEnd !== undefined) {
    const kept = previous?.repeat_end_datetime;
    const sameZone = previous !== undefined && ianaOfEvent(previous) === iana;
    repeatEnd = sameZone && kept && wallTextOf(kept).slice(0, 10) === event.repeatEnd ? kept : wall(`${event.repeatEnd}T00:00:00`);
  }
  return {
    start_time: wall(event.start),
    end_time: wall(event.end),
    time_zone: timeZone,
    layer: event.layer,
    repeat: event.repeat,
    frequency: event.frequency ?? null,
    frequency_unit: event.frequencyUnit ?? null,
    days_of_week: [...(event.daysOfWeek ?? [])],
    repeat_end_datetime: repeatEnd,
    rotation: event.rotation,
    parent_id: event.parentId ?? null,
    schedule_ids: [...event.scheduleIds],
    event_attendees: attendeeRows(event.attendees, previous?.event_attendees),
    exceptions: exceptionRows(event.exceptions, previous?.exceptions ?? [], iana),
    remainder: event.remainder === true,
  };
}
