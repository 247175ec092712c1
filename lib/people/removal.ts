// What removing an account user from its account changes in the account's configuration: the pure plan.
// The service reads the collections, plans with planRemoval, refuses when there are blockers, and writes the
// plan in transactions of at most 100 items (lib/people/service.ts). Decisions: docs/people.md, "Deleting".
import type { EntityItem } from '../db/repository.ts';

interface Attendee {
  id: string;
  attendee_id: string;
  attendee_type: string;
  position: number;
}

/** The stored fields removal reads and changes; other fields are carried over untouched. */
export interface TeamFields {
  name?: string;
  member_account_user_ids?: string[];
  admin_account_user_ids?: string[];
  drop_notification_account_user_ids?: string[];
  handoff_notification_account_user_ids?: string[];
  drop_notifications?: string;
  handoff_notifications?: string;
}
export interface EventFields {
  event_attendees?: Attendee[];
}
export interface RouterFields {
  name?: string;
  rules?: string | null;
  default_receiver_account_user_id?: string | null;
  default_receiver_router_id?: string | null;
  default_receiver_team_id?: string | null;
}
export interface PolicyFields {
  reassign_account_user_ids?: string[];
}
export interface IntegrationFields {
  name?: string;
  account_user_ids?: string[];
  router_ids?: string[];
  team_ids?: string[];
}

export interface Holdings {
  teams: EntityItem<TeamFields>[];
  events: EntityItem<EventFields>[];
  routers: EntityItem<RouterFields>[];
  policies: EntityItem<PolicyFields>[];
  integrations: EntityItem<IntegrationFields>[];
}

export interface PlannedUpdate {
  item: EntityItem<object>;
  data: object;
}

export interface RemovalPlan {
  /** Entities to write with the account user taken out. */
  updates: PlannedUpdate[];
  /** Events left without any attendee: deleted. */
  deletes: EntityItem<object>[];
  /** Why the account user cannot be removed yet (one message per object); empty when it can. */
  blockers: string[];
}

const TEAM_LISTS = ['member_account_user_ids', 'admin_account_user_ids', 'drop_notification_account_user_ids', 'handoff_notification_account_user_ids'] as const;
const SPECIFIC = [
  ['drop_notifications', 'drop_notification_account_user_ids'],
  ['handoff_notifications', 'handoff_notification_account_user_ids'],
] as const;

const without = (list: readonly string[] | undefined, id: string) => (list ?? []).filter((x) => x !== id);
const has = (list: readonly string[] | undefined, id: string) => (list ?? []).includes(id);
const label = (item: EntityItem<{ name?: string }>) => `${JSON.stringify(item.data.name ?? '')} (${item.prefixId})`;

/** Whether router rules name the account user (by id or prefix_id) as a receiver. */
export function rulesMention(rules: string | null | undefined, target: { id: string; prefixId: string }): boolean {
  if (!rules) return false;
  return [target.id, target.prefixId].some((token) => new RegExp(`(^|[^A-Za-z0-9_])${token}($|[^A-Za-z0-9_])`).test(rules));
}

/** The team without the account user; a specific-users notification list left empty falls back to the team's admins. */
export function teamWithout(data: TeamFields, id: string): TeamFields {
  const next: TeamFields = { ...data };
  for (const list of TEAM_LISTS) if (data[list] !== undefined) next[list] = without(data[list], id);
  for (const [setting, list] of SPECIFIC) {
    if (data[setting] === 'specific_users' && has(data[list], id) && (next[list] ?? []).length === 0) next[setting] = 'team_admins';
  }
  return next;
}

/** The event's attendees without the account user, positions renumbered 1..n in their order. */
export function attendeesWithout(attendees: readonly Attendee[], id: string): Attendee[] {
  return [...attendees]
    .sort((a, b) => a.position - b.position)
    .filter((a) => a.attendee_id !== id)
    .map((a, i) => ({ ...a, position: i + 1 }));
}

export function planRemoval(target: { id: string; prefixId: string }, holdings: Holdings): RemovalPlan {
  const { id } = target;
  const updates: PlannedUpdate[] = [];
  const deletes: EntityItem<object>[] = [];
  const blockers: string[] = [];
  const who = target.prefixId;

  for (const team of holdings.teams) {
    if (TEAM_LISTS.some((list) => has(team.data[list], id))) updates.push({ item: team, data: teamWithout(team.data, id) });
  }

  for (const event of holdings.events) {
    const attendees = event.data.event_attendees ?? [];
    if (!attendees.some((a) => a.attendee_id === id)) continue;
    const rest = attendeesWithout(attendees, id);
    if (rest.length === 0) deletes.push(event);
    else updates.push({ item: event, data: { ...event.data, event_attendees: rest } });
  }

  for (const router of holdings.routers) {
    const d = router.data;
    if (rulesMention(d.rules, target)) {
      blockers.push(`Router ${label(router)} names ${who} in its rules; change the rules first`);
      continue;
    }
    if (d.default_receiver_account_user_id !== id) continue;
    if (!d.default_receiver_router_id && !d.default_receiver_team_id) {
      blockers.push(`Router ${label(router)} has ${who} as its only default receiver; give it another default receiver first`);
      continue;
    }
    updates.push({ item: router, data: { ...d, default_receiver_account_user_id: null } });
  }

  for (const policy of holdings.policies) {
    if (has(policy.data.reassign_account_user_ids, id)) {
      updates.push({ item: policy, data: { ...policy.data, reassign_account_user_ids: without(policy.data.reassign_account_user_ids, id) } });
    }
  }

  for (const integration of holdings.integrations) {
    const d = integration.data;
    if (!has(d.account_user_ids, id)) continue;
    const rest = without(d.account_user_ids, id);
    if (rest.length === 0 && (d.router_ids ?? []).length === 0 && (d.team_ids ?? []).length === 0) {
      blockers.push(`Integration ${label(integration)} sends its alerts only to ${who}; give it another destination first`);
      continue;
    }
    updates.push({ item: integration, data: { ...d, account_user_ids: rest } });
  }

  return { updates, deletes, blockers };
}
