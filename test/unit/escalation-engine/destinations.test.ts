import { describe, expect, it } from 'vitest';
import { DIRECT_PAGE_TIMEOUT_MS, accountUserDestination, copyPolicy, teamDestination } from '#lib/escalation-engine/index.ts';

const policy = {
  id: 'esc_1',
  repeat: 2,
  reassign_team_ids: ['tem_b'],
  reassign_account_user_ids: ['usr_x'],
  escalation_layers: [
    { layer: 3, timeout: 1, timeout_unit: 'days' as const },
    { layer: 1, timeout: 5, timeout_unit: 'minutes' as const },
    { layer: 2, timeout: 2, timeout_unit: 'hours' as const },
  ],
};

describe('copyPolicy', () => {
  it('keeps repeat and reassign targets, sorts layers and converts timeouts to milliseconds', () => {
    expect(copyPolicy(policy)).toEqual({
      policy_id: 'esc_1',
      repeat: 2,
      layers: [
        { layer: 1, timeout_ms: 300_000 },
        { layer: 2, timeout_ms: 7_200_000 },
        { layer: 3, timeout_ms: 86_400_000 },
      ],
      reassign_team_ids: ['tem_b'],
      reassign_account_user_ids: ['usr_x'],
    });
  });

  it('is a copy: editing the policy afterwards does not reach it', () => {
    const source = structuredClone(policy);
    const copy = copyPolicy(source);
    source.repeat = 0;
    source.reassign_team_ids.push('tem_c');
    source.escalation_layers[1]!.timeout = 50;
    expect(copy.repeat).toBe(2);
    expect(copy.reassign_team_ids).toEqual(['tem_b']);
    expect(copy.layers[0]).toEqual({ layer: 1, timeout_ms: 300_000 });
  });

  it('refuses a policy without layers (a stored policy always has one)', () => {
    expect(() => copyPolicy({ ...policy, escalation_layers: [] })).toThrow('escalation policy esc_1 has no layers');
  });
});

describe('destinations', () => {
  it('a team destination names the team, its schedule and the copied policy', () => {
    expect(teamDestination({ id: 'tem_a', schedule_id: 'sch_a' }, policy)).toEqual({
      kind: 'team',
      team_id: 'tem_a',
      schedule_id: 'sch_a',
      policy: copyPolicy(policy),
    });
  });
  it('a direct page waits 30 minutes unless told otherwise', () => {
    expect(DIRECT_PAGE_TIMEOUT_MS).toBe(1_800_000);
    expect(accountUserDestination('usr_a')).toEqual({ kind: 'account_user', account_user_id: 'usr_a', timeout_ms: 1_800_000 });
    expect(accountUserDestination('usr_a', 60_000)).toEqual({ kind: 'account_user', account_user_id: 'usr_a', timeout_ms: 60_000 });
  });
});
