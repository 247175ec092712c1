// Who is on call (docs/console.md, "Pages"): every team's layers now and the next hand-off, and one
// schedule's next CONSOLE_SCHEDULE_DAYS as a picture and a table. Both read the schedule's on-call entries through
// windowEvents, the function behind the API's window_events (and current_oncall's rules).
import { windowEvents, type OnCallView } from '../../schedule-events/views.ts';
import { CONSOLE_SCHEDULE_DAYS } from '../../limits.ts';
import { getSchedule, listSchedules } from '../../schedules/service.ts';
import { listTeams } from '../../teams/service.ts';
import type { ConsoleRequest, SignedIn } from '../request.ts';
import { namesOf, type Names } from '../names.ts';
import type { PageResult } from '../page.ts';
import { pictureOf, type Shift } from '../schedule-picture.ts';
import { onCallPage, schedulePage, type TeamOnCall } from '../templates/oncall-templates.ts';
import { displayZoneOf, wallTime } from '../display-time.ts';

type Account = SignedIn & { caller: NonNullable<SignedIn['caller']> };

const WINDOW_MS = CONSOLE_SCHEDULE_DAYS * 86_400_000;

/** The shifts of on-call entries, names in place of account user ids. Pure. */
export const shiftsOf = (entries: readonly OnCallView[], names: Names): Shift[] =>
  entries.map((e) => ({
    layer: e.layer,
    startMs: Date.parse(e.start_time),
    endMs: Date.parse(e.end_time),
    who: e.attendees.map((a) => names.person(a.attendee_id)).join(', ') || 'nobody',
    override: e.override,
  }));

const attendeesOf = (entries: readonly OnCallView[]): string[] => [...new Set(entries.flatMap((e) => e.attendees.map((a) => a.attendee_id)))];

/** The zone a viewer reads times in: their profile's, else the schedule's (its first event's), else UTC. */
function zoneOf(who: Account, entries: readonly OnCallView[]): string {
  return displayZoneOf(who.person.time_zone) ?? displayZoneOf(entries[0]?.time_zone) ?? 'UTC';
}

/** Per layer: who is on call at `now` and until when, and the next hand-off. Pure. */
export function layersNow(shifts: readonly Shift[], now: number, when: (ms: number) => string): TeamOnCall['layers'] {
  const layers = [...new Set(shifts.map((s) => s.layer))].sort((a, b) => a - b);
  return layers.map((layer) => {
    const own = shifts.filter((s) => s.layer === layer);
    const current = own.filter((s) => s.startMs <= now && now < s.endMs);
    const until = current.length ? Math.min(...current.map((s) => s.endMs)) : undefined;
    const upcoming = own.filter((s) => s.startMs > now).sort((a, b) => a.startMs - b.startMs)[0];
    return {
      layer,
      who: current.map((s) => s.who).join(', ') || 'nobody',
      until: until === undefined ? '—' : when(until),
      next: upcoming ? `${upcoming.who} from ${when(upcoming.startMs)}` : 'none in the next 14 days',
    };
  });
}

export async function onCall(request: ConsoleRequest, who: Account): Promise<PageResult> {
  const accountId = who.caller.accountId;
  const [teams, schedules] = await Promise.all([listTeams(accountId), listSchedules(accountId)]);
  const scheduleNames = new Map(schedules.map((s) => [s.id, s.data.name]));
  const scheduleIds = [...new Set(teams.map((t) => t.data.schedule_id))];
  const entries = new Map(await Promise.all(scheduleIds.map(async (id) => [id, await windowEvents(accountId, id, request.now, request.now + WINDOW_MS)] as const)));
  const names = await namesOf(accountId, attendeesOf([...entries.values()].flat()));
  const zone = displayZoneOf(who.person.time_zone) ?? 'UTC';
  const when = (ms: number) => wallTime(ms, zone);
  const rows: TeamOnCall[] = teams
    .map((t) => ({
      name: t.data.name,
      scheduleId: t.data.schedule_id,
      scheduleName: scheduleNames.get(t.data.schedule_id) ?? 'schedule',
      layers: layersNow(shiftsOf(entries.get(t.data.schedule_id) ?? [], names), request.now, when),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { title: 'Who is on call', body: onCallPage({ teams: rows, zone }) };
}

export async function scheduleDetail(request: ConsoleRequest, who: Account): Promise<PageResult> {
  const accountId = who.caller.accountId;
  const schedule = await getSchedule(accountId, request.params.id ?? '');
  const entries = await windowEvents(accountId, schedule.id, request.now, request.now + WINDOW_MS);
  const names = await namesOf(accountId, attendeesOf(entries));
  const zone = zoneOf(who, entries);
  const when = (ms: number) => wallTime(ms, zone);
  const shifts = shiftsOf(entries, names).sort((a, b) => a.layer - b.layer || a.startMs - b.startMs);
  const layers = [...new Set(shifts.map((s) => s.layer))].sort((a, b) => a - b);
  return {
    title: schedule.data.name,
    body: schedulePage({
      name: schedule.data.name,
      zone,
      days: CONSOLE_SCHEDULE_DAYS,
      picture: pictureOf(shifts, layers.length ? layers : [1], request.now, request.now + WINDOW_MS, request.now, zone, when),
      shifts: shifts.map((s) => ({ layer: s.layer, who: s.who, from: when(Math.max(s.startMs, request.now)), to: when(s.endMs), override: s.override })),
    }),
  };
}
