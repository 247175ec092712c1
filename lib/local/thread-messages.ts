// The messages between the local runtime and its function threads (lib/local/threads.ts, function-thread.ts).
import type { LogRecord } from '../logger.ts';

export type ToThread =
  | { type: 'invoke'; id: number; functionName: string; event: unknown }
  | { type: 'pause'; id: number; queueUrl: string }
  | { type: 'resume'; queueUrl: string }
  | { type: 'stop'; id: number };

export type ToParent =
  | { type: 'ready' }
  | { type: 'failed'; error: Error }
  | { type: 'log'; record: LogRecord }
  /** A sign-in link's terminal line (npm start prints them on the gateway's thread: docs/console.md). */
  | { type: 'sign-in-line'; line: string }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: Error };
