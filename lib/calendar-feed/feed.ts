// The calendar feeds: a schedule's shifts, or one person's shifts across every schedule, from ICAL_PAST_DAYS back
// to ICAL_FUTURE_DAYS ahead, as the one on-call function answers them (overrides, exceptions and time off
// included). docs/schedules.md, "Calendar feeds".
import { createHash } from 'node:crypto';
import { namesFor } from '../activity/names.ts';
import { findEntity } from '../db/repository.ts';
import { toEngine, type EventItem } from '../schedule-events/model.ts';
import { eventsOfSchedule, listEvents } from '../schedule-events/store.ts';
import { occurrencesInWindowAtMost, occurrencesPage, type Absence } from '../schedule-engine/index.ts';
import type { ScheduleData } from '../schedules/schema.ts';
import { absencesOf } from '../time-off/service.ts';
import { ICAL_FUTURE_DAYS, ICAL_MAX_SHIFTS, ICAL_PAST_DAYS } from '../limits.ts';
import { calendarText, type FeedEvent } from './ical-text.ts';
import type { FeedOwner } from './tokens.ts';

const DAY_MS = 86_400_000;

export interface Feed {
  readonly text: string;
  /** A strong validator of the text: equal feeds, equal ETags. */
  readonly etag: string;
}

interface Shift {
  scheduleId: string;
  scheduleName: string;
  eventId: string;
  index: number;
  layer: number;
  startMs: number;
  endMs: number;
  person: string;
  coveringFor?: string;
  override: boolean;
  stampMs: number;
}

/** The shifts of one schedule overlapping the window, one per person per entry. */
function shiftsOf(scheduleId: string, scheduleName: string, events: readonly EventItem[], away: readonly Absence[], fromMs: number, toMs: number, nowMs: number): Shift[] {
  const stamps = new Map(events.map((e) => [e.id, Date.parse(e.updatedAt)]));
  const engine = events.map(toEngine);
  // A feed is one answer: past ICAL_MAX_SHIFTS entries it keeps the ones from now on, built a page at a time.
  const entries =
    occurrencesInWindowAtMost(engine, fromMs, toMs, ICAL_MAX_SHIFTS, away) ?? occurrencesPage(engine, nowMs, toMs, nowMs, ICAL_MAX_SHIFTS, away).entries;
  return entries.flatMap((entry) =>
    entry.attendees.map((person) => ({
      scheduleId,
      scheduleName,
      eventId: entry.eventId,
      index: entry.index,
      layer: entry.layer,
      startMs: entry.startMs,
      endMs: entry.endMs,
      person,
      ...(entry.coveringFor !== undefined ? { coveringFor: entry.coveringFor } : {}),
      override: entry.override,
      stampMs: stamps.get(entry.eventId) ?? 0,
    })),
  );
}

/** The same shift has the same UID in every refresh and in both the schedule's and the person's feed. */
const uidOf = (s: Shift): string =>
  `${createHash('sha256').update(`${s.scheduleId}|${s.eventId}|${s.index}|${s.startMs}|${s.person}`).digest('hex').slice(0, 32)}@hark`;

async function feedEvents(accountId: string, shifts: readonly Shift[]): Promise<FeedEvent[]> {
  const names = await namesFor(accountId, { people: shifts.flatMap((s) => (s.coveringFor ? [s.person, s.coveringFor] : [s.person])) });
  return [...shifts]
    .sort((a, b) => a.startMs - b.startMs || a.layer - b.layer || (uidOf(a) < uidOf(b) ? -1 : 1))
    .map((s) => {
      const notes = [
        ...(s.coveringFor ? [`Covering for ${names.person(s.coveringFor)}, who is away.`] : []),
        ...(s.override ? ['An override.'] : []),
      ];
      return {
        uid: uidOf(s),
        startMs: s.startMs,
        endMs: s.endMs,
        summary: `On call: ${s.scheduleName} · layer ${s.layer} · ${names.person(s.person)}`,
        ...(notes.length ? { description: notes.join(' ') } : {}),
        stampMs: s.stampMs,
      };
    });
}

const etagOf = (text: string): string => `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

/** The feed a token opens at `nowMs`; undefined when its schedule or account user no longer exists. */
export async function feedOf(owner: FeedOwner, nowMs: number): Promise<Feed | undefined> {
  const fromMs = nowMs - ICAL_PAST_DAYS * DAY_MS;
  const toMs = nowMs + ICAL_FUTURE_DAYS * DAY_MS;
  const { accountId } = owner;
  let name: string;
  let shifts: Shift[];
  if (owner.kind === 'schedule') {
    const schedule = await findEntity<ScheduleData>('SCHEDULE', accountId, owner.id);
    if (!schedule) return undefined;
    const [events, away] = await Promise.all([eventsOfSchedule(accountId, schedule.id), absencesOf(accountId)]);
    name = `On call: ${schedule.data.name}`;
    shifts = shiftsOf(schedule.id, schedule.data.name, events, away, fromMs, toMs, nowMs);
  } else {
    const accountUser = await findEntity('ACCOUNT_USER', accountId, owner.id);
    if (!accountUser) return undefined;
    const [events, away, names] = await Promise.all([listEvents(accountId), absencesOf(accountId), namesFor(accountId, { people: [owner.id] })]);
    // Every schedule one of whose events names the person: they may be on call there, or cover someone there.
    const scheduleIds = [...new Set(events.filter((e) => e.data.event_attendees.some((a) => a.attendee_id === owner.id)).flatMap((e) => e.data.schedule_ids))];
    name = `On call: ${names.person(owner.id)}`;
    shifts = [];
    for (const scheduleId of scheduleIds) {
      const schedule = await findEntity<ScheduleData>('SCHEDULE', accountId, scheduleId);
      if (!schedule) continue;
      const ofSchedule = events.filter((e) => e.data.schedule_ids.includes(scheduleId));
      shifts.push(...shiftsOf(scheduleId, schedule.data.name, ofSchedule, away, fromMs, toMs, nowMs).filter((s) => s.person === owner.id));
    }
  }
  if (shifts.length > ICAL_MAX_SHIFTS) shifts = shifts.filter((s) => s.endMs > nowMs).sort((a, b) => a.startMs - b.startMs).slice(0, ICAL_MAX_SHIFTS);
  const text = calendarText({ name, events: await feedEvents(accountId, shifts) });
  return { text, etag: etagOf(text) };
}
