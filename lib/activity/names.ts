// Names for what ids point at (teams, people, integrations), so messages people receive and the event lines of
// lib/activity/events.ts say "team Payments" and "Ada Lovelace" instead of ids. A warm process remembers a name for
// NAME_CACHE_TTL_MS, so a page or an event line usually costs no read; a rename shows within that time. Something
// deleted (or unreadable) is named by its id. docs/configuration.md, "What npm start prints".
import type { AccountUserData } from '../accounts/account-users.ts';
import { getItem } from '../db/items.ts';
import { alertKey } from '../db/keys.ts';
import { findEntity } from '../db/repository.ts';
import { getUser } from '../people/user-store.ts';
import { TtlCache } from '../ttl-cache.ts';

export const NAME_CACHE_TTL_MS = 30_000;
const names = new TtlCache<string, string>({ ttlMs: NAME_CACHE_TTL_MS, maxEntries: 5_000 });

export type NamedKind = 'team' | 'person' | 'integration';

async function loadName(kind: NamedKind, accountId: string, id: string): Promise<string | undefined> {
  if (kind === 'team') return (await findEntity<{ name: string }>('TEAM', accountId, id))?.data.name;
  if (kind === 'integration') return (await findEntity<{ name: string }>('INTEGRATION', accountId, id))?.data.name;
  const accountUser = await findEntity<AccountUserData>('ACCOUNT_USER', accountId, id);
  return accountUser ? (await getUser(accountUser.data.user_id))?.name : undefined;
}

/** The name of a team, a person (by account user id) or an integration; undefined when it no longer exists. */
export const nameOf = (kind: NamedKind, accountId: string, id: string): Promise<string | undefined> =>
  names.get(`${kind}\u0000${accountId}\u0000${id}`, () => loadName(kind, accountId, id));

/** Names looked up once, read without waiting: each falls back to the id it names. */
export interface Names {
  team(id: string): string;
  person(id: string): string;
  integration(id: string): string;
}

export interface NameWanted {
  teams?: readonly string[];
  people?: readonly string[];
  integrations?: readonly string[];
}

/** Looks up every name wanted at once. A failed read throws (the caller decides whether a name is worth failing for). */
export async function namesFor(accountId: string, wanted: NameWanted): Promise<Names> {
  const found = new Map<string, string>();
  const look = (kind: NamedKind, ids: readonly string[] = []) =>
    [...new Set(ids)].map(async (id) => {
      const name = await nameOf(kind, accountId, id);
      if (name) found.set(`${kind}:${id}`, name);
    });
  await Promise.all([...look('team', wanted.teams), ...look('person', wanted.people), ...look('integration', wanted.integrations)]);
  const named = (kind: NamedKind) => (id: string) => found.get(`${kind}:${id}`) ?? id;
  return { team: named('team'), person: named('person'), integration: named('integration') };
}

/** Names for event lines: never throws (a line is not worth failing a committed change for); ids stand in. */
export const namesForLines = (accountId: string, wanted: NameWanted): Promise<Names> => namesFor(accountId, wanted).catch(() => namesFor(accountId, {}));

const ID = '([0-9A-HJKMNP-TV-Z]{26}|[a-z]{2,4}_[A-Za-z0-9]{6,20})';
const TEAM_ID = new RegExp(`\\bteam ${ID}`, 'g');
const PERSON_ID = new RegExp(`\\baccount user ${ID}`, 'g');
const INTEGRATION_ID = new RegExp(`\\bintegration ${ID}`, 'g');

/** The ids a text of the alert's log names (`team 01J…`, `account user 01J…`, `integration 01J…`). Pure. */
export function idsInText(text: string): Required<NameWanted> {
  const all = (pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);
  return { teams: all(TEAM_ID), people: all(PERSON_ID), integrations: all(INTEGRATION_ID) };
}

/** The text with those ids replaced by names: `team Payments`, `Ada Lovelace`, `integration Grafana`. Pure. */
export const withNames = (text: string, named: Names): string =>
  text
    .replace(TEAM_ID, (_, id: string) => `team ${named.team(id)}`)
    .replace(PERSON_ID, (_, id: string) => named.person(id))
    .replace(INTEGRATION_ID, (_, id: string) => `integration ${named.integration(id)}`);

/** The title of what a message is about (an alert or a broadcast), read now; undefined when it is gone. */
export async function titleOf(accountId: string, about: { ownerType: 'alert' | 'broadcast'; ownerId: string }): Promise<string | undefined> {
  if (about.ownerType === 'broadcast') return (await findEntity<{ title: string }>('BROADCAST', accountId, about.ownerId))?.data.title;
  const alert = await getItem<{ type?: string; data?: { title?: string } }>(alertKey(accountId, about.ownerId), { consistent: false });
  return alert?.type === 'ALERT' ? alert.data?.title : undefined;
}
