// Entity storage shared by every endpoint group: typed items in the account partition, prefix-id aliases,
// per-account counters (tiny_id sequence and exact counts), optimistic concurrency and transactions. Writes
// are built with lib/db/writes.ts and sent with lib/db/items.ts; docs/storage.md describes both.

import { nowMs } from '../clock.ts';
import { limitExceeded, lostRace, notFound } from '../errors.ts';
import { couldBeId, idTimeMs, looksLikePrefixId, newId, newPrefixId } from '../ids.ts';
import { isConditionFailure } from './conditions.ts';
import { getItem, incrementCounter, queryAll, queryIndex, queryPrefix, transact } from './items.ts';
import { accountPk, entityPrefix, entitySk, prefixAliasSk, type EntityType } from './keys.ts';
import { TinyIdBlocks } from './tiny-id-blocks.ts';
import { changedMeanwhile, PERSISTENT_ATTEMPTS, retryOnConflict } from './retry.ts';
import {
  COLLECTION_LIMIT,
  counterKey,
  deleteItems,
  entityCreates,
  netCountChanges,
  versionWrite,
  type EntityItem,
  type IndexKeys,
  type TransactItem,
} from './writes.ts';

export { isConditionFailure, queryAll, transact };
export {
  COLLECTION_LIMIT,
  countChange,
  deleteItems,
  touchItem,
  unchangedCheck,
  versionWrite,
  type EntityItem,
  type TransactItem,
} from './writes.ts';

const HUMAN_NAMES: Record<EntityType, string> = {
  SCHEDULE: 'Schedule',
  EVENT: 'Event',
  TEAM: 'Team',
  ACCOUNT_USER: 'Account user',
  ESCALATION_POLICY: 'Escalation policy',
  ROUTER: 'Router',
  NOTIFICATION_RULE: 'Notification rule',
  MAINTENANCE_WINDOW: 'Maintenance window',
  INTEGRATION: 'Integration',
  COMMENT: 'Comment',
  OUTBOX: 'Outbox message',
  ALERT: 'Alert',
  BROADCAST: 'Broadcast',
  OUTGOING_WEBHOOK: 'Outgoing webhook',
  TIME_OFF: 'Time off',
};
export const humanName = (type: EntityType): string => HUMAN_NAMES[type];

/** The account's tiny-id sequences, each one counter item: `by` more ids, answering the last. */
const takeFromCounter = (accountId: string, type: EntityType, by: number) => incrementCounter(counterKey(accountId, type), 'lastTinyId', by);

/** The sequences a storm takes many of a second (an alert and its pages per create): taken in blocks then. */
const BLOCK_TYPES: readonly EntityType[] = ['ALERT', 'OUTBOX'];
const tinyIdBlocks = new TinyIdBlocks((key, by) => {
  const [accountId, type] = JSON.parse(key) as [string, EntityType];
  return takeFromCounter(accountId, type, by);
});

/**
 * `count` consecutive tiny ids of `type` (a step's outbox messages: ONE counter update, or none from a storm's block,
 * docs/decisions/0030-tiny-ids-in-blocks.md), in order; none for a count of 0 (no call).
 */
export async function allocateTinyIds(accountId: string, type: EntityType, count: number): Promise<number[]> {
  if (count <= 0) return [];
  if (BLOCK_TYPES.includes(type)) return tinyIdBlocks.take(JSON.stringify([accountId, type]), count);
  const last = await takeFromCounter(accountId, type, count);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** The next tiny id of `type` in the account. */
export const nextTinyId = async (accountId: string, type: EntityType): Promise<number> => (await allocateTinyIds(accountId, type, 1))[0]!;

/** The 422 of a create that would take a collection beyond its cap. */
export const collectionFull = (type: EntityType) =>
  limitExceeded(`An account can hold at most ${COLLECTION_LIMIT} ${humanName(type).toLowerCase()} objects`);

export interface CreateOptions {
  meta?: Record<string, unknown>;
  /** Other writes that must succeed or fail with this one (memberships, lookups). */
  extraItems?: TransactItem[];
  index?: IndexKeys;
  id?: string;
}

/**
 * A new entity item with its id, prefix_id and tiny_id allocated, not yet written: for changes that create
 * several entities in one transaction (write them with createEntities).
 */
export async function newEntityItem<D>(type: EntityType, accountId: string, data: D, options: Omit<CreateOptions, 'extraItems'> & { tinyId?: number } = {}): Promise<EntityItem<D>> {
  // created_at is the id's own time, so the key order (by ULID) is exactly the lists' default order.
  const at = nowMs();
  const id = options.id ?? newId(at);
  const now = new Date(idTimeMs(id) ?? at).toISOString();
  return {
    pk: accountPk(accountId),
    sk: entitySk(type, id),
    type,
    accountId,
    id,
    prefixId: newPrefixId(type),
    // A tiny id taken beforehand in a block (allocateTinyIds) saves this item its own counter update.
    tinyId: options.tinyId ?? (await nextTinyId(accountId, type)),
    version: 1,
    createdAt: now,
    updatedAt: now,
    meta: options.meta ?? {},
    data,
    ...options.index,
  };
}

/**
 * Writes new entities of one account (from newEntityItem) and any extra items in one transaction: each
 * entity with its prefix-id alias, and one count update per entity type (so several entities of one type are fine).
 */
export async function createEntities(items: readonly EntityItem<unknown>[], extraItems: TransactItem[] = []): Promise<void> {
  const first = items[0];
  if (!first) throw new Error('createEntities needs at least one entity');
  if (items.some((item) => item.accountId !== first.accountId)) throw new Error('createEntities writes entities of one account');
  const counts = items.map((item) => ({ accountId: item.accountId, type: item.type, delta: 1 }));
  try {
    await transact([...items.flatMap(entityCreates), ...netCountChanges(counts), ...extraItems]);
  } catch (error) {
    if (isConditionFailure(error)) {
      const perType = new Map<EntityType, number>();
      for (const item of items) perType.set(item.type, (perType.get(item.type) ?? 0) + 1);
      for (const [type, n] of perType) {
        if ((await countOf(first.accountId, type)) + n > COLLECTION_LIMIT) throw collectionFull(type);
      }
    }
    throw error;
  }
}

export async function createEntity<D>(type: EntityType, accountId: string, data: D, options: CreateOptions = {}): Promise<EntityItem<D>> {
  const { extraItems, ...itemOptions } = options;
  const item = await newEntityItem(type, accountId, data, itemOptions);
  await createEntities([item as EntityItem<unknown>], extraItems);
  return item;
}

export async function countOf(accountId: string, type: EntityType): Promise<number> {
  const counter = await getItem<{ itemCount?: number }>(counterKey(accountId, type));
  return Number(counter?.itemCount ?? 0);
}

/**
 * Finds an entity of this account by id or prefix_id; another account's objects are simply not found, and so is a
 * value that cannot be an id (no storage call: an over-long key would fail there).
 */
export async function findEntity<D>(type: EntityType, accountId: string, idOrPrefixId: string): Promise<EntityItem<D> | undefined> {
  if (!couldBeId(idOrPrefixId)) return undefined;
  const pk = accountPk(accountId);
  let sk = entitySk(type, idOrPrefixId);
  if (looksLikePrefixId(idOrPrefixId)) {
    const alias = await getItem<{ targetSk?: string }>({ pk, sk: prefixAliasSk(idOrPrefixId) });
    const target = alias?.targetSk;
    if (!target || !target.startsWith(entityPrefix(type))) return undefined;
    sk = target;
  }
  const item = await getItem<EntityItem<D>>({ pk, sk });
  return item?.type === type ? item : undefined;
}

export async function getEntity<D>(type: EntityType, accountId: string, idOrPrefixId: string): Promise<EntityItem<D>> {
  const item = await findEntity<D>(type, accountId, idOrPrefixId);
  if (!item) throw notFound(humanName(type));
  return item;
}

/** Reads a whole bounded collection of the account, strongly consistent so a list shows what was just written. */
export const listEntities = <D>(type: EntityType, accountId: string): Promise<EntityItem<D>[]> =>
  queryPrefix<EntityItem<D>>(accountPk(accountId), entityPrefix(type));

/**
 * Reads a whole gsi1 collection (e.g. the comments of one parent, keyed by `childrenGsi`) in ascending gsi1sk
 * order, paged by DynamoDB. Index reads are eventually consistent on AWS: a write may take a moment to appear.
 */
export const listByIndex = <T extends object = EntityItem>(gsi1pk: string): Promise<T[]> => queryIndex<T>(gsi1pk);

export interface UpdateOptions<D> {
  meta?: Record<string, unknown>;
  index?: IndexKeys;
  extraItems?: (next: EntityItem<D>, previous: EntityItem<D>) => TransactItem[];
}

const lostRaceOn = (type: EntityType) => lostRace(`${humanName(type)} was changed by another request; retry`);

/** Writes a new version of an entity only if nobody else wrote since it was read (optimistic concurrency). */
export async function putNewVersion<D>(previous: EntityItem<D>, data: D, options: UpdateOptions<D> = {}): Promise<EntityItem<D>> {
  const { next, write: put } = versionWrite(previous, data, options.meta, options.index);
  const extra = options.extraItems?.(next, previous) ?? [];
  try {
    await transact([put, ...extra]);
  } catch (error) {
    if (isConditionFailure(error)) throw lostRaceOn(previous.type);
    throw error;
  }
  return next;
}

/**
 * Read-modify-write with retries: re-reads and re-applies the change when another writer got there first,
 * so concurrent updates never lose each other's fields. Gives up with 409 after a few attempts.
 */
export async function updateEntity<D>(
  type: EntityType,
  accountId: string,
  idOrPrefixId: string,
  change: (current: EntityItem<D>) => Promise<{ data: D } & UpdateOptions<D>> | ({ data: D } & UpdateOptions<D>),
): Promise<EntityItem<D>> {
  return retryOnConflict(
    async () => {
      const current = await getEntity<D>(type, accountId, idOrPrefixId);
      const { data, ...options } = await change(current);
      return putNewVersion(current, data, options);
    },
    { exhausted: changedMeanwhile(humanName(type)) },
  );
}

/**
 * Deletes an entity as it was read: the entity (only if nothing started referencing it since, see touchItem),
 * its alias, its count and the extra writes. One attempt; a lost race throws a retryable 409.
 */
export async function deleteEntity<D>(item: EntityItem<D>, extraItems: TransactItem[] = []): Promise<void> {
  try {
    await transact([...deleteItems(item as EntityItem<unknown>, { guard: 'references' }), ...extraItems]);
  } catch (error) {
    if (isConditionFailure(error)) throw lostRaceOn(item.type);
    throw error;
  }
}

/**
 * DELETE of an entity whose outcome does not depend on its content: reads it, lets `plan` check what refers
 * to it (throwing 409 or 422 to refuse) and name the writes that go with the delete, and deletes it. An update
 * of the entity meanwhile does not matter; a new reference to it, or a change of an object the plan wrote,
 * makes it read and check again, with backoff, until it succeeds, is refused, or the entity is gone (404).
 */
export async function removeEntity<D>(
  type: EntityType,
  accountId: string,
  idOrPrefixId: string,
  plan: (current: EntityItem<D>) => Promise<TransactItem[] | void> | TransactItem[] | void = () => [],
): Promise<EntityItem<D>> {
  return retryOnConflict(
    async () => {
      const current = await getEntity<D>(type, accountId, idOrPrefixId);
      await deleteEntity(current, (await plan(current)) ?? []);
      return current;
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile(humanName(type)) },
  );
}

/** The API shape of the attributes every object has. */
export function renderCommon(item: EntityItem<unknown>) {
  return {
    id: item.id,
    prefix_id: item.prefixId,
    tiny_id: item.tinyId,
    account_id: item.accountId,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    meta: item.meta,
  };
}

/** Full API object: common attributes plus the entity's own fields. */
export function render<D extends object>(item: EntityItem<D>): Record<string, unknown> {
  const { meta, created_at, updated_at, ...ids } = renderCommon(item);
  return { ...ids, ...item.data, meta, created_at, updated_at };
}
