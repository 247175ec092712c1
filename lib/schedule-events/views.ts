// On-call views of a schedule: who is on call now, and during a window. Every occurrence comes from the
// schedule engine (onCallAt / occurrencesInWindow); this module only reads events and renders entries.
import { looksLikePrefixId } from '../ids.ts';
import { occurrencesInWindowAtMost, occurrencesPage, onCallAt, type OnCallEntry } from '../schedule-engine/index.ts';
import { getSchedule } from '../schedules/service.ts';
import { ATTENDEE_TYPE } from './schema.ts';
import { attendeesInOrder, ianaOfEvent, toEngine, type EventItem } from './model.ts';
import { eventsOfSchedule } from './store.ts';
import { isoInZone } from './time.ts';
import { MAX_WINDOW_ENTRIES } from '../limits.ts';
import { absencesOf } from '../time-off/service.ts';

export interface OnCallAttendee {
  attendee_id: string;
  attendee_type: typeof ATTENDEE_TYPE;
  position: number;
  /** On a cover's row only: the account user of the rotation who is away and whom this attendee covers for. */
  covering_for?: string;
}

/**
 * One row of current_oncall / window_events: an occurrence (or the part an override leaves of it). A year of a
 * busy schedule holds thousands of rows, so a row carries the event fields that describe the occurrence, not
 * the whole event (GET /events/:id has the rest).
 */
export interface OnCallView {
  /** The event's id. */
  id: string;
  layer: number;
  time_zone: string;
  rotation: boolean;
  parent_id: string | null;
  /** True when the row comes from an override event (it takes precedence on its layer). */
  override: boolean;
  /** When this row is on call, ISO 8601 with the offset in the event zone. */
  start_time: string;
  end_time: string;
  /**
   * Start of the whole occurrence this row belongs to (it differs from start_time where an override clips the
   * occurrence): the action_time for add_exception, terminate_on and override.
   */
  occurrence_start_time: string;
  /** Who is on call: the on-duty attendee of a rotation, every attendee otherwise. */
  attendees: OnCallAttendee[];
}

/**
 * MAX_LAMBDA_RESPONSE_BYTES is measured on the result document in which the body travels as a JSON string
 * (every quote escaped); status and headers take well under 2 KB of it.
 */
export const ENVELOPE_BYTES = 2_048;

/** Bytes one entry takes in the response: its JSON escaped inside the body string, plus up to 3 digits of rotation position. */
const entryBytes = (entry: OnCallView): number => Buffer.byteLength(JSON.stringify(JSON.stringify(entry)), 'utf8') - 2 + 4;

/**
 * The fewest bytes any entry can take: a 1-character zone name, no parent, no attendee, the shortest times. A window
 * holding more than (MAX_LAMBDA_RESPONSE_BYTES - ENVELOPE_BYTES) / (this + 1) entries cannot fit in one response,
 * which is what MAX_WINDOW_ENTRIES is (a unit test keeps them equal).
 */
export const SMALLEST_ENTRY_BYTES = entryBytes({
  id: '0'.repeat(26),
  layer: 1,
  time_zone: 'Z',
  rotation: true,
  parent_id: null,
  override: true,
  start_time: isoInZone(0, 'Etc/UTC'),
  end_time: isoInZone(0, 'Etc/UTC'),
  occurrence_start_time: isoInZone(0, 'Etc/UTC'),
  attendees: [],
});

/** The events of the schedule (404 when the schedule is not this account's); a prefix_id is resolved first. */
export async function scheduleEvents(accountId: string, scheduleId: string): Promise<EventItem[]> {
  if (looksLikePrefixId(scheduleId)) {
    const schedule = await getSchedule(accountId, scheduleId);
    return eventsOfSchedule(accountId, schedule.id);
  }
  // A canonical id: both reads at once.
  const [, events] = await Promise.all([getSchedule(accountId, scheduleId), eventsOfSchedule(accountId, scheduleId)]);
  return events;
}

function attendeesOf(entry: OnCallEntry, item: EventItem): OnCallAttendee[] {
  const rows = attendeesInOrder(item.data);
  const row = (attendeeId: string, position: number): OnCallAttendee => ({ attendee_id: attendeeId, attendee_type: ATTENDEE_TYPE, position });
  if (item.data.rotation && rows.length > 0 && entry.attendees.length === 1) {
    // The engine puts attendee (index mod n) on duty; its position says which turn of the rotation this is.
    const turn = rows[entry.index % rows.length];
    const onDuty = entry.attendees[0] as string;
    if (turn?.attendee_id === onDuty) return [row(onDuty, turn.position)];
    const cover = row(onDuty, rows.find((r) => r.attendee_id === onDuty)?.position ?? 0);
    return [entry.coveringFor !== undefined ? { ...cover, covering_for: entry.coveringFor } : cover];
  }
  return entry.attendees.map((id, i) => row(id, rows[i]?.attendee_id === id ? (rows[i] as { position: number }).position : i + 1));
}

export function render(entries: readonly OnCallEntry[], events: readonly EventItem[]): OnCallView[] {
  const byId = new Map(events.map((e) => [e.id, e]));
  return entries.map((entry) => {
    const item = byId.get(entry.eventId) as EventItem;
    const iana = ianaOfEvent(item.data);
    return {
      id: item.id,
      layer: entry.layer,
      time_zone: item.data.time_zone,
      rotation: item.data.rotation,
      parent_id: item.data.parent_id,
      override: entry.override,
      start_time: isoInZone(entry.startMs, iana),
      end_time: isoInZone(entry.endMs, iana),
      occurrence_start_time: isoInZone(entry.occurrenceStartMs, iana),
      attendees: attendeesOf(entry, item),
    };
  });
}

/** Who is on call in the schedule at the instant, all layers, sorted by layer then start; [] when nobody. */
export async function currentOncall(accountId: string, scheduleId: string, atMs: number): Promise<OnCallView[]> {
  const [events, away] = await Promise.all([scheduleEvents(accountId, scheduleId), absencesOf(accountId)]);
  return render(onCallAt(events.map(toEngine), atMs, away), events);
}

/**
 * Every occurrence overlapping [fromMs, toMs), with override clipping and time off, sorted by layer then start; entries
 * keep their whole times. For views of a bounded span (the console's two weeks): a window holding more than
 * MAX_WINDOW_ENTRIES gives its first page in time order (occurrencesPage), never an error.
 */
export async function windowEvents(accountId: string, scheduleId: string, fromMs: number, toMs: number): Promise<OnCallView[]> {
  const [events, away] = await Promise.all([scheduleEvents(accountId, scheduleId), absencesOf(accountId)]);
  const engine = events.map(toEngine);
  const whole = occurrencesInWindowAtMost(engine, fromMs, toMs, MAX_WINDOW_ENTRIES, away);
  return render(whole ?? occurrencesPage(engine, fromMs, toMs, fromMs, MAX_WINDOW_ENTRIES, away).entries, events);
}

/**
 * Size of the Lambda result that would carry the entries: each entry's JSON as escaped inside the result's body
 * string, measured once per event and attendee count (the other fields have a fixed length), summed.
 */
export function responseBytes(entries: readonly OnCallView[]): number {
  const sizes = new Map<string, number>();
  let total = ENVELOPE_BYTES;
  for (const entry of entries) {
    const key = `${entry.id}|${entry.override}|${entry.attendees.length}|${entry.attendees.some((a) => a.covering_for !== undefined)}`;
    let size = sizes.get(key);
    if (size === undefined) {
      size = entryBytes(entry);
      sizes.set(key, size);
    }
    total += size + 1;
  }
  return total;
}
