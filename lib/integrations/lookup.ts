// The global lookup items of an integration: the webhook knows only the id in its path, so everything it
// needs (account, enabled flag, token hash, wrapper key, type and the options its reader checks requests with) is copied under `INTEGRATION#<id>` and
// `INTEGRATION#<prefix_id>`, written in the same transaction as every create, update and delete. A type with a sender
// key (PagerDuty's routing_key) has a third, `INTEGRATION_KEY#<sha256 of the key>`, for senders that name the key and
// no path id (POST /v2/enqueue); docs/integrations.md, "Sender keys".

import { getItem } from '../db/items.ts';
import { integrationLookupKey, senderKeyLookupKey } from '../db/keys.ts';
import { deleteAny, putNew, putOver, type EntityItem, type TransactItem } from '../db/writes.ts';
import { hashSecret, secretMatches } from '../ids.ts';
import { TtlCache } from '../ttl-cache.ts';
import { readerOf } from '../monitor-readers/index.ts';
import type { IntegrationReader } from '../monitor-readers/types.ts';
import { typeOptionsOf, type IntegrationData } from './schema.ts';
import { hasIntakeStep } from './type-state.ts';
import { senderKeyOf } from './sender-key.ts';

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
  /** SHA-256 of the integration's sender key, for a type that has one (the key itself is never in a lookup item). */
  senderKeyHash?: string;
}

/** A type whose intake reads its options (a signature check, a heartbeat's timing) gets them on the lookup item. */
const needsOptionsAtIntake = (reader: IntegrationReader | undefined): boolean => reader !== undefined && (reader.verify !== undefined || hasIntakeStep(reader.id));

/** The SHA-256 of an integration's sender key, for a type that has one. */
const senderKeyHashOf = (item: EntityItem<IntegrationData>): string | undefined => {
  const key = senderKeyOf(item.data.integration_type.id, item.data.options);
  return key === undefined ? undefined : hashSecret(key);
};

/** The keys of an integration's lookup items: by id, by prefix_id and, for a type with one, by its sender key's hash. */
function lookupKeysOf(item: EntityItem<IntegrationData>): { pk: string; sk: string }[] {
  const keyHash = senderKeyHashOf(item);
  return [integrationLookupKey(item.id), integrationLookupKey(item.prefixId), ...(keyHash !== undefined ? [senderKeyLookupKey(keyHash)] : [])];
}

/** The lookup items (by id, by prefix_id, by sender key) of an integration as stored. Pure. */
export function lookupItemsOf(item: EntityItem<IntegrationData>): IntegrationLookupItem[] {
  const keyHash = senderKeyHashOf(item);
  return lookupKeysOf(item).map((key) => ({
    ...key,
    type: 'INTEGRATION_LOOKUP',
    accountId: item.accountId,
    integrationId: item.id,
    prefixId: item.prefixId,
    enabled: item.data.enabled,
    tokenHash: item.data.options.token_hash,
    wrapperKey: item.data.options.wrapper_key,
    integrationTypeId: item.data.integration_type.id,
    ...(needsOptionsAtIntake(readerOf(item.data.integration_type.id)) ? { verifyOptions: typeOptionsOf(item.data.options) } : {}),
    ...(keyHash !== undefined ? { senderKeyHash: keyHash } : {}),
  }));
}

/** Writes for a new integration: the lookup keys must be free (a clash fails the create). */
export const lookupCreates = (item: EntityItem<IntegrationData>): TransactItem[] =>
  lookupItemsOf(item).map(putNew);

/**
 * Writes for an updated integration: the copies are replaced with the new version's values. When the sender key changed
 * (a rotation), the old key's item is deleted in the same transaction, so the old key stops working with the change.
 */
export function lookupUpdates(item: EntityItem<IntegrationData>, previous?: EntityItem<IntegrationData>): TransactItem[] {
  const before = previous && senderKeyHashOf(previous);
  const stale = before !== undefined && before !== senderKeyHashOf(item) ? [deleteAny(senderKeyLookupKey(before))] : [];
  return [...lookupItemsOf(item).map(putOver), ...stale];
}

export const lookupDeletes = (item: EntityItem<IntegrationData>): TransactItem[] => lookupKeysOf(item).map((key) => deleteAny(key));

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

/**
 * The integration whose sender key this is (PagerDuty's routing_key at POST /v2/enqueue), if any: one GetItem of the
 * item keyed by the key's SHA-256, cached per process like findIntegrationLookup; the key is then compared with the
 * item's hash in constant time. Undefined for an unknown key (not cached, so a new key works at once).
 */
export async function findIntegrationBySenderKey(key: string): Promise<IntegrationLookupItem | undefined> {
  const keyHash = hashSecret(key);
  const found = await lookups.get(`key:${keyHash}`, async () => {
    const item = await getItem<IntegrationLookupItem>(senderKeyLookupKey(keyHash));
    return item?.type === 'INTEGRATION_LOOKUP' ? item : undefined;
  });
  return found?.senderKeyHash !== undefined && secretMatches(key, found.senderKeyHash) ? found : undefined;
}

/** Whether `key` is the sender key of the integration a lookup item describes (constant-time; false for a type without one). */
export const senderKeyMatches = (lookup: IntegrationLookupItem, key: string): boolean => lookup.senderKeyHash !== undefined && secretMatches(key, lookup.senderKeyHash);

/** An integration was changed or deleted by this process: its lookups are read afresh from now on. */
export function forgetIntegrationLookups(integrationId: string): void {
  lookups.forget((lookup) => lookup.integrationId === integrationId);
}
