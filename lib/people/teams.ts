// Team membership changes an account-user request makes (`member_team_ids` / `team_ids`). Pure: no I/O.
import type { EntityItem } from '../db/repository.ts';
import type { PlannedUpdate, TeamFields } from './removal.ts';

const listOf = (value: readonly string[] | undefined) => value ?? [];

/** Teams whose member or admin list holds the account user: the account user's `team_ids`. */
export function teamIdsOf(accountUserId: string, teams: readonly EntityItem<TeamFields>[]): string[] {
  return teams
    .filter((t) => listOf(t.data.member_account_user_ids).includes(accountUserId) || listOf(t.data.admin_account_user_ids).includes(accountUserId))
    .map((t) => t.id);
}

/**
 * Makes the account user a member of exactly the `wanted` teams: added to the member list of each wanted team it
 * is not on yet, taken off the member list of the other teams. Admin lists are the teams API's business: a team
 * the account user administers counts as joined and is never changed here (a person has one role in a team).
 */
export function memberTeamChanges(accountUserId: string, teams: readonly EntityItem<TeamFields>[], wanted: ReadonlySet<string>, options: { leaveOthers: boolean }): PlannedUpdate[] {
  const updates: PlannedUpdate[] = [];
  for (const team of teams) {
    const members = listOf(team.data.member_account_user_ids);
    const isMember = members.includes(accountUserId);
    const isAdmin = listOf(team.data.admin_account_user_ids).includes(accountUserId);
    if (wanted.has(team.id)) {
      if (!isMember && !isAdmin) updates.push({ item: team, data: { ...team.data, member_account_user_ids: [...members, accountUserId] } });
    } else if (options.leaveOthers && isMember) {
      updates.push({ item: team, data: { ...team.data, member_account_user_ids: members.filter((id) => id !== accountUserId) } });
    }
  }
  return updates;
}
