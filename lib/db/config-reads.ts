// The cached configuration reads of a create (lib/db/config-cache.ts): entities and collections of configuration kinds
// by key, and any other configuration read by name. Never an alert, a log, a counter or a timer.
import { CONFIGURATION_KINDS, configCache } from './config-cache.ts';
export { configCacheOn } from './config-cache.ts';
import type { EntityType } from './keys.ts';
import { findEntity, listEntities, type EntityItem } from './repository.ts';

/** An entity of the account by id or prefix id, from the cache (never an alert: see CONFIGURATION_KINDS). */
export function cachedEntity<D>(type: EntityType, accountId: string, idOrPrefixId: string): Promise<EntityItem<D> | undefined> {
  if (!CONFIGURATION_KINDS[type]) return findEntity<D>(type, accountId, idOrPrefixId);
  return configCache().read(accountId, `entity\u0000${type}\u0000${idOrPrefixId}`, () => findEntity<D>(type, accountId, idOrPrefixId));
}

/** A whole configuration collection of the account (time off, maintenance windows), from the cache. */
export function cachedEntities<D>(type: EntityType, accountId: string): Promise<EntityItem<D>[]> {
  if (!CONFIGURATION_KINDS[type]) return listEntities<D>(type, accountId);
  return configCache().read(accountId, `list\u0000${type}`, () => listEntities<D>(type, accountId));
}

/** Any other configuration read of the account (a schedule's events, a person), named by `what`, from the cache. */
export const cachedConfigRead = <T>(accountId: string, what: string, load: () => Promise<T>): Promise<T> => configCache().read(accountId, what, load);
