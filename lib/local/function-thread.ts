// The entry of a function thread (node:worker_threads): hosts its functions (lib/local/function-host.ts) off the
// gateway's event loop, as each Lambda runs apart on AWS, and answers the parent's messages (lib/local/threads.ts).
// Log records go to the parent, which prints them as the terminal's lines in the order each thread wrote them.
import { parentPort, workerData } from 'node:worker_threads';
import { logger, type LogRecord } from '../logger.ts';
import { startFunctionHost, type FunctionHost, type HostedFunction } from './function-host.ts';
import { installLocalInbox } from './inbox.ts';
import { printSignInLinksTo } from '../console/sign-in-delivery.ts';
import { resolveAsLambdaRuntime } from './runtime-modules.ts';
import type { ToParent, ToThread } from './thread-messages.ts';

export interface ThreadData {
  functions: HostedFunction[];
  /** The parent logger's level: records below it are not even built here. */
  logLevel: string;
  /** The parent prints sign-in links (npm start): this thread's go to it, one message each. */
  printsSignInLinks: boolean;
}

const port = parentPort!;
const post = (message: ToParent) => port.postMessage(message);

function postLog(record: LogRecord): void {
  try {
    post({ type: 'log', record });
  } catch {
    // A value structured clone refuses (a function in a logged object) goes as its JSON.
    post({ type: 'log', record: JSON.parse(JSON.stringify(record)) as LogRecord });
  }
}

/**
 * A bundle logs with its own copy of the logger, as JSON lines on stdout (as on AWS): each whole line that is a
 * record goes to the parent as one; anything else is printed as it is.
 */
function forwardJsonLines(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream);
  let pending = '';
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      let record: unknown;
      try {
        record = line.startsWith('{') ? JSON.parse(line) : undefined;
      } catch {
        record = undefined;
      }
      if (record && typeof record === 'object' && 'level' in record && 'message' in record) postLog(record as LogRecord);
      else write(`${line}\n`);
      newline = pending.indexOf('\n');
    }
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof stream.write;
}

async function main(data: ThreadData): Promise<void> {
  logger.pinLogLevel(data.logLevel as Parameters<typeof logger.pinLogLevel>[0]);
  logger.setSink(postLog);
  if (data.printsSignInLinks) printSignInLinksTo((line) => post({ type: 'sign-in-line', line }));
  const bundleFiles = data.functions.flatMap((f) => (f.spec.code.kind === 'bundle' ? [f.spec.code.file] : []));
  if (bundleFiles.length > 0) {
    // The bundle's imports from outside it resolve as in the Lambda runtime, wherever cdk.out is.
    resolveAsLambdaRuntime(bundleFiles);
    process.setSourceMapsEnabled(true);
    forwardJsonLines(process.stdout);
    forwardJsonLines(process.stderr);
  } else {
    // Source mode: messages with no provider go to the console's local inbox when HARK_LOCAL_INBOX=1, as in npm start.
    installLocalInbox();
  }
  let host: FunctionHost | undefined;
  const started = startFunctionHost(data.functions).then((h) => (host = h));
  port.on('message', (message: ToThread) => {
    void (async () => {
      await started;
      try {
        if (message.type === 'invoke') post({ type: 'result', id: message.id, ok: true, value: await host!.invoke(message.functionName, message.event) });
        else if (message.type === 'pause') {
          await host!.pause(message.queueUrl);
          post({ type: 'result', id: message.id, ok: true, value: undefined });
        } else if (message.type === 'resume') host!.resume(message.queueUrl);
        else if (message.type === 'stop') {
          await host!.stop();
          post({ type: 'result', id: message.id, ok: true, value: undefined });
        }
      } catch (error) {
        if ('id' in message) post({ type: 'result', id: message.id, ok: false, error: error instanceof Error ? error : new Error(String(error)) });
      }
    })();
  });
  await started;
  post({ type: 'ready' });
}

main(workerData as ThreadData).catch((error: unknown) => {
  post({ type: 'failed', error: error instanceof Error ? error : new Error(String(error)) });
});
