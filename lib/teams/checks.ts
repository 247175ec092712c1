// Pure rules of a team's fields, checked on the team as it would be stored (after a PUT's changes are applied).
import type { TeamData } from './schema.ts';

const SPECIFIC_USERS = [
  ['drop_notifications', 'drop_notification_account_user_ids'],
  ['handoff_notifications', 'handoff_notification_account_user_ids'],
] as const;

/**
 * An account user has one role in a team, and admin wins: someone listed as both member and admin (as the
 * reference's own client sends `--member-id X --admin-id X`) is stored once, as an admin (docs/teams.md).
 */
export function withAdminsWinning<T extends Pick<TeamData, 'member_account_user_ids' | 'admin_account_user_ids'>>(team: T): T {
  const admins = new Set(team.admin_account_user_ids);
  if (!team.member_account_user_ids.some((id) => admins.has(id))) return team;
  return { ...team, member_account_user_ids: team.member_account_user_ids.filter((id) => !admins.has(id)) };
}

/** Problems of a team's stored fields; empty when the team is valid. */
export function teamProblems(team: Pick<TeamData, 'drop_notifications' | 'handoff_notifications' | 'drop_notification_account_user_ids' | 'handoff_notification_account_user_ids'>): string[] {
  const problems: string[] = [];
  for (const [setting, list] of SPECIFIC_USERS) {
    if (team[setting] === 'specific_users' && team[list].length === 0) {
      problems.push(`${list} can't be empty when ${setting} is specific_users`);
    }
  }
  return problems;
}
