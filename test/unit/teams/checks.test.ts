import { describe, expect, it } from 'vitest';
import { validate } from '#lib/api-shapes/validate.ts';
import { teamProblems } from '#lib/teams/checks.ts';
import { teamCreate, teamUpdate } from '#lib/teams/schema.ts';
import { validationMessages as messages } from '../support.ts';

const base = {
  member_account_user_ids: ['M1', 'M2'],
  admin_account_user_ids: ['A1'],
  drop_notifications: 'none',
  handoff_notifications: 'none',
  drop_notification_account_user_ids: [],
  handoff_notification_account_user_ids: [],
} as const;

describe('teamProblems', () => {
  it('accepts a plain team', () => {
    expect(teamProblems({ ...base, drop_notification_account_user_ids: [], handoff_notification_account_user_ids: [] })).toEqual([]);
  });

  it('needs recipients when a notification goes to specific_users, and only then', () => {
    const team = {
      ...base,
      member_account_user_ids: [],
      admin_account_user_ids: [],
      drop_notifications: 'specific_users' as const,
      handoff_notifications: 'specific_users' as const,
      drop_notification_account_user_ids: [],
      handoff_notification_account_user_ids: [],
    };
    expect(teamProblems(team)).toEqual([
      "drop_notification_account_user_ids can't be empty when drop_notifications is specific_users",
      "handoff_notification_account_user_ids can't be empty when handoff_notifications is specific_users",
    ]);
    expect(teamProblems({ ...team, drop_notification_account_user_ids: ['X'], handoff_notification_account_user_ids: ['Y'] })).toEqual([]);
    expect(teamProblems({ ...team, drop_notifications: 'team_all', handoff_notifications: 'oncall_rotation' })).toEqual([]);
  });
});

describe('team schema', () => {
  it('requires name on create, not on update', () => {
    expect(messages(teamCreate, {})).toEqual(['name is required']);
    expect(messages(teamUpdate, {})).toEqual([]);
    expect(messages(teamUpdate, { name: '' })).toEqual(["name can't be blank"]);
  });

  it('takes the five notification settings only', () => {
    for (const value of ['none', 'team_all', 'team_admins', 'oncall_rotation', 'specific_users']) {
      expect(messages(teamCreate, { name: 'T', drop_notifications: value, handoff_notifications: value })).toEqual([]);
    }
    expect(messages(teamCreate, { name: 'T', drop_notifications: 'all', handoff_notifications: null })).toEqual([
      'drop_notifications must be one of none, team_all, team_admins, oncall_rotation, specific_users',
      'handoff_notifications must be one of none, team_all, team_admins, oncall_rotation, specific_users',
    ]);
  });

  it('takes id lists, notes and meta; schedule_id and escalation_policy_id only on update', () => {
    expect(messages(teamCreate, { name: 'T', member_account_user_ids: 'usr_x' })).toEqual(['member_account_user_ids must be a list of ids']);
    expect(messages(teamCreate, { name: 'T', notes: 5 })).toEqual(['notes must be a string']);
    expect(messages(teamCreate, { name: 'T', meta: [] })).toEqual(['meta must be an object']);
    expect(validate(teamCreate, { name: 'T', schedule_id: 'sch_x', escalation_policy_id: 'esc_x' })).toEqual({ name: 'T' });
    expect(validate(teamUpdate, { schedule_id: 'sch_x', escalation_policy_id: 'esc_x' })).toEqual({ schedule_id: 'sch_x', escalation_policy_id: 'esc_x' });
    expect(messages(teamUpdate, { schedule_id: '', escalation_policy_id: null })).toEqual(["schedule_id can't be blank", 'escalation_policy_id must be a string']);
  });
});
