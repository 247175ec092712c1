// Counts what the process asks of DynamoDB: every command sent through the one document client, with the items it
// reads and writes, whether it is a transaction, the bytes it writes and when it started and ended, and which part
// of the service sent it (the gateway, the ingest worker, the timers handler: read from the call's async stack).
// `npm run bench -- storms` reports these per create (docs/benchmarks.md, "Alert storms").
import { documentClient } from '#lib/db/client.ts';

export type Phase = 'gateway' | 'worker' | 'timers' | 'other';

export interface StorageCall {
  command: string;
  phase: Phase;
  start: number;
  end: number;
  itemsRead: number;
  itemsWritten: number;
  bytesWritten: number;
  transaction: boolean;
  /** For transactions: the kinds of items written (the sort key's first segment), to see what a create stores. */
  writtenKinds: string[];
  /** What the call names: its key's or query's first segments, for reading a trace. */
  about: string;
}

let calls: StorageCall[] | undefined;
let installed = false;

const sizeOf = (value: unknown): number => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

function phaseOf(stack: string): Phase {
  if (stack.includes('/functions/timers') || stack.includes('/lib/timers/batch-handler') || stack.includes('/lib/local/timers')) return 'timers';
  if (stack.includes('/lib/ingest/worker') || stack.includes('/functions/worker')) return 'worker';
  if (stack.includes('/lib/local/gateway') || stack.includes('/functions/')) return 'gateway';
  return 'other';
}

const kindOf = (item: Record<string, any> | undefined): string => {
  // Inputs reach this step marshalled ({ S: … }) or not, depending on the client that sent them.
  const raw = item?.sk;
  const sk = typeof raw === 'string' ? raw : typeof raw?.S === 'string' ? raw.S : '';
  return sk.split('#')[0] || '?';
};

/** What one command reads and writes, from its input and output. */
function countsOf(command: string, input: Record<string, any>, output: Record<string, any>): Pick<StorageCall, 'itemsRead' | 'itemsWritten' | 'bytesWritten' | 'transaction' | 'writtenKinds'> {
  switch (command) {
    case 'GetItemCommand':
      return { itemsRead: output.Item ? 1 : 0, itemsWritten: 0, bytesWritten: 0, transaction: false, writtenKinds: [] };
    case 'QueryCommand':
    case 'ScanCommand':
      return { itemsRead: output.Count ?? output.Items?.length ?? 0, itemsWritten: 0, bytesWritten: 0, transaction: false, writtenKinds: [] };
    case 'BatchGetItemCommand':
      return { itemsRead: Object.values(output.Responses ?? {}).reduce((n: number, items: any) => n + items.length, 0), itemsWritten: 0, bytesWritten: 0, transaction: false, writtenKinds: [] };
    case 'PutItemCommand':
      return { itemsRead: 0, itemsWritten: 1, bytesWritten: sizeOf(input.Item), transaction: false, writtenKinds: [kindOf(input.Item)] };
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return { itemsRead: 0, itemsWritten: 1, bytesWritten: sizeOf(input.Key) + sizeOf(input.ExpressionAttributeValues), transaction: false, writtenKinds: [kindOf(input.Key)] };
    case 'BatchWriteItemCommand': {
      const requests = Object.values(input.RequestItems ?? {}).flat() as any[];
      return { itemsRead: 0, itemsWritten: requests.length, bytesWritten: requests.reduce((n, r) => n + sizeOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key), 0), transaction: false, writtenKinds: requests.map((r) => kindOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)) };
    }
    case 'TransactWriteItemsCommand': {
      const items = (input.TransactItems ?? []) as any[];
      const written = items.filter((i) => !i.ConditionCheck);
      return {
        itemsRead: 0,
        itemsWritten: written.length,
        bytesWritten: written.reduce((n, i) => n + sizeOf(i.Put?.Item ?? i.Update?.Key) + sizeOf(i.Update?.ExpressionAttributeValues) + sizeOf(i.Delete?.Key), 0),
        transaction: true,
        writtenKinds: written.map((i) => kindOf(i.Put?.Item ?? i.Update?.Key ?? i.Delete?.Key)),
      };
    }
    case 'TransactGetItemsCommand':
      return { itemsRead: (output.Responses ?? []).filter((r: any) => r.Item).length, itemsWritten: 0, bytesWritten: 0, transaction: true, writtenKinds: [] };
    default:
      return { itemsRead: 0, itemsWritten: 0, bytesWritten: 0, transaction: false, writtenKinds: [] };
  }
}

const text = (v: any): string => (typeof v === 'string' ? v : typeof v?.S === 'string' ? v.S : '');
const shape = (v: string) => v.split('#').filter((_, i) => i % 2 === 0).join('#');
function aboutOf(input: Record<string, any>): string {
  if (input.Key) return `${shape(text(input.Key.pk))} ${shape(text(input.Key.sk))}`;
  if (input.IndexName || input.KeyConditionExpression) return `${input.IndexName ?? 'table'} ${shape(String(Object.values(input.ExpressionAttributeValues ?? {}).map(text)[0] ?? ''))}`;
  if (input.RequestItems) return Object.values(input.RequestItems).flatMap((r: any) => (r.Keys ?? []).map((k: any) => shape(text(k.sk)))).join(',');
  return '';
}

/** Starts recording every storage call (installing the recorder on the document client the first time). */
export function startTrace(): void {
  if (!installed) {
    installed = true;
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        if (!calls) return next(args);
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 80;
        const stack = new Error().stack ?? '';
        Error.stackTraceLimit = limit;
        const start = performance.now();
        const result = await next(args);
        const command = context.commandName ?? '?';
        calls?.push({ command, phase: phaseOf(stack), start, end: performance.now(), about: aboutOf(args.input as Record<string, any>), ...countsOf(command, args.input as Record<string, any>, result.output as Record<string, any>) });
        return result;
      },
      { step: 'initialize', name: 'benchStorageTrace' },
    );
  }
  calls = [];
}

/** Stops recording; answers the calls recorded since startTrace. */
export function stopTrace(): StorageCall[] {
  const recorded = calls ?? [];
  calls = undefined;
  return recorded;
}

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
