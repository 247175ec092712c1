// Item-level storage operations by key: the only module besides the client that speaks the DynamoDB SDK.
// Domain code says what (a key, an item, a transaction built with lib/db/writes.ts); this says how.

import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { documentClient } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { backoffDelayMs } from './retry.ts';
import type { Key, TransactItem } from './writes.ts';

const table = () => config().tableName;
type SdkTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Adds the table name to transaction items built without it. Pure. */
export function withTable(items: readonly TransactItem[], tableName: string): SdkTransactItem[] {
  return items.map((item) => {
    const [kind, body] = Object.entries(item)[0] as [string, Record<string, unknown>];
    return { [kind]: { TableName: tableName, ...body } } as SdkTransactItem;
  });
}

/** Writes all items or none (at most TRANSACTION_ITEMS; batchUnits splits longer lists). */
export async function transact(items: readonly TransactItem[]): Promise<void> {
  if (items.length === 0) return;
  await documentClient().send(new TransactWriteCommand({ TransactItems: withTable(items, table()) }));
}

/**
 * One conditional UpdateItem outside any transaction (built like a transaction's Update): many writers of one item
 * queue up instead of cancelling each other as concurrent transactions do. False when its condition failed.
 */
export async function updateIf(write: Extract<TransactItem, { Update: unknown }>): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand({ TableName: table(), ...write.Update }));
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** One item by key, strongly consistent unless asked otherwise. */
export async function getItem<T extends object>(key: Key, options: { consistent?: boolean } = {}): Promise<T | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: table(), Key: { pk: key.pk, sk: key.sk }, ConsistentRead: options.consistent ?? true }));
  return result.Item as T | undefined;
}

/** BatchGetItem's limit of keys per request. */
const BATCH_GET_KEYS = 100;

/** Items by key, in BatchGetItem rounds of 100 (unprocessed keys are asked again after a pause); missing ones are left out. */
export async function getItems<T extends object>(keys: readonly Key[]): Promise<T[]> {
  const found: T[] = [];
  const distinct = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, { pk: k.pk, sk: k.sk }])).values()];
  for (let start = 0; start < distinct.length; start += BATCH_GET_KEYS) {
    let pending: Record<string, unknown>[] = distinct.slice(start, start + BATCH_GET_KEYS);
    for (let round = 1; pending.length > 0; round++) {
      if (round > 1) await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(round, 0.5 + Math.random() / 2)));
      const result = await documentClient().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: pending, ConsistentRead: true } } }));
      found.push(...((result.Responses?.[table()] ?? []) as T[]));
      pending = (result.UnprocessedKeys?.[table()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}

/** BatchWriteItem's limit of items per request. */
const BATCH_WRITE_ITEMS = 25;

/**
 * Puts items unconditionally, in BatchWriteItem rounds of 25 (unprocessed ones written again after a pause). Not a
 * transaction and not conditional: for loading data that nothing else writes yet (the benchmarks' seeded accounts).
 */
export async function putItems(items: readonly (Key & object)[]): Promise<void> {
  for (let start = 0; start < items.length; start += BATCH_WRITE_ITEMS) {
    let pending: Record<string, unknown>[] = items.slice(start, start + BATCH_WRITE_ITEMS).map((Item) => ({ PutRequest: { Item } }));
    for (let round = 1; pending.length > 0; round++) {
      if (round > 1) await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(round, 0.5 + Math.random() / 2)));
      const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table()]: pending as never } }));
      pending = (result.UnprocessedItems?.[table()] ?? []) as Record<string, unknown>[];
    }
  }
}

/** Writes an item that must not exist yet; false when it already did (a repeated write is a no-op). */
export async function putIfAbsent(item: Key & object): Promise<boolean> {
  try {
    await documentClient().send(new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Deletes an item whatever it holds; deleting a missing item succeeds. */
export async function deleteItem(key: Key): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: { pk: key.pk, sk: key.sk } }));
}

/**
 * Deletes an item and returns what it held, only if `condition` holds: a value taken exactly once (a second
 * caller, or one whose condition fails, gets undefined).
 */
export async function takeItem<T extends object>(
  key: Key,
  condition: { expression: string; values: Record<string, unknown> },
): Promise<T | undefined> {
  try {
    const result = await documentClient().send(
      new DeleteCommand({
        TableName: table(),
        Key: { pk: key.pk, sk: key.sk },
        ConditionExpression: condition.expression,
        ExpressionAttributeValues: condition.values,
        ReturnValues: 'ALL_OLD',
      }),
    );
    return result.Attributes as T | undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * Adds `by` to a number attribute of an item (created at 0 when missing) and returns the new value: sequences. With
 * `by` > 1 the caller owns the block of values from (new value − by + 1) to the new value.
 */
export async function incrementCounter(key: Key, attribute: string, by = 1): Promise<number> {
  const result = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': attribute },
      ExpressionAttributeValues: { ':one': by },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.[attribute]);
}

export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/** Runs a Query to the end, following DynamoDB's pages; the one place that pages through results. */
export async function queryAll<T>(input: QueryInput): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, TableName: table(), ExclusiveStartKey: startKey }));
    items.push(...((page.Items ?? []) as T[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * Runs a Query one DynamoDB page at a time, for readers that act on each page before reading the next (the
 * timer sweeper): memory stays bounded by the page size however many items match.
 */
export async function* queryPages<T>(input: QueryInput): AsyncGenerator<T[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, TableName: table(), ExclusiveStartKey: startKey }));
    yield (page.Items ?? []) as T[];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** One page of a Query from `startKey` (a page's `next`), for readers that size each page from what the last one held. */
export async function queryPage<T>(input: QueryInput, startKey?: Record<string, unknown>): Promise<{ items: T[]; next: Record<string, unknown> | undefined }> {
  const page = await documentClient().send(new QueryCommand({ ...input, TableName: table(), ExclusiveStartKey: startKey }));
  return { items: (page.Items ?? []) as T[], next: page.LastEvaluatedKey };
}

/** The items of a partition whose sort key starts with `prefix`, strongly consistent. */
export const queryPrefix = <T>(pk: string, prefix: string): Promise<T[]> =>
  queryAll<T>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ConsistentRead: true,
  });

/**
 * Reads a whole gsi1 collection in ascending gsi1sk order, paged by DynamoDB. Index reads are eventually
 * consistent on AWS: a write may take a moment to appear.
 */
export const queryIndex = <T>(gsi1pk: string): Promise<T[]> =>
  queryAll<T>({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk } });

/** The first `limit` items of a gsi1 collection, newest (highest gsi1sk) first. */
export async function queryIndexNewest<T>(gsi1pk: string, limit: number): Promise<T[]> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []) as T[];
}

/**
 * The first `limit` items of a Query, in its order, reading only as many as needed (DynamoDB's `Limit`, following
 * its pages until that many are read): the cost of a page of an index, whatever the index holds.
 */
export async function queryFirst<T>(input: QueryInput, limit: number): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  while (items.length < limit) {
    const page = await documentClient().send(new QueryCommand({ ...input, TableName: table(), Limit: limit - items.length, ExclusiveStartKey: startKey }));
    items.push(...((page.Items ?? []) as T[]));
    startKey = page.LastEvaluatedKey;
    if (!startKey) break;
  }
  return items;
}
