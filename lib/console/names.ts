// The names pages show in place of ids: people (by account user id) and teams, read once per page.
import { getUsers } from '../people/user-store.ts';
import { listAccountUserItems, listTeams } from '../people/lookups.ts';

export interface Names {
  person(accountUserId: string | null | undefined): string;
  team(teamId: string | null | undefined): string;
  readonly teams: readonly { id: string; name: string }[];
}

export async function namesOf(accountId: string): Promise<Names> {
  const [accountUsers, teams] = await Promise.all([listAccountUserItems(accountId), listTeams(accountId)]);
  const people = await getUsers(accountUsers.map((au) => au.data.user_id));
  const personNames = new Map(accountUsers.map((au) => [au.id, people.get(au.data.user_id)?.name ?? au.prefixId]));
  const teamNames = new Map(teams.map((t) => [t.id, t.data.name ?? t.prefixId]));
  return {
    person: (id) => (id ? (personNames.get(id) ?? 'someone no longer in this account') : 'nobody'),
    team: (id) => (id ? (teamNames.get(id) ?? 'a deleted team') : ''),
    teams: teams.map((t) => ({ id: t.id, name: t.data.name ?? t.prefixId })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}
