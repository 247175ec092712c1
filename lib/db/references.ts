// Ids a request names in its body (team members, reassign targets, a team's schedule): each must be an object
// of the caller's account. Stored as the canonical id, whichever form (id or prefix_id) the client sent.
import type { EntityType } from './keys.ts';
import { findEntity, type EntityItem } from './repository.ts';

/** How an id is looked up: storage by default, a create's lookups go through the configuration cache. */
export type EntityFinder = (type: EntityType, accountId: string, idOrPrefixId: string) => Promise<EntityItem<unknown> | undefined>;

export interface ResolvedList {
  /** Canonical ids, in the order given, without repeats. */
  ids: string[];
  /** The entities named (one per id). */
  items: EntityItem<unknown>[];
  /** One message per unknown id, naming the field. */
  problems: string[];
}

/** Resolves a list of ids of one entity type; another account's ids are unknown. */
export async function resolveIdList(type: EntityType, accountId: string, field: string, noun: string, values: readonly string[], find: EntityFinder = findEntity): Promise<ResolvedList> {
  const distinct = [...new Set(values)];
  const found = await Promise.all(distinct.map((value) => find(type, accountId, value)));
  const ids: string[] = [];
  const items: EntityItem<unknown>[] = [];
  const problems: string[] = [];
  distinct.forEach((value, i) => {
    const item = found[i];
    if (!item) problems.push(`${field} contains unknown ${noun} ${value}`);
    else if (!ids.includes(item.id)) {
      ids.push(item.id);
      items.push(item);
    }
  });
  return { ids, items, problems };
}

/** Resolves one id; `problem` names the field when it is not an object of the account. */
export async function resolveId(
  type: EntityType,
  accountId: string,
  field: string,
  noun: string,
  value: string,
): Promise<{ item: EntityItem<unknown> } | { problem: string }> {
  const item = await findEntity(type, accountId, value);
  return item ? { item } : { problem: `${field} refers to unknown ${noun} ${value}` };
}
