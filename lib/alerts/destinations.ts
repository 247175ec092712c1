// What the escalation step needs read from storage: team destinations (the team's schedule, its policy copied now)
// and the events of the schedules involved, read just before the step so "on call" means on call at that instant —
// from the short configuration cache (docs/alerts.md, "Configuration reads in a storm").
import { cachedEntity } from '../db/config-reads.ts';
import type { EntityItem } from '../db/writes.ts';
import type { EscalationPolicyData } from '../escalation-policies/schema.ts';
import {
  accountUserDestination,
  teamDestination,
  type AlertEscalation,
  type Destination,
  type ScheduleEventsById,
} from '../escalation-engine/index.ts';
import { toEngine } from '../schedule-events/model.ts';
import { cachedEventsOfSchedule } from '../schedule-events/store.ts';
import type { TeamData } from '../teams/schema.ts';

/** Team destinations for the teams that exist (in the order given); a team deleted meanwhile is left out. */
export async function teamDestinations(accountId: string, teamIds: readonly string[]): Promise<Destination[]> {
  const teams = await Promise.all(teamIds.map((id) => cachedEntity<TeamData>('TEAM', accountId, id)));
  const destinations = await Promise.all(
    teams.map(async (team) => {
      if (!team) return undefined;
      const policy = await cachedEntity<EscalationPolicyData>('ESCALATION_POLICY', accountId, team.data.escalation_policy_id);
      if (!policy) return undefined;
      return teamDestination({ id: team.id, schedule_id: team.data.schedule_id }, { id: policy.id, ...policy.data });
    }),
  );
  return destinations.filter((d): d is Destination => d !== undefined);
}

/**
 * Team destinations with the events of their schedules, for a create: each team's policy and schedule events are
 * read at once (teams already read by the caller are not read again), all teams in parallel.
 */
export async function teamStarts(
  accountId: string,
  teamIds: readonly string[],
  known: ReadonlyMap<string, EntityItem<TeamData>> = new Map(),
): Promise<{ destinations: Destination[]; schedules: ScheduleEventsById }> {
  const started = await Promise.all(
    teamIds.map(async (id) => {
      const team = known.get(id) ?? (await cachedEntity<TeamData>('TEAM', accountId, id));
      if (!team) return undefined;
      const [policy, events] = await Promise.all([
        cachedEntity<EscalationPolicyData>('ESCALATION_POLICY', accountId, team.data.escalation_policy_id),
        cachedEventsOfSchedule(accountId, team.data.schedule_id),
      ]);
      if (!policy) return undefined;
      const destination = teamDestination({ id: team.id, schedule_id: team.data.schedule_id }, { id: policy.id, ...policy.data });
      return { destination, scheduleId: team.data.schedule_id, events: events.map(toEngine) };
    }),
  );
  const found = started.filter((s) => s !== undefined);
  return { destinations: found.map((s) => s.destination), schedules: Object.fromEntries(found.map((s) => [s.scheduleId, s.events])) };
}

/** Account-user destinations for the account users that exist. */
export async function accountUserDestinations(accountId: string, accountUserIds: readonly string[], known: ReadonlySet<string> = new Set()): Promise<Destination[]> {
  const found = await Promise.all(accountUserIds.map(async (id) => (known.has(id) ? id : (await cachedEntity('ACCOUNT_USER', accountId, id))?.id)));
  return found.filter((id) => id !== undefined).map((id) => accountUserDestination(id));
}

/** The schedule ids the step may read: the destinations being started and the team escalations still waiting. */
export function scheduleIdsOf(destinations: readonly Destination[], state?: AlertEscalation): string[] {
  const waiting = state?.escalations.filter((e) => e.phase === 'waiting').map((e) => e.destination) ?? [];
  const all = [...destinations, ...waiting];
  return [...new Set(all.flatMap((d) => (d.kind === 'team' ? [d.schedule_id] : [])))];
}

/** The events of each schedule, as the schedule engine sees them. */
export async function loadSchedules(accountId: string, scheduleIds: readonly string[]): Promise<ScheduleEventsById> {
  const entries = await Promise.all(scheduleIds.map(async (id) => [id, (await cachedEventsOfSchedule(accountId, id)).map(toEngine)] as const));
  return Object.fromEntries(entries);
}
