// The storms bench's counting (bench/storage-counts.ts): which part of the service sent a call, what one command
// reads and writes, round trips made one after another, and a create's calls split from its deliveries.
import { describe, expect, it } from 'vitest';
import { commandMix, countsOf, phaseOf, sequentialRoundTrips, splitCreate, totalsOf, type Phase, type StorageCall } from '../../../bench/storage-counts.ts';

/** An async stack as V8 writes it, innermost first, from frames' file paths. */
const stack = (...files: string[]) => ['Error', ...files.map((f, i) => `    at ${i === 0 ? '' : 'async '}fn${i} (file:///home/dev/hark/${f}:10:5)`)].join('\n');
const SDK = 'node_modules/@smithy/core/dist-es/index.js';

const call = (phase: Phase, start: number, end: number, extra: Partial<StorageCall> = {}): StorageCall => ({
  command: 'GetItemCommand',
  phase,
  start,
  end,
  itemsRead: 1,
  itemsWritten: 0,
  bytesWritten: 0,
  transaction: false,
  writtenKinds: [],
  about: '',
  ...extra,
});

describe('phaseOf', () => {
  it('names the sweeper first, though it runs inside the timers function and the local timers runtime', () => {
    expect(phaseOf(stack(SDK, 'lib/db/items.ts', 'lib/timers/sweeper.ts', 'functions/timers.ts', 'lib/local/timers.ts'))).toBe('sweeper');
  });

  it('names the timers handler, from the function, the batch handler or the local poller', () => {
    expect(phaseOf(stack(SDK, 'lib/delivery/sender.ts', 'lib/timers/batch-handler.ts', 'functions/timers.ts'))).toBe('timers');
    expect(phaseOf(stack(SDK, 'lib/alerts/runner.ts', 'lib/local/timers.ts'))).toBe('timers');
  });

  it('names the outgoing-webhooks worker apart from the incoming webhook, which is the gateway', () => {
    expect(phaseOf(stack(SDK, 'lib/webhooks/send.ts', 'functions/webhooks.ts', 'lib/local/poller.ts'))).toBe('webhooks');
    expect(phaseOf(stack(SDK, 'lib/integrations/lookup.ts', 'functions/webhook.ts', 'lib/local/gateway.ts'))).toBe('gateway');
  });

  it('names the ingest worker, the gateway, and other for a detached promise', () => {
    expect(phaseOf(stack(SDK, 'lib/alerts/create.ts', 'lib/ingest/apply.ts', 'lib/ingest/worker.ts', 'functions/worker.ts'))).toBe('worker');
    expect(phaseOf(stack(SDK, 'lib/alerts/create.ts', 'functions/alerts.ts', 'lib/local/gateway.ts'))).toBe('gateway');
    expect(phaseOf(stack(SDK, 'lib/db/counters.ts', 'lib/ids.ts'))).toBe('other');
  });
});

describe('countsOf', () => {
  it('counts items read by a GetItem, a Query and a BatchGetItem', () => {
    expect(countsOf('GetItemCommand', { Key: {} }, { Item: { pk: 'A' } })).toMatchObject({ itemsRead: 1, itemsWritten: 0, transaction: false });
    expect(countsOf('GetItemCommand', { Key: {} }, {}).itemsRead).toBe(0);
    expect(countsOf('QueryCommand', {}, { Count: 7, Items: [] }).itemsRead).toBe(7);
    expect(countsOf('BatchGetItemCommand', {}, { Responses: { t: [{}, {}], u: [{}] } }).itemsRead).toBe(3);
  });

  it('counts one item, its kind and its bytes for a Put, an Update and a Delete', () => {
    const item = { pk: 'A#1', sk: 'ALERT#2', title: 'x' };
    expect(countsOf('PutItemCommand', { Item: item }, {})).toEqual({ itemsRead: 0, itemsWritten: 1, bytesWritten: JSON.stringify(item).length, transaction: false, writtenKinds: ['ALERT'] });
    const update = countsOf('UpdateItemCommand', { Key: { pk: { S: 'A#1' }, sk: { S: 'COUNTER#X' } }, ExpressionAttributeValues: { ':one': 1 } }, {});
    expect(update).toMatchObject({ itemsWritten: 1, writtenKinds: ['COUNTER'] });
    expect(update.bytesWritten).toBe(JSON.stringify({ pk: { S: 'A#1' }, sk: { S: 'COUNTER#X' } }).length + JSON.stringify({ ':one': 1 }).length);
    expect(countsOf('DeleteItemCommand', { Key: { pk: 'A', sk: 'PENDING#1' } }, {}).writtenKinds).toEqual(['PENDING']);
  });

  it('counts a transaction: every written item but condition checks, with their kinds', () => {
    const counts = countsOf(
      'TransactWriteItemsCommand',
      { TransactItems: [{ Put: { Item: { pk: 'A', sk: 'ALERT#1' } } }, { Update: { Key: { pk: 'A', sk: 'COUNTER#1' }, ExpressionAttributeValues: { ':n': 1 } } }, { Delete: { Key: { pk: 'A', sk: 'TIMER#1' } } }, { ConditionCheck: { Key: { pk: 'A', sk: 'TEAM#1' } } }] },
      {},
    );
    expect(counts).toMatchObject({ itemsRead: 0, itemsWritten: 3, transaction: true, writtenKinds: ['ALERT', 'COUNTER', 'TIMER'] });
    expect(counts.bytesWritten).toBeGreaterThan(0);
  });

  it('counts a batch write and a transactional read; an unknown command counts nothing', () => {
    expect(countsOf('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: { sk: 'LOG#1' } } }, { DeleteRequest: { Key: { sk: 'OUTBOX#2' } } }] } }, {})).toMatchObject({ itemsWritten: 2, writtenKinds: ['LOG', 'OUTBOX'] });
    expect(countsOf('TransactGetItemsCommand', {}, { Responses: [{ Item: {} }, {}] })).toMatchObject({ itemsRead: 1, transaction: true });
    expect(countsOf('DescribeTableCommand', {}, {})).toEqual({ itemsRead: 0, itemsWritten: 0, bytesWritten: 0, transaction: false, writtenKinds: [] });
  });
});

describe('sequentialRoundTrips', () => {
  it('counts calls in flight together once, and each call that starts after all earlier ones ended', () => {
    // [0,10] and [2,8] together; [10,15] starts as the first ends; [12,20] overlaps it; [21,22] alone.
    const calls = [call('worker', 12, 20), call('worker', 0, 10), call('worker', 2, 8), call('worker', 10, 15), call('worker', 21, 22)];
    expect(sequentialRoundTrips(calls)).toBe(3);
    expect(sequentialRoundTrips([])).toBe(0);
  });

  it('counts a call overlapping only a long earlier call as part of its round trip', () => {
    expect(sequentialRoundTrips([call('worker', 0, 100), call('worker', 10, 20), call('worker', 50, 60)])).toBe(1);
  });
});

describe('splitCreate and totalsOf', () => {
  it('charges the create with its own calls and the detached ones it started, deliveries with the rest, and no one with the sweeper', () => {
    const calls = [
      call('worker', 0, 10, { command: 'TransactWriteItemsCommand', itemsRead: 0, itemsWritten: 2, transaction: true, bytesWritten: 100 }),
      call('other', 5, 11, { command: 'UpdateItemCommand', itemsRead: 0, itemsWritten: 1, bytesWritten: 20 }),
      call('worker', 12, 40),
      call('sweeper', 15, 18, { command: 'QueryCommand', itemsRead: 0 }),
      call('timers', 50, 60, { command: 'TransactWriteItemsCommand', itemsRead: 0, itemsWritten: 3, transaction: true, bytesWritten: 60 }),
      call('other', 55, 58),
      call('webhooks', 70, 80),
    ];
    const split = splitCreate(calls);
    expect(split.create.map((c) => c.start)).toEqual([0, 5, 12]);
    expect(split.deliveries.map((c) => c.start)).toEqual([50, 55, 70]);
    expect(split.periodic.map((c) => c.phase)).toEqual(['sweeper']);
    expect(totalsOf(split.create)).toEqual({ calls: 3, itemsRead: 1, itemsWritten: 3, transactions: 1, roundTrips: 2, bytesWritten: 120 });
    expect(totalsOf(split.deliveries)).toMatchObject({ calls: 3, itemsWritten: 3, transactions: 1, roundTrips: 2 });
  });

  it('an API create is the gateway request with its detached calls', () => {
    const split = splitCreate([call('gateway', 0, 5), call('other', 1, 9), call('gateway', 6, 8), call('timers', 20, 25)]);
    expect(split.create).toHaveLength(3);
    expect(split.deliveries).toHaveLength(1);
  });

  it('names the commands of a set of calls with their counts', () => {
    expect(commandMix([call('worker', 0, 1), call('worker', 1, 2, { command: 'QueryCommand' }), call('worker', 2, 3)])).toBe('GetItem 2, Query 1');
  });
});
