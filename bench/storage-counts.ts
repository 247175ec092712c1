// The pure side of the storage tracer (bench/storage-trace.ts): which part of the service sent a call (from its
// async stack), what one command reads and writes, round trips made one after another, and a create's calls split
// into the create itself, its deliveries and the periodic jobs that happened to run meanwhile.
// docs/benchmarks.md, "Alert storms", says how the storms bench uses them.

/**
 * Who sent a call: the gateway (an API request or a webhook's accept), the ingest worker, the timers handler
 * (deliveries, escalations), the outgoing-webhooks worker, the periodic sweeper, or `other` (a detached promise,
 * whose async stack names none of them).
 */
export type Phase = 'gateway' | 'worker' | 'timers' | 'webhooks' | 'sweeper' | 'other';

export interface StorageCall {
  command: string;
  phase: Phase;
  start: number;
  end: number;
  itemsRead: number;
  itemsWritten: number;
  bytesWritten: number;
  transaction: boolean;
  /** The kinds of items written (the sort key's first segment), to see what a create stores. */
  writtenKinds: string[];
  /** What the call names: its key's or query's first segments, for reading a trace. */
  about: string;
}

/**
 * The phase of a call from its stack. The sweeper is checked first: it runs inside the timers function module and
 * the local timers runtime, and its index reads are a periodic job, not a create's work.
 */
export function phaseOf(stack: string): Phase {
  if (stack.includes('/lib/timers/sweeper')) return 'sweeper';
  if (stack.includes('/functions/webhooks.ts') || stack.includes('/lib/local/webhooks')) return 'webhooks';
  if (stack.includes('/functions/timers') || stack.includes('/lib/timers/batch-handler') || stack.includes('/lib/local/timers')) return 'timers';
  if (stack.includes('/lib/ingest/worker') || stack.includes('/functions/worker')) return 'worker';
  if (stack.includes('/lib/local/gateway') || stack.includes('/functions/')) return 'gateway';
  return 'other';
}

const sizeOf = (value: unknown): number => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/* eslint-disable @typescript-eslint/no-explicit-any -- commands' inputs and outputs are read field by field, marshalled or not */
const text = (v: any): string => (typeof v === 'string' ? v : typeof v?.S === 'string' ? v.S : '');

/** The kind of an item: its sort key's first segment (inputs reach the recorder marshalled ({ S: … }) or not). */
export const kindOf = (item: Record<string, any> | undefined): string => text(item?.sk).split('#')[0] || '?';

export type CallCounts = Pick<StorageCall, 'itemsRead' | 'itemsWritten' | 'bytesWritten' | 'transaction' | 'writtenKinds'>;

const none: CallCounts = { itemsRead: 0, itemsWritten: 0, bytesWritten: 0, transaction: false, writtenKinds: [] };

/** What one command reads and writes, from its input and output; bytes are the JSON of what is sent to be written. */
export function countsOf(command: string, input: Record<string, any>, output: Record<string, any>): CallCounts {
  switch (command) {
    case 'GetItemCommand':
      return { ...none, itemsRead: output.Item ? 1 : 0 };
    case 'QueryCommand':
    case 'ScanCommand':
      return { ...none, itemsRead: output.Count ?? output.Items?.length ?? 0 };
    case 'BatchGetItemCommand':
      return { ...none, itemsRead: Object.values(output.Responses ?? {}).reduce((n: number, items: any) => n + items.length, 0) };
    case 'PutItemCommand':
      return { ...none, itemsWritten: 1, bytesWritten: sizeOf(input.Item), writtenKinds: [kindOf(input.Item)] };
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return { ...none, itemsWritten: 1, bytesWritten: sizeOf(input.Key) + sizeOf(input.ExpressionAttributeValues), writtenKinds: [kindOf(input.Key)] };
    case 'BatchWriteItemCommand': {
      const requests = Object.values(input.RequestItems ?? {}).flat() as any[];
      const item = (r: any) => r.PutRequest?.Item ?? r.DeleteRequest?.Key;
      return { ...none, itemsWritten: requests.length, bytesWritten: requests.reduce((n, r) => n + sizeOf(item(r)), 0), writtenKinds: requests.map((r) => kindOf(item(r))) };
    }
    case 'TransactWriteItemsCommand': {
      // A ConditionCheck reads and writes nothing it is asked to store.
      const written = ((input.TransactItems ?? []) as any[]).filter((i) => !i.ConditionCheck);
      return {
        itemsRead: 0,
        itemsWritten: written.length,
        bytesWritten: written.reduce((n, i) => n + sizeOf(i.Put?.Item ?? i.Update?.Key) + sizeOf(i.Update?.ExpressionAttributeValues) + sizeOf(i.Delete?.Key), 0),
        transaction: true,
        writtenKinds: written.map((i) => kindOf(i.Put?.Item ?? i.Update?.Key ?? i.Delete?.Key)),
      };
    }
    case 'TransactGetItemsCommand':
      return { ...none, itemsRead: (output.Responses ?? []).filter((r: any) => r.Item).length, transaction: true };
    default:
      return none;
  }
}

/** Ids are every second segment of a key; keeping the others gives the key's shape (`A#…` → `A`). */
const shape = (v: string) => v.split('#').filter((_, i) => i % 2 === 0).join('#');

/** A short description of what a call names, for reading a trace. */
export function aboutOf(input: Record<string, any>): string {
  if (input.Key) return `${shape(text(input.Key.pk))} ${shape(text(input.Key.sk))}`;
  if (input.IndexName || input.KeyConditionExpression) return `${input.IndexName ?? 'table'} ${shape(String(Object.values(input.ExpressionAttributeValues ?? {}).map(text)[0] ?? ''))}`;
  if (input.RequestItems) return Object.values(input.RequestItems).flatMap((r: any) => (r.Keys ?? []).map((k: any) => shape(text(k.sk)))).join(',');
  return '';
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Round trips made one after another: a call that starts after every earlier call has ended begins a new round
 * trip; calls in flight together count once.
 */
export function sequentialRoundTrips(recorded: readonly StorageCall[]): number {
  const sorted = [...recorded].sort((a, b) => a.start - b.start);
  let trips = 0;
  let reach = -Infinity;
  for (const call of sorted) {
    if (call.start >= reach) trips++;
    reach = Math.max(reach, call.end);
  }
  return trips;
}

export interface Totals {
  calls: number;
  itemsRead: number;
  itemsWritten: number;
  transactions: number;
  roundTrips: number;
  bytesWritten: number;
}

/** The sums of a set of calls, with their sequential round trips. */
export function totalsOf(recorded: readonly StorageCall[]): Totals {
  const sum = (f: (c: StorageCall) => number) => recorded.reduce((n, c) => n + f(c), 0);
  return {
    calls: recorded.length,
    itemsRead: sum((c) => c.itemsRead),
    itemsWritten: sum((c) => c.itemsWritten),
    transactions: recorded.filter((c) => c.transaction).length,
    roundTrips: sequentialRoundTrips(recorded),
    bytesWritten: sum((c) => c.bytesWritten),
  };
}

/** Phases of periodic jobs: they run whether or not anything is created, so no create is charged for them. */
export const PERIODIC: readonly Phase[] = ['sweeper'];

export interface CreateSplit {
  /** The request (gateway) or accept and apply (gateway and worker), with detached calls started meanwhile. */
  create: StorageCall[];
  /** What the create set going: the pages' deliveries and timers, outgoing webhooks, detached calls after the create. */
  deliveries: StorageCall[];
  periodic: StorageCall[];
}

/**
 * One create's calls, split. A detached call (`other`) belongs to the create when it starts before the create's
 * last gateway or worker call has ended (the create started it), and to the deliveries otherwise.
 */
export function splitCreate(recorded: readonly StorageCall[]): CreateSplit {
  const own = recorded.filter((c) => c.phase === 'gateway' || c.phase === 'worker');
  const createEnd = own.reduce((end, c) => Math.max(end, c.end), -Infinity);
  const split: CreateSplit = { create: [], deliveries: [], periodic: [] };
  for (const call of recorded) {
    if (PERIODIC.includes(call.phase)) split.periodic.push(call);
    else if (call.phase === 'gateway' || call.phase === 'worker' || (call.phase === 'other' && call.start < createEnd)) split.create.push(call);
    else split.deliveries.push(call);
  }
  return split;
}

/** How many calls of each command (without the `Command` suffix), in the order first seen: `GetItem 3, Query 1`. */
export const commandMix = (recorded: readonly StorageCall[]): string => commandMixPer(recorded, 1);

/** commandMix per `per` (a storm's calls per create): `GetItem 2.01, TransactWriteItems 3.5`; whole counts stay whole. */
export function commandMixPer(recorded: readonly StorageCall[], per: number): string {
  const kinds = new Map<string, number>();
  for (const c of recorded) {
    const name = c.command.replace(/Command$/, '');
    kinds.set(name, (kinds.get(name) ?? 0) + 1);
  }
  const shown = (n: number) => (Number.isInteger(n / per) ? String(n / per) : (n / per).toFixed(2));
  return [...kinds].map(([k, n]) => `${k} ${shown(n)}`).join(', ');
}
