// Destinations as an escalation runs them: a team's policy copied when the alert reaches the team, and an
// account user paged directly. Rules: docs/alerts.md.
import { timeoutMinutes, type TimeoutUnit } from './timeouts.ts';
import type { Destination, PolicyCopy } from './types.ts';

const MINUTE_MS = 60_000;

/**
 * How long an account user paged directly (not through a team) has to acknowledge or reject before their page
 * times out. A direct page is one layer, one pass, no reassign: when it times out or is rejected, that
 * destination is exhausted (and the alert dropped when nothing else is running).
 */
export const DIRECT_PAGE_TIMEOUT_MS = 30 * MINUTE_MS;

/** The parts of a stored escalation policy (lib/escalation-policies) an escalation copies, as the engine reads them. */
export interface PolicySource {
  readonly id: string;
  readonly repeat: number;
  readonly reassign_team_ids: readonly string[];
  readonly reassign_account_user_ids: readonly string[];
  readonly escalation_layers: readonly { readonly layer: number; readonly timeout: number; readonly timeout_unit: TimeoutUnit }[];
}

/** A copy of the policy that no later edit of the policy reaches. Layers sorted by number. */
export function copyPolicy(policy: PolicySource): PolicyCopy {
  if (policy.escalation_layers.length === 0) throw new Error(`escalation policy ${policy.id} has no layers`);
  return {
    policy_id: policy.id,
    repeat: policy.repeat,
    layers: [...policy.escalation_layers]
      .sort((a, b) => a.layer - b.layer)
      .map((layer) => ({ layer: layer.layer, timeout_ms: timeoutMinutes(layer) * MINUTE_MS })),
    reassign_team_ids: [...policy.reassign_team_ids],
    reassign_account_user_ids: [...policy.reassign_account_user_ids],
  };
}

/** A team destination: the team's schedule (read live at each layer) and its policy (copied now). */
export function teamDestination(team: { readonly id: string; readonly schedule_id: string }, policy: PolicySource): Destination {
  return { kind: 'team', team_id: team.id, schedule_id: team.schedule_id, policy: copyPolicy(policy) };
}

export function accountUserDestination(accountUserId: string, timeoutMs: number = DIRECT_PAGE_TIMEOUT_MS): Destination {
  return { kind: 'account_user', account_user_id: accountUserId, timeout_ms: timeoutMs };
}
