// The names pages show in place of ids: people (by account user id) and teams, read once per page.
import { getUsers } from '../people/user-store.ts';
import { listAccountUserItems, listTeams } from '../people/lookups.ts';
import { TtlCache } from '../ttl-cache.ts';

export interface Names {
  /** Whether every id is a known person or team (a cached copy may predate a new one). */
  knows(ids: readonly string[]): boolean;
  person(accountUserId: string | null | undefined): string;
  /** A text with every known person's or team's id (a log line's) replaced by their name. */
  withNames(text: string): string;
  team(teamId: string | null | undefined): string;
  readonly teams: readonly { id: string; name: string }[];
}

/** Names change rarely: a warm process keeps an account's for 10 seconds (a rename shows within that time). */
const NAMES = new TtlCache<string, Names>({ ttlMs: 10_000, maxEntries: 200 });

/** The account's names; read again when a cached copy does not know one of `ids` (a person or team added since). */
export async function namesOf(accountId: string, ids: readonly string[] = []): Promise<Names> {
  const cached = (await NAMES.get(accountId, () => readNames(accountId)))!;
  if (cached.knows(ids)) return cached;
  NAMES.forget((_names, key) => key === accountId);
  return (await NAMES.get(accountId, () => readNames(accountId)))!;
}

async function readNames(accountId: string): Promise<Names> {
  const [accountUsers, teams] = await Promise.all([listAccountUserItems(accountId), listTeams(accountId)]);
  const people = await getUsers(accountUsers.map((au) => au.data.user_id));
  const personNames = new Map(accountUsers.map((au) => [au.id, people.get(au.data.user_id)?.name ?? au.prefixId]));
  const teamNames = new Map(teams.map((t) => [t.id, t.data.name ?? t.prefixId]));
  return {
    knows: (ids) => ids.every((id) => personNames.has(id) || teamNames.has(id)),
    withNames: (text) => text.replace(/\b[0-9A-HJKMNP-TV-Z]{26}\b/g, (id) => personNames.get(id) ?? teamNames.get(id) ?? id),
    person: (id) => (id ? (personNames.get(id) ?? 'someone no longer in this account') : 'nobody'),
    team: (id) => (id ? (teamNames.get(id) ?? 'a deleted team') : ''),
    teams: teams.map((t) => ({ id: t.id, name: t.data.name ?? t.prefixId })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}
