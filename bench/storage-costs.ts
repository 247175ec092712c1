// The storms bench's part "costs": what each kind of call costs DynamoDB Local on this machine, measured on a warm
// JVM at the storm's concurrency, as the model bench/storage-cost-model.ts predicts a create's storage time with.
// docs/benchmarks.md, "Where the storm ratio stops".
import { BatchGetItemCommand, GetItemCommand, PutItemCommand, QueryCommand, TransactWriteItemsCommand, UpdateItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { documentClient } from '#lib/db/client.ts';
import { RAW_TRANSACTION, rawTransactionRate } from './ingest-parts.ts';
import { fitLine, msPerCall, type CostModel, type Line } from './storage-cost-model.ts';
import { measure } from './timing.ts';

/** The transaction sizes the line is fitted through, and the batch and query sizes. */
export const COST_SIZES = { transaction: [1, 4, 10, 19, 28], batchGet: [1, 9], query: [1, 10] } as const;
/** Single-item calls are cheap: four times the raw transactions' runs, so each size takes about as long. */
const SINGLE_RUNS = RAW_TRANSACTION.runs * 4;

export interface MeasuredCosts {
  model: CostModel;
  /** Every point measured: what, ms per call, calls a second. */
  points: { name: string; ms: number; rate: number }[];
}

/** Rounds of raw transactions whose figures are dropped: the JVM's JIT needs them (the first runs at about 2/3 speed). */
export async function warmStorage(tableName: string, rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await rawTransactionRate(tableName);
}

export async function measureStorageCosts(tableName: string): Promise<MeasuredCosts> {
  await warmStorage(tableName);
  const run = randomUUID().slice(0, 8);
  const pk = (tag: string, i: number) => ({ S: `BENCH#COST#${run}#${tag}#${i}` });
  const item = (tag: string, i: number, k: number): Record<string, AttributeValue> => ({ pk: pk(tag, i), sk: { S: `ITEM#${String(k).padStart(2, '0')}` }, data: { S: 'x'.repeat(300) } });
  // The reads find the partitions of the largest transactions: RAW_TRANSACTION.runs of them, each holding every item.
  const largest = COST_SIZES.transaction.at(-1)!;
  const written = (i: number) => pk(`T${largest}`, i % RAW_TRANSACTION.runs);
  const points: MeasuredCosts['points'] = [];
  const timed = async (name: string, runs: number, op: (i: number) => Promise<unknown>) => {
    let sent = 0;
    const { rate } = await measure(runs, RAW_TRANSACTION.concurrency, 20, () => op(sent++));
    points.push({ name, ms: msPerCall(rate), rate });
    return msPerCall(rate);
  };
  // The raw commands of every kind through the one document client, as bench/ingest-parts.ts sends its transactions.
  const send = (command: object): Promise<unknown> => documentClient().send(command as never);
  const line = async (what: string, sizes: readonly number[], runsOf: (size: number) => number, op: (size: number, i: number) => Promise<unknown>): Promise<Line> => {
    const measured: { x: number; y: number }[] = [];
    for (const size of sizes) measured.push({ x: size, y: await timed(`${what} of ${size}`, runsOf(size), (i) => op(size, i)) });
    return fitLine(measured);
  };

  const transaction = await line('TransactWriteItems', COST_SIZES.transaction, (n) => (n < 10 ? SINGLE_RUNS : RAW_TRANSACTION.runs), (n, i) =>
    send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: n }, (_, k) => ({ Put: { TableName: tableName, Item: item(`T${n}`, i, k), ConditionExpression: 'attribute_not_exists(pk)' } })) })),
  );
  const putItem = await timed('PutItem', SINGLE_RUNS, (i) => send(new PutItemCommand({ TableName: tableName, Item: item('PUT', i, 0) })));
  const getItem = await timed('GetItem', SINGLE_RUNS, (i) => send(new GetItemCommand({ TableName: tableName, Key: { pk: written(i), sk: { S: 'ITEM#00' } }, ConsistentRead: true })));
  const updateItem = await timed('UpdateItem ADD (one hot item)', SINGLE_RUNS, () =>
    send(new UpdateItemCommand({ TableName: tableName, Key: { pk: { S: `BENCH#COST#${run}#HOT` }, sk: { S: 'COUNTER' } }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } })),
  );
  const batchGet = await line('BatchGetItem', COST_SIZES.batchGet, () => SINGLE_RUNS, (n, i) =>
    send(new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: Array.from({ length: n }, (_, k) => ({ pk: written(i), sk: { S: `ITEM#${String(k).padStart(2, '0')}` } })), ConsistentRead: true } } })),
  );
  const query = await line('Query', COST_SIZES.query, () => SINGLE_RUNS, (n, i) =>
    send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': written(i) }, Limit: n, ConsistentRead: true })),
  );
  return { model: { transaction, batchGet, getItem, putItem, updateItem, query }, points };
}
