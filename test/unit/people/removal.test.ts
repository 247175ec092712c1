import { describe, expect, it } from 'vitest';
import type { EntityItem } from '#lib/db/repository.ts';
import type { EntityType } from '#lib/db/keys.ts';
import { attendeesWithout, planRemoval, rulesMention, teamWithout, type Holdings } from '#lib/people/removal.ts';
import { memberTeamChanges, teamIdsOf } from '#lib/people/teams.ts';

const X = { id: '01HX00000000000000000000XX', prefixId: 'usr_xxxxxxxxxxxx' };
const Y = '01HY00000000000000000000YY';

function entity<D>(type: EntityType, id: string, data: D): EntityItem<D> {
  return {
    pk: 'A#acct',
    sk: `${type}#${id}`,
    type,
    accountId: 'acct',
    id,
    prefixId: `${type.slice(0, 3).toLowerCase()}_${id.padEnd(12, 'x').slice(0, 12)}`,
    tinyId: 1,
    version: 3,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    meta: {},
    data,
  };
}

const attendee = (id: string, attendeeId: string, position: number) => ({ id, attendee_id: attendeeId, attendee_type: 'AccountUser', position });
const empty: Holdings = { teams: [], events: [], routers: [], policies: [], integrations: [] };

describe('teamWithout', () => {
  it('takes the account user out of all four lists and keeps the other fields', () => {
    const team = {
      name: 'Ops',
      notes: 'n',
      member_account_user_ids: [X.id, Y],
      admin_account_user_ids: [X.id],
      drop_notification_account_user_ids: [Y, X.id],
      handoff_notification_account_user_ids: [],
      drop_notifications: 'specific_users',
      handoff_notifications: 'none',
    };
    expect(teamWithout(team, X.id)).toEqual({
      ...team,
      member_account_user_ids: [Y],
      admin_account_user_ids: [],
      drop_notification_account_user_ids: [Y],
    });
  });

  it('falls back to the team admins when a specific-users notification list would be left empty', () => {
    const team = {
      drop_notifications: 'specific_users',
      drop_notification_account_user_ids: [X.id],
      handoff_notifications: 'specific_users',
      handoff_notification_account_user_ids: [Y],
    };
    expect(teamWithout(team, X.id)).toMatchObject({
      drop_notifications: 'team_admins',
      drop_notification_account_user_ids: [],
      handoff_notifications: 'specific_users',
    });
  });
});

describe('attendeesWithout', () => {
  it('renumbers the remaining attendees in their rotation order', () => {
    const rows = [attendee('att_3', 'c', 3), attendee('att_1', 'a', 1), attendee('att_2', X.id, 2)];
    expect(attendeesWithout(rows, X.id)).toEqual([attendee('att_1', 'a', 1), attendee('att_3', 'c', 2)]);
  });
});

describe('rulesMention', () => {
  it('finds the id or prefix id as a whole token only', () => {
    expect(rulesMention('actions: [{type: assign, receiver: usr_xxxxxxxxxxxx}]', X)).toBe(true);
    expect(rulesMention(`receiver: [tem_a, ${X.id}]`, X)).toBe(true);
    expect(rulesMention('receiver: usr_xxxxxxxxxxxxy', X)).toBe(false);
    expect(rulesMention(null, X)).toBe(false);
  });
});

describe('planRemoval', () => {
  it('plans an update for every object naming the account user, and deletes events left without attendees', () => {
    const team = entity('TEAM', 'team1', { name: 'Ops', member_account_user_ids: [X.id], admin_account_user_ids: [Y] });
    const otherTeam = entity('TEAM', 'team2', { name: 'Dev', member_account_user_ids: [Y], admin_account_user_ids: [] });
    const shared = entity('EVENT', 'ev1', { event_attendees: [attendee('att_1', X.id, 1), attendee('att_2', Y, 2)] });
    const alone = entity('EVENT', 'ev2', { event_attendees: [attendee('att_3', X.id, 1)] });
    const router = entity('ROUTER', 'rtr1', { name: 'R', rules: 'rules: []', default_receiver_account_user_id: X.id, default_receiver_team_id: 'team1', default_receiver_router_id: null });
    const policy = entity('ESCALATION_POLICY', 'esc1', { reassign_account_user_ids: [Y, X.id] });
    const integration = entity('INTEGRATION', 'int1', { name: 'Hook', account_user_ids: [X.id], router_ids: ['r'], team_ids: [] });
    const plan = planRemoval(X, { teams: [team, otherTeam], events: [shared, alone], routers: [router], policies: [policy], integrations: [integration] });
    expect(plan.blockers).toEqual([]);
    expect(plan.deletes.map((d) => d.id)).toEqual(['ev2']);
    expect(plan.updates.map((u) => [u.item.id, u.data])).toEqual([
      ['team1', { name: 'Ops', member_account_user_ids: [], admin_account_user_ids: [Y] }],
      ['ev1', { event_attendees: [attendee('att_2', Y, 1)] }],
      ['rtr1', { ...router.data, default_receiver_account_user_id: null }],
      ['esc1', { reassign_account_user_ids: [Y] }],
      ['int1', { ...integration.data, account_user_ids: [] }],
    ]);
  });

  it('blocks when a router or an integration would be left without a receiver, or router rules name the account user', () => {
    const soleReceiver = entity('ROUTER', 'rtr1', { name: 'Sole', rules: null, default_receiver_account_user_id: X.id });
    const inRules = entity('ROUTER', 'rtr2', { name: 'Rules', rules: `receiver: ${X.prefixId}`, default_receiver_team_id: 't' });
    const onlyDestination = entity('INTEGRATION', 'int1', { name: 'Hook', account_user_ids: [X.id], router_ids: [], team_ids: [] });
    const plan = planRemoval(X, { ...empty, routers: [soleReceiver, inRules], integrations: [onlyDestination] });
    expect(plan.blockers).toEqual([
      `Router "Sole" (${soleReceiver.prefixId}) has usr_xxxxxxxxxxxx as its only default receiver; give it another default receiver first`,
      `Router "Rules" (${inRules.prefixId}) names usr_xxxxxxxxxxxx in its rules; change the rules first`,
      `Integration "Hook" (${onlyDestination.prefixId}) sends its alerts only to usr_xxxxxxxxxxxx; give it another destination first`,
    ]);
  });

  it('plans nothing for an account user nobody names', () => {
    const team = entity('TEAM', 'team1', { member_account_user_ids: [Y] });
    expect(planRemoval(X, { ...empty, teams: [team] })).toEqual({ updates: [], deletes: [], blockers: [] });
  });
});

describe('team memberships', () => {
  const teams = [
    entity('TEAM', 't1', { member_account_user_ids: [X.id], admin_account_user_ids: [] }),
    entity('TEAM', 't2', { member_account_user_ids: [], admin_account_user_ids: [X.id] }),
    entity('TEAM', 't3', { member_account_user_ids: [Y], admin_account_user_ids: [] }),
  ];

  it('team_ids are the teams listing the account user as member or admin', () => {
    expect(teamIdsOf(X.id, teams)).toEqual(['t1', 't2']);
  });

  it('joining adds to member lists only where the account user is not on the team yet', () => {
    const changes = memberTeamChanges(X.id, teams, new Set(['t1', 't2', 't3']), { leaveOthers: false });
    expect(changes.map((c) => [c.item.id, c.data])).toEqual([['t3', { member_account_user_ids: [Y, X.id], admin_account_user_ids: [] }]]);
  });

  it('setting the member teams also leaves the member lists of teams not wanted, never admin lists', () => {
    const changes = memberTeamChanges(X.id, teams, new Set(['t3']), { leaveOthers: true });
    expect(changes.map((c) => [c.item.id, c.data])).toEqual([
      ['t1', { member_account_user_ids: [], admin_account_user_ids: [] }],
      ['t3', { member_account_user_ids: [Y, X.id], admin_account_user_ids: [] }],
    ]);
  });
});
