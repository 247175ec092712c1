// Teams: storage and rules. A team is created in one transaction with its default schedule and default
// escalation policy, and always names one active schedule and one active policy. Rules: docs/teams.md.
import { integrationsReferencing } from '../integrations/service.ts';
import { routersReferencing } from '../routers/service.ts';
import { nowMs } from '../clock.ts';
import {
  createEntities,
  getEntity,
  listEntities,
  newEntityItem,
  removeEntity,
  render,
  touchItem,
  updateEntity,
  type EntityItem,
  type TransactItem,
} from '../db/repository.ts';
import { resolveId, resolveIdList } from '../db/references.ts';
import { listPolicies, newDefaultPolicyItem, type PolicyItem } from '../escalation-policies/service.ts';
import { currentOncall } from '../schedule-events/views.ts';
import { conflict, invalid } from '../errors.ts';
import { newScheduleItem, type ScheduleItem } from '../schedules/service.ts';
import { teamProblems } from './checks.ts';
import { ACCOUNT_USER_LISTS, type AccountUserList, type TeamCreateInput, type TeamData, type TeamUpdateInput } from './schema.ts';
import { entityCollection } from '../db/pages.ts';

export type TeamItem = EntityItem<TeamData>;

/** A team stored before notify_schedule_gaps existed shows its default, true. */
export const renderTeam = (item: TeamItem) => render({ ...item, data: { ...item.data, notify_schedule_gaps: item.data.notify_schedule_gaps !== false } });

export const getTeam = (accountId: string, id: string) => getEntity<TeamData>('TEAM', accountId, id);
export const listTeams = (accountId: string) => listEntities<TeamData>('TEAM', accountId);
export const teamListSource = (accountId: string) => entityCollection('TEAM', accountId, (items: TeamItem[]) => items.map(renderTeam));

/** Resolves the account-user lists the input names to canonical ids; every unknown id is one problem. */
async function resolveAccountUsers(accountId: string, input: Partial<Record<AccountUserList, string[]>>) {
  const lists: Partial<Record<AccountUserList, string[]>> = {};
  const problems: string[] = [];
  await Promise.all(
    ACCOUNT_USER_LISTS.map(async (field) => {
      const values = input[field];
      if (values === undefined) return;
      const resolved = await resolveIdList('ACCOUNT_USER', accountId, field, 'account user', values);
      lists[field] = resolved.ids;
      problems.push(...resolved.problems);
    }),
  );
  // Promise.all finishes in any order; report in the order of the fields.
  problems.sort((a, b) => fieldRank(a) - fieldRank(b));
  return { lists, problems };
}

const fieldRank = (message: string) => ACCOUNT_USER_LISTS.findIndex((field) => message.startsWith(`${field} `));

export interface CreatedTeam {
  team: TeamItem;
  schedule: ScheduleItem;
  policy: PolicyItem;
}

/** Creates the team with its default schedule ("<team> Schedule") and policy ("<team> Escalation Policy"), atomically. */
export async function createTeam(accountId: string, input: TeamCreateInput): Promise<CreatedTeam> {
  const { lists, problems } = await resolveAccountUsers(accountId, input);
  // Both lists are kept as given: an admin is a member with the admin role, and may be listed in both (docs/teams.md).
  const fields = {
    member_account_user_ids: lists.member_account_user_ids ?? [],
    admin_account_user_ids: lists.admin_account_user_ids ?? [],
    drop_notifications: input.drop_notifications ?? 'none',
    handoff_notifications: input.handoff_notifications ?? 'none',
    drop_notification_account_user_ids: lists.drop_notification_account_user_ids ?? [],
    handoff_notification_account_user_ids: lists.handoff_notification_account_user_ids ?? [],
    notify_schedule_gaps: input.notify_schedule_gaps ?? true,
  } satisfies Partial<TeamData>;
  problems.push(...teamProblems(fields));
  if (problems.length > 0) throw invalid(problems);

  const schedule = await newScheduleItem(accountId, { name: `${input.name} Schedule` });
  const policy = await newDefaultPolicyItem(accountId, input.name);
  const team = await newEntityItem<TeamData>(
    'TEAM',
    accountId,
    {
      name: input.name,
      notes: input.notes ?? null,
      schedule_id: schedule.id,
      escalation_policy_id: policy.id,
      ...fields,
      attachments: [],
    },
    { meta: input.meta ?? {} },
  );
  await createEntities([schedule, policy, team] as EntityItem<unknown>[]);
  return { team, schedule, policy };
}

export async function updateTeam(accountId: string, id: string, input: TeamUpdateInput): Promise<TeamItem> {
  return updateEntity<TeamData>('TEAM', accountId, id, async (current) => {
    const [{ lists, problems }, schedule, policy] = await Promise.all([
      resolveAccountUsers(accountId, input),
      input.schedule_id === undefined ? undefined : resolveId('SCHEDULE', accountId, 'schedule_id', 'schedule', input.schedule_id),
      input.escalation_policy_id === undefined
        ? undefined
        : resolveId('ESCALATION_POLICY', accountId, 'escalation_policy_id', 'escalation policy', input.escalation_policy_id),
    ]);
    if (schedule && 'problem' in schedule) problems.push(schedule.problem);
    if (policy && 'problem' in policy) problems.push(policy.problem);
    const data: TeamData = {
      ...current.data,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      ...(input.drop_notifications !== undefined ? { drop_notifications: input.drop_notifications } : {}),
      ...(input.handoff_notifications !== undefined ? { handoff_notifications: input.handoff_notifications } : {}),
      ...(input.notify_schedule_gaps !== undefined ? { notify_schedule_gaps: input.notify_schedule_gaps } : {}),
      ...lists,
      ...(schedule && 'item' in schedule ? { schedule_id: schedule.item.id } : {}),
      ...(policy && 'item' in policy ? { escalation_policy_id: policy.item.id } : {}),
    };
    problems.push(...teamProblems(data));
    if (problems.length > 0) throw invalid(problems);

    // A newly linked schedule or policy is touched in the same transaction: if it was deleted meanwhile the
    // update fails (and is retried, then answers 422), and a delete racing with this link fails instead.
    const touches: TransactItem[] = [];
    if (schedule && 'item' in schedule && schedule.item.id !== current.data.schedule_id) touches.push(touchItem(schedule.item));
    if (policy && 'item' in policy && policy.item.id !== current.data.escalation_policy_id) touches.push(touchItem(policy.item));
    return { data, ...(input.meta !== undefined ? { meta: input.meta } : {}), extraItems: () => touches };
  });
}

/**
 * Deletes the team only. Its schedule and escalation policy stay (they may hold events, or serve other teams);
 * a team that a policy reassigns to cannot be deleted until the policy stops naming it.
 */
export async function deleteTeam(accountId: string, id: string): Promise<void> {
  await removeEntity<TeamData>('TEAM', accountId, id, async (team) => {
    const [policies, routers, integrations] = await Promise.all([
      listPolicies(accountId),
      routersReferencing(accountId, team),
      integrationsReferencing(accountId, team.id),
    ]);
    const reassigning = policies.filter((p) => p.data.reassign_team_ids.includes(team.id));
    if (reassigning.length > 0) {
      throw conflict(
        `Team is a reassign target of escalation policy ${reassigning.map((p) => p.data.name).join(', ')}; remove it from their reassign_team_ids first`,
      );
    }
    // Alerts sent to a deleted team would reach nobody, so its senders must be pointed elsewhere first.
    if (routers.length > 0) {
      throw conflict(`Team receives alerts from router ${routers.map((r) => r.data.name).join(', ')}; change those routers first`);
    }
    if (integrations.length > 0) {
      throw conflict(`Team receives alerts from integration ${integrations.map((i) => i.data.name).join(', ')}; change those integrations first`);
    }
    // A policy, router or integration starting to name this team meanwhile touches it, so the checks run again.
  });
}

/** Who is on call now on the team's active schedule: the schedule's own current on-call view. */
export async function teamCurrentOncall(accountId: string, id: string): Promise<unknown[]> {
  const team = await getTeam(accountId, id);
  return currentOncall(accountId, team.data.schedule_id, nowMs());
}
