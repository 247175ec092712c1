// The responders a sender names on a create (Opsgenie's `responders[]`) as the alert's destinations: a team by id or
// name, a user by account user id or email, an escalation policy or a schedule → the teams that use it. None found:
// the integration's own destinations, with a note (docs/migrating.md, "From Opsgenie"). Reads the account's
// configuration; the names are compared case-insensitively, as Opsgenie does.
import type { AccountUserData } from '../accounts/account-users.ts';
import { listEntities, type EntityItem } from '../db/repository.ts';
import type { ResponderReading } from '../monitor-readers/types.ts';
import { membershipOf } from '../people/lookups.ts';
import { userIdOfEmail } from '../people/user-store.ts';
import type { TeamData } from '../teams/schema.ts';

/** Where a create with responders goes, and what the log says about each responder. */
export interface ResolvedResponders {
  team_ids: string[];
  account_user_ids: string[];
  notes: string[];
}

type Named = EntityItem<{ name: string }>;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The item a responder names among `items`: by id or prefix id, else by name. */
const named = (items: readonly Named[], responder: ResponderReading): Named | undefined =>
  items.find((item) => responder.id !== undefined && (item.id === responder.id || item.prefixId === responder.id)) ??
  items.find((item) => responder.name !== undefined && same(item.data.name, responder.name));

const label = (responder: ResponderReading) => `${responder.type} ${JSON.stringify(responder.name ?? responder.id ?? '')}`;

async function userOf(accountId: string, responder: ResponderReading, users: () => Promise<EntityItem<AccountUserData>[]>): Promise<string | undefined> {
  if (responder.id !== undefined) {
    const byId = (await users()).find((user) => user.id === responder.id || user.prefixId === responder.id);
    if (byId) return byId.id;
  }
  if (responder.name === undefined || !responder.name.includes('@')) return undefined;
  const userId = await userIdOfEmail(responder.name.trim());
  return userId ? (await membershipOf(userId, accountId))?.id : undefined;
}

/** Resolves every responder (each collection read at most once); the lists keep the order named, without repeats. */
export async function resolveResponders(accountId: string, responders: readonly ResponderReading[]): Promise<ResolvedResponders> {
  const once = <T>(read: () => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= read());
  };
  const teams = once(() => listEntities<TeamData>('TEAM', accountId));
  const policies = once(() => listEntities<{ name: string }>('ESCALATION_POLICY', accountId));
  const schedules = once(() => listEntities<{ name: string }>('SCHEDULE', accountId));
  const users = once(() => listEntities<AccountUserData>('ACCOUNT_USER', accountId));
  const teamIds = new Set<string>();
  const userIds = new Set<string>();
  const notes: string[] = [];
  for (const responder of responders) {
    if (responder.type === 'user') {
      const id = await userOf(accountId, responder, users);
      if (id) userIds.add(id);
      else notes.push(`Responder ${label(responder)}: no account user has that id or email; left out`);
      continue;
    }
    if (responder.type === 'team') {
      const team = named((await teams()) as unknown as Named[], responder);
      if (team) teamIds.add(team.id);
      else notes.push(`Responder ${label(responder)}: no team has that id or name; left out`);
      continue;
    }
    const used = named(await (responder.type === 'escalation' ? policies() : schedules()), responder);
    const field = responder.type === 'escalation' ? 'escalation_policy_id' : 'schedule_id';
    const using = used ? (await teams()).filter((team) => team.data[field] === used.id) : [];
    for (const team of using) teamIds.add(team.id);
    if (!used) notes.push(`Responder ${label(responder)}: no ${responder.type === 'escalation' ? 'escalation policy' : 'schedule'} has that id or name; left out`);
    else if (using.length === 0) notes.push(`Responder ${label(responder)}: no team uses it; left out`);
    else notes.push(`Responder ${label(responder)} → team${using.length > 1 ? 's' : ''} ${using.map((team) => team.prefixId).join(', ')}`);
  }
  if (teamIds.size + userIds.size === 0) notes.push("No responder named was found; the alert goes to the integration's destinations");
  return { team_ids: [...teamIds], account_user_ids: [...userIds], notes };
}
