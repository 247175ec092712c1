// Entity storage shared by every endpoint group: typed items in the account partition, prefix-id aliases,
// per-account counters (tiny_id sequence and exact counts), optimistic concurrency and transactions.

import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandInput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { nowIso, nowMs } from '../clock.ts';
import { conflict, notFound, unprocessable } from '../http/errors.ts';
import { idTimeMs, looksLikePrefixId, newId, newPrefixId } from '../ids.ts';
import { documentClient } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { accountPk, counterSk, entityPrefix, entitySk, prefixAliasSk, type EntityType } from './keys.ts';

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
type SdkTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface EntityItem<D = Record<string, unknown>> {
  pk: string;
  sk: string;
  type: EntityType;
  accountId: string;
  id: string;
  prefixId: string;
  tinyId: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  meta: Record<string, unknown>;
  data: D;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
}

/** Largest collection of one entity type in one account; lists read whole collections, so they stay bounded. */
export const COLLECTION_LIMIT = 5000;

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
};
export const humanName = (type: EntityType): string => HUMAN_NAMES[type];

const table = () => config().tableName;


export { isConditionFailure };

/** Adds the table name to transaction items written without it. */
function withTable(items: TransactItem[]): SdkTransactItem[] {
  const name = table();
  return items.map((item) => {
    const [kind, body] = Object.entries(item)[0] as [string, Values];
    return { [kind]: { TableName: name, ...body } } as SdkTransactItem;
  });
}

export async function transact(items: TransactItem[]): Promise<void> {
  // DynamoDB allows 100 items per transaction; callers that could exceed it must split by design.
  await documentClient().send(new TransactWriteCommand({ TransactItems: withTable(items) }));
}

async function nextTinyId(accountId: string, type: EntityType): Promise<number> {
  const result = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: accountPk(accountId), sk: counterSk(type) },
      UpdateExpression: 'ADD lastTinyId :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.lastTinyId);
}

/** The change of an account's count of one entity type; a transaction may hold only one per type (net delta). */
export function countChange(accountId: string, type: EntityType, delta: number): TransactItem {
  const key = { pk: accountPk(accountId), sk: counterSk(type) };
  if (delta > 0) {
    return {
      Update: {
        Key: key,
        UpdateExpression: 'ADD itemCount :delta',
        ConditionExpression: 'attribute_not_exists(itemCount) OR itemCount <= :max',
        ExpressionAttributeValues: { ':delta': delta, ':max': COLLECTION_LIMIT - delta },
      },
    };
  }
  return { Update: { Key: key, UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': delta } } };
}

export interface CreateOptions {
  meta?: Record<string, unknown>;
  /** Other writes that must succeed or fail with this one (memberships, lookups). */
  extraItems?: TransactItem[];
  index?: Pick<EntityItem, 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk'>;
  id?: string;
}

/**
 * A new entity item with its id, prefix_id and tiny_id allocated, not yet written: for changes that create
 * several entities in one transaction (write them with createEntities).
 */
export async function newEntityItem<D>(type: EntityType, accountId: string, data: D, options: Omit<CreateOptions, 'extraItems'> = {}): Promise<EntityItem<D>> {
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
    tinyId: await nextTinyId(accountId, type),
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
  const perType = new Map<EntityType, number>();
  for (const item of items) perType.set(item.type, (perType.get(item.type) ?? 0) + 1);
  try {
    await transact([
      ...items.flatMap((item): TransactItem[] => [
        { Put: { Item: item as unknown as Values, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { Item: { pk: item.pk, sk: prefixAliasSk(item.prefixId), targetSk: item.sk }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]),
      ...[...perType].map(([type, n]) => countChange(first.accountId, type, n)),
      ...extraItems,
    ]);
  } catch (error) {
    if (isConditionFailure(error)) {
      for (const [type, n] of perType) {
        if ((await countOf(first.accountId, type)) + n > COLLECTION_LIMIT) {
          throw unprocessable(`An account can hold at most ${COLLECTION_LIMIT} ${humanName(type).toLowerCase()} objects`);
        }
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
  const result = await documentClient().send(
    new GetCommand({ TableName: table(), Key: { pk: accountPk(accountId), sk: counterSk(type) }, ConsistentRead: true }),
  );
  return Number(result.Item?.itemCount ?? 0);
}

async function getBySk<D>(accountId: string, sk: string): Promise<EntityItem<D> | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: { pk: accountPk(accountId), sk }, ConsistentRead: true }));
  return result.Item as EntityItem<D> | undefined;
}

/** Finds an entity of this account by id or prefix_id; another account's objects are simply not found. */
export async function findEntity<D>(type: EntityType, accountId: string, idOrPrefixId: string): Promise<EntityItem<D> | undefined> {
  if (!idOrPrefixId) return undefined;
  let sk = entitySk(type, idOrPrefixId);
  if (looksLikePrefixId(idOrPrefixId)) {
    const alias = await documentClient().send(
      new GetCommand({ TableName: table(), Key: { pk: accountPk(accountId), sk: prefixAliasSk(idOrPrefixId) }, ConsistentRead: true }),
    );
    const target = alias.Item?.targetSk as string | undefined;
    if (!target || !target.startsWith(entityPrefix(type))) return undefined;
    sk = target;
  }
  const item = await getBySk<D>(accountId, sk);
  return item?.type === type ? item : undefined;
}

export async function getEntity<D>(type: EntityType, accountId: string, idOrPrefixId: string): Promise<EntityItem<D>> {
  const item = await findEntity<D>(type, accountId, idOrPrefixId);
  if (!item) throw notFound(humanName(type));
  return item;
}

/** Runs a Query to the end, following DynamoDB's pages; the one place that pages through results. */
export async function queryAll<T>(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, TableName: table(), ExclusiveStartKey: startKey }));
    items.push(...((page.Items ?? []) as T[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Reads a whole bounded collection of the account, strongly consistent so a list shows what was just written. */
export async function listEntities<D>(type: EntityType, accountId: string): Promise<EntityItem<D>[]> {
  return queryAll<EntityItem<D>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': accountPk(accountId), ':prefix': entityPrefix(type) },
    ConsistentRead: true,
  });
}

/**
 * Reads a whole gsi1 collection (e.g. the comments of one parent, keyed by `childrenGsi`) in ascending gsi1sk
 * order, paged by DynamoDB. Index reads are eventually consistent on AWS: a write may take a moment to appear.
 */
export async function listByIndex<T extends object = EntityItem>(gsi1pk: string): Promise<T[]> {
  return queryAll<T>({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk } });
}

/** Reads entities of one type by id, in one round of GetItems; missing ones are left out. */
export async function getEntitiesByIds<D>(type: EntityType, accountId: string, ids: readonly string[]): Promise<EntityItem<D>[]> {
  const found = await Promise.all([...new Set(ids)].map((id) => findEntity<D>(type, accountId, id)));
  return found.filter((item): item is EntityItem<D> => item !== undefined);
}

export interface UpdateOptions<D> {
  meta?: Record<string, unknown>;
  index?: Pick<EntityItem, 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk'>;
  extraItems?: (next: EntityItem<D>, previous: EntityItem<D>) => TransactItem[];
}

/** The next version of an entity and its conditional Put (fails if anyone wrote since `previous` was read). */
export function versionWrite<D>(
  previous: EntityItem<D>,
  data: D,
  meta?: Record<string, unknown>,
  index?: UpdateOptions<D>['index'],
): { next: EntityItem<D>; write: TransactItem } {
  const next: EntityItem<D> = { ...previous, ...index, data, meta: meta ?? previous.meta, version: previous.version + 1, updatedAt: nowIso() };
  return {
    next,
    write: { Put: { Item: next as unknown as Values, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } } },
  };
}

/** Fails the transaction if the entity changed (or disappeared) since it was read. */
export function unchangedCheck(item: Pick<EntityItem<unknown>, 'pk' | 'sk' | 'version'>): TransactItem {
  return { ConditionCheck: { Key: { pk: item.pk, sk: item.sk }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': item.version } } };
}

/** Writes a new version of an entity only if nobody else wrote since it was read (optimistic concurrency). */
export async function putNewVersion<D>(previous: EntityItem<D>, data: D, options: UpdateOptions<D> = {}): Promise<EntityItem<D>> {
  const { next, write: put } = versionWrite(previous, data, options.meta, options.index);
  const extra = options.extraItems?.(next, previous) ?? [];
  try {
    await transact([put, ...extra]);
  } catch (error) {
    if (isConditionFailure(error)) throw conflict(`${humanName(previous.type)} was changed by another request; retry`);
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
  for (let attempt = 0; ; attempt++) {
    const current = await getEntity<D>(type, accountId, idOrPrefixId);
    const { data, ...options } = await change(current);
    try {
      return await putNewVersion(current, data, options);
    } catch (error) {
      if (attempt >= 4 || !(error instanceof Error && (error as { status?: number }).status === 409)) throw error;
    }
  }
}

/** The writes deleting an entity; `count: false` leaves out the count change, for callers that send one net countChange. */
export function deleteItems<D>(item: EntityItem<D>, options: { count?: boolean } = {}): TransactItem[] {
  return [
    { Delete: { Key: { pk: item.pk, sk: item.sk }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': item.version } } },
    { Delete: { Key: { pk: item.pk, sk: prefixAliasSk(item.prefixId) } } },
    ...(options.count === false ? [] : [countChange(item.accountId, item.type, -1)]),
  ];
}

export async function deleteEntity<D>(item: EntityItem<D>, extraItems: TransactItem[] = []): Promise<void> {
  try {
    await transact([...deleteItems(item), ...extraItems]);
  } catch (error) {
    if (isConditionFailure(error)) throw conflict(`${humanName(item.type)} was changed by another request; retry`);
    throw error;
  }
}

/**
 * A transaction write that bumps an existing entity's version without changing it: a change that starts to
 * rely on the entity (a team linking a schedule) fails if the entity is gone, and a concurrent conditional
 * delete or update of the entity fails instead of leaving a dangling reference.
 */
export function touchItem(item: Pick<EntityItem<unknown>, 'pk' | 'sk'>): TransactItem {
  return {
    Update: {
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: 'SET version = version + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
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
