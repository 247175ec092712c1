// Counts what the process asks of DynamoDB: every command sent through the one document client, with the items it
// reads and writes, whether it is a transaction, the bytes it writes and when it started and ended, and which part
// of the service sent it (read from the call's async stack). The counting itself is pure: bench/storage-counts.ts.
// `npm run bench -- storms` reports these per create (docs/benchmarks.md, "Alert storms").
import { documentClient } from '#lib/db/client.ts';
import { aboutOf, countsOf, phaseOf, type StorageCall } from './storage-counts.ts';

export { sequentialRoundTrips, type Phase, type StorageCall } from './storage-counts.ts';

let calls: StorageCall[] | undefined;
/** The clients the recorder is on: a new client (another endpoint) gets it too. */
const installed = new WeakSet<object>();

/** Starts recording every storage call (installing the recorder on the document client the first time). */
export function startTrace(): void {
  const client = documentClient();
  if (!installed.has(client)) {
    installed.add(client);
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!calls) return next(args);
        // Deep enough to reach the handler's frame under the SDK's and the retry wrapper's own.
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 80;
        const stack = new Error().stack ?? '';
        Error.stackTraceLimit = limit;
        const start = performance.now();
        const result = await next(args);
        const command = context.commandName ?? '?';
        const input = args.input as Record<string, unknown>;
        calls?.push({ command, phase: phaseOf(stack), start, end: performance.now(), about: aboutOf(input), ...countsOf(command, input, result.output as Record<string, unknown>) });
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
