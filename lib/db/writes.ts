// The write toolkit: pure builders of the conditional writes every service makes (new items with their
// prefix-id alias, versioned writes, reference touches, counter changes, deletes) and the batcher that splits
// long lists of writes into transactions. No I/O here, so test/unit/db checks the exact keys, conditions and
// TransactItems offline. The conventions are in docs/storage.md, "The write toolkit".

import { nowIso } from '../clock.ts';
import { accountPk, aliasKeyOf, besideCountSk, counterSk, type EntityType } from './keys.ts';
import { COLLECTION_LIMIT, TRANSACTION_ITEMS } from '../limits.ts';

// Re-exported for the services that build transactions; the values and their reasons live in lib/limits.ts.
export { COLLECTION_LIMIT, TRANSACTION_ITEMS };

type Values = Record<string, unknown>;
interface Expressions {
  ConditionExpression?: string;
  ExpressionAttributeValues?: Values;
  ExpressionAttributeNames?: Record<string, string>;
}
/** One write of a transaction; the table name is added when it is sent. */
export type TransactItem =
  | { Put: { Item: Values } & Expressions }
  | { Update: { Key: Values; UpdateExpression: string } & Expressions }
  | { Delete: { Key: Values } & Expressions }
  | { ConditionCheck: { Key: Values; ConditionExpression: string } & Expressions };

export type Key = { pk: string; sk: string };

export interface EntityItem<D = Record<string, unknown>> {
  pk: string;
  sk: string;
  type: EntityType;
  accountId: string;
  id: string;
  prefixId: string;
  tinyId: number;
  /** Bumped by every write of the entity and by every reference touch. */
  version: number;
  /**
   * Bumped only when another object starts referencing this one (touchItem): a delete checks it instead of
   * `version`, so updates of the entity's own fields cannot starve a delete. Absent until the first touch.
   */
  refVersion?: number;
  createdAt: string;
  updatedAt: string;
  meta: Record<string, unknown>;
  data: D;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
}

export type IndexKeys = Pick<EntityItem, 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk'>;

const keyOf = (item: Key): Key => ({ pk: item.pk, sk: item.sk });

/** Writes an item that must not exist yet (a new entity, a claim, a log written once). */
export function putNew(item: object): TransactItem {
  return { Put: { Item: { ...item } as Values, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** Replaces an item written before, whatever it holds now (copies kept in step with their source). */
export function putOver(item: object): TransactItem {
  return { Put: { Item: { ...item } as Values } };
}

/** Deletes an item whatever it holds, and succeeds when it is already gone. */
export function deleteAny(key: Key): TransactItem {
  return { Delete: { Key: keyOf(key) } };
}

// Prefix-id aliases ------------------------------------------------------------------------------------------

/** The alias item resolving an entity's prefix_id to its sort key, in the same account partition. */
// (A sharded outbox message's alias is in the shard of its prefix id: aliasKeyOf, docs/storage.md.)
type Aliased = Pick<EntityItem<unknown>, 'pk' | 'prefixId'> & Partial<Pick<EntityItem<unknown>, 'type' | 'accountId'>>;
export function aliasItem(entity: Aliased & Pick<EntityItem<unknown>, 'sk'>): Key & { targetSk: string } {
  return { ...aliasKeyOf(entity), targetSk: entity.sk };
}

export const aliasCreate = (entity: Aliased & Pick<EntityItem<unknown>, 'sk'>): TransactItem => putNew(aliasItem(entity));
export const aliasDelete = (entity: Aliased): TransactItem => deleteAny(aliasKeyOf(entity));

/** A new entity and its alias; the count change is separate (one per type and transaction). */
export function entityCreates(entity: EntityItem<unknown>): TransactItem[] {
  return [putNew(entity), aliasCreate(entity)];
}

// Counters ---------------------------------------------------------------------------------------------------

/** The key of the account's counter item of one entity type (tiny_id sequence and exact count). */
export const counterKey = (accountId: string, type: EntityType): Key => ({ pk: accountPk(accountId), sk: counterSk(type) });

/**
 * Entity types whose count is also kept beside their items (`<TYPE>$COUNT`, besideCountKey), so the first page of
 * their list is one Query (docs/lists.md, Cost). Each of their count changes writes both items, in one transaction.
 */
export const COUNT_BESIDE_ITEMS: ReadonlySet<EntityType> = new Set<EntityType>(['SCHEDULE']);

/** The copy of the count of one entity type, beside its items; trusted only once marked `exact` (lib/db/pages.ts). */
export const besideCountKey = (accountId: string, type: EntityType): Key => ({ pk: accountPk(accountId), sk: besideCountSk(type) });

/** The items one count change of this type writes: the counter, and the copy beside the items for COUNT_BESIDE_ITEMS. */
export const countItemsPerChange = (type: EntityType): number => (COUNT_BESIDE_ITEMS.has(type) ? 2 : 1);

/**
 * The writes of a change of an account's count of one entity type; a transaction may hold only one per type (the
 * net delta). A growth carries the cap as its condition on the counter, so a create beyond COLLECTION_LIMIT fails.
 * For COUNT_BESIDE_ITEMS types the copy beside the items changes by the same delta, in the same transaction.
 */
export function countChange(accountId: string, type: EntityType, delta: number): TransactItem[] {
  const Key = counterKey(accountId, type);
  const counter: TransactItem =
    delta > 0
      ? {
          Update: {
            Key,
            UpdateExpression: 'ADD itemCount :delta',
            ConditionExpression: 'attribute_not_exists(itemCount) OR itemCount <= :max',
            ExpressionAttributeValues: { ':delta': delta, ':max': COLLECTION_LIMIT - delta },
          },
        }
      : { Update: { Key, UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': delta } } };
  if (!COUNT_BESIDE_ITEMS.has(type)) return [counter];
  return [counter, { Update: { Key: besideCountKey(accountId, type), UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': delta } } }];
}

/** The count changes of several creates and deletes, netted to one per account and type (zero changes left out). */
export function netCountChanges(changes: readonly CountDelta[]): TransactItem[] {
  const net = new Map<string, CountDelta>();
  for (const c of changes) {
    const key = `${c.accountId}#${c.type}`;
    const entry = net.get(key) ?? { accountId: c.accountId, type: c.type, delta: 0 };
    entry.delta += c.delta;
    net.set(key, entry);
  }
  return [...net.values()].filter((c) => c.delta !== 0).flatMap((c) => countChange(c.accountId, c.type, c.delta));
}

export interface CountDelta {
  accountId: string;
  type: EntityType;
  delta: number;
}

// Versions ---------------------------------------------------------------------------------------------------

const versionIs = (version: number) => ({ ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': version } });

/** Writes `next` only if the stored item still has the version that was read (optimistic concurrency). */
export function versionedPut(next: object, readVersion: number): TransactItem {
  return { Put: { Item: { ...next } as Values, ...versionIs(readVersion) } };
}

/** The next version of an entity and its conditional Put (fails if anyone wrote since `previous` was read). */
export function versionWrite<D>(previous: EntityItem<D>, data: D, meta?: Record<string, unknown>, index?: IndexKeys): { next: EntityItem<D>; write: TransactItem } {
  const next: EntityItem<D> = { ...previous, ...index, data, meta: meta ?? previous.meta, version: previous.version + 1, updatedAt: nowIso() };
  return { next, write: versionedPut(next, previous.version) };
}

/** Fails the transaction if the item changed (or disappeared) since it was read. */
export function unchangedCheck(item: Key & { version: number }): TransactItem {
  return { ConditionCheck: { Key: keyOf(item), ...versionIs(item.version) } };
}

/**
 * A write that marks an existing entity as newly referenced without changing it: a change that starts to
 * rely on the entity (a team linking a schedule) fails if the entity is gone, and a delete of the entity that
 * checked its references before this fails (its refVersion moved) instead of leaving a dangling reference.
 * The version moves too, so a concurrent write of the entity, which copies refVersion, is read again.
 */
export function touchItem(item: Key): TransactItem {
  return {
    Update: {
      Key: keyOf(item),
      UpdateExpression: 'SET version = version + :one ADD refVersion :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

/**
 * How a delete guards against concurrent writes: `version` when what it does depends on the entity's
 * content (any write since the read fails it), `references` when only the entity's existence and the
 * references to it matter (it fails only when the entity is gone or newly referenced).
 */
export type DeleteGuard = 'version' | 'references';

function deleteCondition(item: Pick<EntityItem<unknown>, 'version' | 'refVersion'>, guard: DeleteGuard): Expressions {
  if (guard === 'version') return versionIs(item.version);
  if (item.refVersion === undefined) return { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(refVersion)' };
  return { ConditionExpression: 'refVersion = :r', ExpressionAttributeValues: { ':r': item.refVersion } };
}

/** The writes deleting an entity: the entity (guarded), its alias and, unless `count: false`, its count. */
export function deleteItems(item: EntityItem<unknown>, options: { count?: boolean; guard?: DeleteGuard } = {}): TransactItem[] {
  return [
    { Delete: { Key: keyOf(item), ...deleteCondition(item, options.guard ?? 'version') } },
    aliasDelete(item),
    ...(options.count === false ? [] : countChange(item.accountId, item.type, -1)),
  ];
}

// Transactions of at most TRANSACTION_ITEMS ------------------------------------------------------------------

/**
 * Writes that must go to the same transaction, with the count changes they cause (netted per batch: a
 * transaction may change the counter item only once).
 */
export interface WriteUnit {
  writes: TransactItem[];
  counts?: CountDelta[];
}

/** The unit deleting one entity whose count change the batch shares. */
export function deletionUnit(item: EntityItem<unknown>, guard: DeleteGuard = 'version'): WriteUnit {
  return { writes: deleteItems(item, { count: false, guard }), counts: [{ accountId: item.accountId, type: item.type, delta: -1 }] };
}

const countKeysOf = (counts: readonly CountDelta[] | undefined) => (counts ?? []).map((c) => `${c.accountId}#${c.type}`);
/** The items the net count changes of these keys write (`<account>#<type>` keys; see countItemsPerChange). */
const countItemsOf = (keys: Iterable<string>): number => [...keys].reduce((n, key) => n + countItemsPerChange(key.slice(key.lastIndexOf('#') + 1) as EntityType), 0);

/**
 * Groups units into transactions of at most `limit` items, count changes included; a unit is never split.
 * Each transaction is all or nothing; together they are not (callers make every step safe to repeat).
 */
export function batchUnits(units: readonly WriteUnit[], limit = TRANSACTION_ITEMS): TransactItem[][] {
  const batches: TransactItem[][] = [];
  let writes: TransactItem[] = [];
  let counts: CountDelta[] = [];
  let countKeys = new Set<string>();
  const flush = () => {
    if (writes.length === 0 && counts.length === 0) return;
    batches.push([...writes, ...netCountChanges(counts)]);
    writes = [];
    counts = [];
    countKeys = new Set();
  };
  for (const unit of units) {
    const unitKeys = new Set(countKeysOf(unit.counts));
    if (unit.writes.length + countItemsOf(unitKeys) > limit) throw new Error(`A write unit of ${unit.writes.length} items does not fit in one transaction`);
    const newKeys = [...unitKeys].filter((k) => !countKeys.has(k));
    if (writes.length + unit.writes.length + countItemsOf(countKeys) + countItemsOf(newKeys) > limit) flush();
    writes.push(...unit.writes);
    counts.push(...(unit.counts ?? []));
    for (const k of unitKeys) countKeys.add(k);
  }
  flush();
  return batches;
}

// Taking an id out of a list ---------------------------------------------------------------------------------

/** `#p0.#p1…` and its names, for a document path such as ['data', 'schedule_ids']. */
function pathOf(path: readonly string[]): { expression: string; names: Record<string, string> } {
  return { expression: path.map((_, i) => `#p${i}`).join('.'), names: Object.fromEntries(path.map((name, i) => [`#p${i}`, name])) };
}

/**
 * Removes the element at `index` of the list at `path`, only if that element still is `value`. The intent
 * ("this id leaves the list") does not depend on the rest of the item, so a concurrent write of other fields
 * does not fail it (a reordered list does: read again). Moves the version, like every write of an entity.
 */
export function listElementRemoval(item: Key, path: readonly string[], index: number, value: unknown): TransactItem {
  const list = pathOf(path);
  return {
    Update: {
      Key: keyOf(item),
      UpdateExpression: `REMOVE ${list.expression}[${index}] SET version = version + :one, updatedAt = :now`,
      ConditionExpression: `${list.expression}[${index}] = :value`,
      ExpressionAttributeNames: list.names,
      ExpressionAttributeValues: { ':value': value, ':one': 1, ':now': nowIso() },
    },
  };
}

/**
 * The writes deleting an entity because `value` leaves the list at `path` and it was the only element: only
 * if the list still holds exactly that (a concurrent write that added another element fails it: read again).
 * The count change is separate (see deletionUnit).
 */
export function deleteWhenOnlyElement(item: EntityItem<unknown>, path: readonly string[], value: unknown): TransactItem[] {
  const list = pathOf(path);
  return [
    {
      Delete: {
        Key: keyOf(item),
        ConditionExpression: `size(${list.expression}) = :one AND ${list.expression}[0] = :value`,
        ExpressionAttributeNames: list.names,
        ExpressionAttributeValues: { ':one': 1, ':value': value },
      },
    },
    aliasDelete(item),
  ];
}

/**
 * The unit taking `value` out of the list at `path` of an entity as read: the element's removal, or the
 * entity's deletion (with its count) when nothing would be left.
 */
export function listRemovalUnit(item: EntityItem<unknown>, path: readonly string[], value: unknown, list: readonly unknown[]): WriteUnit | undefined {
  const index = list.indexOf(value);
  if (index < 0) return undefined;
  if (list.length === 1) {
    return { writes: deleteWhenOnlyElement(item, path, value), counts: [{ accountId: item.accountId, type: item.type, delta: -1 }] };
  }
  return { writes: [listElementRemoval(item, path, index, value)] };
}
