// The global lookup items of an integration: the webhook knows only the id in its path, so everything it
// needs (account, enabled flag, token hash, wrapper key, type and the options its reader checks requests with) is copied under `INTEGRATION#<id>` and
// `INTEGRATION#<prefix_id>`, written in the same transaction as every create, update and delete.

import { getItem } from '../db/items.ts';
import { integrationLookupKey } from '../db/keys.ts';
import { deleteAny, putNew, putOver, type EntityItem, type TransactItem } from '../db/writes.ts';
import { TtlCache } from '../ttl-cache.ts';
import { readerOf } from '../monitor-readers/index.ts';
import type { IntegrationReader } from '../monitor-readers/types.ts';
import { typeOptionsOf, type IntegrationData } from './schema.ts';
import { hasIntakeStep } from './type-state.ts';

export interface IntegrationLookupItem {
  pk: string;
  sk: string;
  type: 'INTEGRATION_LOOKUP';
  accountId: string;
  integrationId: string;
  prefixId: string;
  enabled: boolean;
  /** SHA-256 of the token; null when the integration has no token. */
  tokenHash: string | null;
  wrapperKey: string | null;
  /** The integration type (absent on lookups written before types had readers: webhook). */
  integrationTypeId?: string;
  /** The type's options, kept only for a type whose reader checks or acts on requests at intake (a signing secret, a heartbeat's timing). */
  verifyOptions?: Record<string, unknown>;
}

/** A type whose intake reads its options (a signature check, a heartbeat's timing) gets them on the lookup item. */
const needsOptionsAtIntake = (reader: IntegrationReader | undefined): boolean => reader !== undefined && (reader.verify !== undefined || hasIntakeStep(reader.id));

/** The two lookup items (by id, by prefix_id) of an integration as stored. Pure. */
export function lookupItemsOf(item: EntityItem<IntegrationData>): IntegrationLookupItem[] {
  return [item.id, item.prefixId].map((key) => ({
    ...integrationLookupKey(key),
    type: 'INTEGRATION_LOOKUP',
    accountId: item.accountId,
    integrationId: item.id,
    prefixId: item.prefixId,
    enabled: item.data.enabled,
    tokenHash: item.data.options.token_hash,
    wrapperKey: item.data.options.wrapper_key,
    integrationTypeId: item.data.integration_type.id,
    ...(needsOptionsAtIntake(readerOf(item.data.integration_type.id)) ? { verifyOptions: typeOptionsOf(item.data.options) } : {}),
  }));
}

/** Writes for a new integration: the lookup keys must be free (a clash fails the create). */
export const lookupCreates = (item: EntityItem<IntegrationData>): TransactItem[] =>
  lookupItemsOf(item).map(putNew);

/** Writes for an updated integration: the copies are replaced with the new version's values. */
export const lookupUpdates = (item: EntityItem<IntegrationData>): TransactItem[] =>
  lookupItemsOf(item).map(putOver);

export const lookupDeletes = (item: EntityItem<IntegrationData>): TransactItem[] =>
  [item.id, item.prefixId].map((key) => deleteAny(integrationLookupKey(key)));

/**
 * How long a warm process serves an integration's lookup without reading it again: a change made in another
 * process (disabling, a new token, a delete) reaches the webhook within this time; one made in this process
 * at once (forgetIntegrationLookups). docs/decisions/0005-auth-caching.md.
 */
export const LOOKUP_CACHE_TTL_MS = 30_000;

const lookups = new TtlCache<string, IntegrationLookupItem>({ ttlMs: LOOKUP_CACHE_TTL_MS, maxEntries: 10_000 });

/** The webhook's one read: the integration named by a path id (id or prefix_id), if any; cached per process. */
export function findIntegrationLookup(idOrPrefixId: string): Promise<IntegrationLookupItem | undefined> {
  return lookups.get(idOrPrefixId, () => readIntegrationLookup(idOrPrefixId));
}

async function readIntegrationLookup(idOrPrefixId: string): Promise<IntegrationLookupItem | undefined> {
  const item = await getItem<IntegrationLookupItem>(integrationLookupKey(idOrPrefixId));
  return item?.type === 'INTEGRATION_LOOKUP' ? item : undefined;
}

/** An integration was changed or deleted by this process: its lookups are read afresh from now on. */
export function forgetIntegrationLookups(integrationId: string): void {
  lookups.forget((lookup) => lookup.integrationId === integrationId);
}
