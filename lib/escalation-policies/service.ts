// Escalation policies: storage and rules. A policy's `team_ids` is not stored; it is read from the teams whose
// escalation_policy_id names the policy, so it can never disagree with the teams. Rules: docs/teams.md.
import {
  createEntity,
  getEntity,
  listEntities,
  newEntityItem,
  removeEntity,
  render,
  touchItem,
  updateEntity,
  type EntityItem,
} from '../db/repository.ts';
import { conflict, invalid } from '../errors.ts';
import { newId, newPrefixId } from '../ids.ts';
import { DEFAULT_LAYER_ATTRIBUTES, mergeLayers, type EscalationLayer, type LayerAttributes } from './layers.ts';
import { resolveIdList } from '../db/references.ts';
import type { EscalationPolicyData, PolicyCreateInput, PolicyUpdateInput } from './schema.ts';
import { entityCollection } from '../db/pages.ts';

export type PolicyItem = EntityItem<EscalationPolicyData>;

/** The fields of a team this module reads (the teams module owns the full shape). */
interface TeamLink {
  name: string;
  escalation_policy_id?: string;
}

const newLayerIds = () => ({ id: newId(), prefix_id: newPrefixId('LAYER') });

export function renderPolicy(item: PolicyItem, teamIds: readonly string[]): Record<string, unknown> {
  return { ...render(item), team_ids: [...teamIds] };
}

const teamsOf = (accountId: string) => listEntities<TeamLink>('TEAM', accountId);

/** Ids of the teams using each policy, in team creation order. */
async function teamIdsByPolicy(accountId: string): Promise<Map<string, string[]>> {
  const byPolicy = new Map<string, string[]>();
  for (const team of await teamsOf(accountId)) {
    const policyId = team.data.escalation_policy_id;
    if (!policyId) continue;
    byPolicy.set(policyId, [...(byPolicy.get(policyId) ?? []), team.id]);
  }
  return byPolicy;
}

export async function renderPolicyWithTeams(item: PolicyItem): Promise<Record<string, unknown>> {
  return renderPolicy(item, (await teamIdsByPolicy(item.accountId)).get(item.id) ?? []);
}

export const getPolicy = (accountId: string, id: string) => getEntity<EscalationPolicyData>('ESCALATION_POLICY', accountId, id);

export async function listPolicies(accountId: string): Promise<PolicyItem[]> {
  return listEntities<EscalationPolicyData>('ESCALATION_POLICY', accountId);
}

/** Every policy of the account as the API shows it. */
/** GET /escalation_policies: the page's policies, with the teams that use them (one read of the teams). */
export const policyListSource = (accountId: string) =>
  entityCollection('ESCALATION_POLICY', accountId, async (items: PolicyItem[]) => {
    const byPolicy = await teamIdsByPolicy(accountId);
    return items.map((p) => renderPolicy(p, byPolicy.get(p.id) ?? []));
  });

export async function listPolicyObjects(accountId: string): Promise<Record<string, unknown>[]> {
  const [policies, byPolicy] = await Promise.all([listPolicies(accountId), teamIdsByPolicy(accountId)]);
  return policies.map((p) => renderPolicy(p, byPolicy.get(p.id) ?? []));
}

function layersOrThrow(current: readonly EscalationLayer[], attributes: readonly LayerAttributes[], accountId: string, creating: boolean, problems: string[]) {
  const merged = mergeLayers(current, attributes, { accountId, newLayerIds, creating });
  if (!merged.ok) problems.push(...merged.problems);
  if (problems.length > 0) throw invalid(problems);
  return merged.ok ? merged.layers : [];
}

async function resolveReassign(accountId: string, input: Pick<PolicyCreateInput, 'reassign_team_ids' | 'reassign_account_user_ids'>) {
  const [teams, users] = await Promise.all([
    input.reassign_team_ids && resolveIdList('TEAM', accountId, 'reassign_team_ids', 'team', input.reassign_team_ids),
    input.reassign_account_user_ids &&
      resolveIdList('ACCOUNT_USER', accountId, 'reassign_account_user_ids', 'account user', input.reassign_account_user_ids),
  ]);
  return { teams, users, problems: [...(teams?.problems ?? []), ...(users?.problems ?? [])] };
}

export async function createPolicy(accountId: string, input: PolicyCreateInput): Promise<PolicyItem> {
  const { teams, users, problems } = await resolveReassign(accountId, input);
  const layers = layersOrThrow([], input.escalation_layers_attributes ?? DEFAULT_LAYER_ATTRIBUTES, accountId, true, problems);
  const data: EscalationPolicyData = {
    name: input.name,
    repeat: input.repeat ?? 0,
    reassign_team_ids: teams?.ids ?? [],
    reassign_account_user_ids: users?.ids ?? [],
    escalation_layers: layers,
  };
  // Touching the reassign teams makes a concurrent delete of one of them fail instead of leaving a dangling id.
  return createEntity<EscalationPolicyData>('ESCALATION_POLICY', accountId, data, {
    meta: input.meta ?? {},
    extraItems: (teams?.items ?? []).map(touchItem),
  });
}

/** A team's default policy, not yet written: "<team> Escalation Policy", layers of 5, 10 and 15 minutes, repeat 0. */
export async function newDefaultPolicyItem(accountId: string, teamName: string): Promise<PolicyItem> {
  const merged = mergeLayers([], DEFAULT_LAYER_ATTRIBUTES, { accountId, newLayerIds, creating: true });
  if (!merged.ok) throw new Error(`default layers are invalid: ${merged.problems.join('; ')}`);
  return newEntityItem<EscalationPolicyData>('ESCALATION_POLICY', accountId, {
    name: `${teamName} Escalation Policy`,
    repeat: 0,
    reassign_team_ids: [],
    reassign_account_user_ids: [],
    escalation_layers: merged.layers,
  });
}

export async function updatePolicy(accountId: string, id: string, input: PolicyUpdateInput): Promise<PolicyItem> {
  return updateEntity<EscalationPolicyData>('ESCALATION_POLICY', accountId, id, async (current) => {
    const { teams, users, problems } = await resolveReassign(accountId, input);
    const layers = layersOrThrow(current.data.escalation_layers, input.escalation_layers_attributes ?? [], accountId, false, problems);
    const addedTeams = (teams?.items ?? []).filter((t) => !current.data.reassign_team_ids.includes(t.id));
    return {
      data: {
        name: input.name ?? current.data.name,
        repeat: input.repeat ?? current.data.repeat,
        reassign_team_ids: teams?.ids ?? current.data.reassign_team_ids,
        reassign_account_user_ids: users?.ids ?? current.data.reassign_account_user_ids,
        escalation_layers: layers,
      },
      ...(input.meta !== undefined ? { meta: input.meta } : {}),
      extraItems: () => addedTeams.map(touchItem),
    };
  });
}

/** A team always has one active escalation policy, so a policy a team uses cannot be deleted. */
export async function deletePolicy(accountId: string, id: string): Promise<void> {
  await removeEntity<EscalationPolicyData>('ESCALATION_POLICY', accountId, id, async (policy) => {
    const users = (await teamsOf(accountId)).filter((t) => t.data.escalation_policy_id === policy.id);
    if (users.length > 0) {
      throw conflict(
        `Escalation policy is the active escalation policy of team ${users.map((t) => t.data.name).join(', ')}; give the team another escalation policy first`,
      );
    }
    // A team linking the policy meanwhile touches it, so the delete checks again instead of leaving it dangling.
  });
}
