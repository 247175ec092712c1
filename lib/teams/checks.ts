// Pure rules of a team's fields, checked on the team as it would be stored (after a PUT's changes are applied).
import type { TeamData } from './schema.ts';

const SPECIFIC_USERS = [
  ['drop_notifications', 'drop_notification_account_user_ids'],
  ['handoff_notifications', 'handoff_notification_account_user_ids'],
] as const;

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
