// The local runtime's per-function invoker (docs/architecture.md, "Local runtime"): one way to load and call a
// Lambda handler, whether its code is the TypeScript source (`functions/<name>.ts`, `npm start`) or the esbuild bundle
// `cdk deploy` uploads (`cdk.out/asset.<hash>/index.mjs`, `npm start -- --bundles`). The gateway, the queue pollers
// and the sweeper's interval call functions only through an Invoker; where it runs (this thread or a worker thread of
// its own) is the caller's choice (lib/local/threads.ts).
import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where a function's code comes from. */
export type FunctionCode =
  | { kind: 'source'; module: string }
  | { kind: 'bundle'; file: string; exportName: string };

/** One function as the runtime runs it: its code, its Lambda settings and, in bundle mode, its own environment. */
export interface FunctionSpec {
  /** The Lambda's name in logs and the context (`worker`, `TimersLambda`, …). */
  name: string;
  code: FunctionCode;
  /** The Lambda timeout: the context's remaining time counts down from it. */
  timeoutMs: number;
  memoryMb: number;
  /**
   * The variables the stack gives the function, resolved to their local equivalents (lib/local/bundles.ts); undefined
   * runs it with this process's environment (source mode, as `npm start` always has).
   */
  environment?: Record<string, string>;
}

export type Handler = (event: unknown, context: Context) => Promise<unknown>;

/** Calls one function. `stop` waits for invocations under way. */
export interface Invoker {
  readonly name: string;
  invoke(event: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

const FUNCTIONS_DIR = join(import.meta.dirname, '..', '..', 'functions');

/** The source spec of `functions/<module>.ts`, with the stack's timeout and memory (infra/stack.ts). */
export const sourceSpec = (module: string, timeoutMs = 30_000): FunctionSpec => ({ name: module, code: { kind: 'source', module }, timeoutMs, memoryMb: 512 });

const loaded = new Map<string, Promise<Handler>>();

const codeKey = (code: FunctionCode) => (code.kind === 'source' ? `source:${code.module}` : `bundle:${code.file}#${code.exportName}`);

/** Loads a function's handler the way Lambda loads its code: once per thread, then reused (warm starts). */
export function loadCode(code: FunctionCode): Promise<Handler> {
  const key = codeKey(code);
  let handler = loaded.get(key);
  if (!handler) {
    const url = code.kind === 'source' ? pathToFileURL(join(FUNCTIONS_DIR, `${code.module}.ts`)).href : pathToFileURL(code.file).href;
    const exportName = code.kind === 'source' ? 'handler' : code.exportName;
    handler = import(url).then((module: Record<string, unknown>) => {
      const found = module[exportName];
      if (typeof found !== 'function') throw new Error(`${url} exports no function ${exportName}`);
      return found as Handler;
    });
    loaded.set(key, handler);
  }
  return handler;
}

/** The context Lambda passes a handler: its name, a request id and the time left before its timeout. */
export function lambdaContext(functionName: string, timeoutMs = 30_000, memoryMb = 512): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Runs a function on this thread: the handler is imported here and called directly. */
export function inThreadInvoker(spec: FunctionSpec): Invoker {
  const ready = loadCode(spec.code);
  // A failed cold start (a bad variable) fails each invocation with its error, as Lambda's init error does.
  ready.catch(() => undefined);
  const running = new Set<Promise<unknown>>();
  return {
    name: spec.name,
    invoke: (event) => {
      const call = ready.then((handler) => handler(event, lambdaContext(spec.name, spec.timeoutMs, spec.memoryMb)));
      const settled = call.catch(() => undefined);
      running.add(settled);
      void settled.finally(() => running.delete(settled));
      return call;
    },
    stop: async () => {
      await Promise.all(running);
    },
  };
}
