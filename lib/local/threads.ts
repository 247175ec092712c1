// A function host in a worker thread of its own (node:worker_threads), seen from the thread that started it: the same
// FunctionHost as one on this thread (lib/local/function-host.ts), each call a message. A thread that dies is started
// again a second later, as Lambda starts a new instance after a crash; what it held returns to its queue.
import { Worker } from 'node:worker_threads';
import { logger } from '../logger.ts';
import { printSignInLine, printsSignInLinks } from '../console/sign-in-delivery.ts';
import type { FunctionHost, HostedFunction } from './function-host.ts';
import type { ThreadData } from './function-thread.ts';
import type { ToParent, ToThread } from './thread-messages.ts';

const THREAD_ENTRY = new URL('./function-thread.ts', import.meta.url);
/** How long stop waits for a thread to finish its batches before ending it. */
const STOP_GRACE_MS = 10_000;
const RESTART_DELAY_MS = 1_000;

export interface ThreadOptions {
  /** The thread's name in log lines. */
  name: string;
  functions: HostedFunction[];
  /** The thread's whole environment; this process's when undefined (source mode). */
  environment?: Record<string, string>;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export function startThreadHost(options: ThreadOptions): FunctionHost {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stopping = false;
  let worker: Worker;

  const start = () => {
    const data: ThreadData = { functions: options.functions, logLevel: logger.getLevelName(), printsSignInLinks: printsSignInLinks() };
    worker = new Worker(THREAD_ENTRY, { workerData: data, name: `hark ${options.name}`, ...(options.environment ? { env: options.environment } : {}) });
    worker.on('message', (message: ToParent) => {
      if (message.type === 'log') logger.printRecord(message.record);
      else if (message.type === 'sign-in-line') printSignInLine(message.line);
      else if (message.type === 'failed') logger.error('A function thread failed to start', { thread: options.name, error: message.error });
      else if (message.type === 'result') {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (message.ok) call?.resolve(message.value);
        else call?.reject(message.error);
      }
    });
    worker.on('error', (error) => logger.error('A function thread crashed', { thread: options.name, error }));
    worker.once('exit', (code) => {
      for (const call of pending.values()) call.reject(new Error(`The function thread ${options.name} ended (exit code ${code})`));
      pending.clear();
      if (stopping) return;
      logger.error('A function thread ended; starting it again', { thread: options.name, exitCode: code });
      setTimeout(() => !stopping && start(), RESTART_DELAY_MS).unref();
    });
  };
  start();

  type Call = { type: 'invoke'; functionName: string; event: unknown } | { type: 'pause'; queueUrl: string } | { type: 'stop' };
  const call = (message: Call): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id } as ToThread);
    });

  return {
    invoke: (functionName, event) => call({ type: 'invoke', functionName, event }),
    pause: async (queueUrl) => void (await call({ type: 'pause', queueUrl })),
    resume: (queueUrl) => worker.postMessage({ type: 'resume', queueUrl } satisfies ToThread),
    stop: async () => {
      stopping = true;
      const current = worker;
      const exited = new Promise<void>((resolve) => {
        if (current.threadId < 0) resolve();
        else current.once('exit', () => resolve());
      });
      const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
      await Promise.race([call({ type: 'stop' }).catch(() => undefined), grace]);
      await current.terminate();
      await exited;
    },
  };
}
