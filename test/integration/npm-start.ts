// `npm start` as a child process that a test can crash: started in a process group of its own, so a SIGKILL takes
// DynamoDB Local down with it, as a crash or a power cut would. Used by the crash tests (timers, ingest).
import { spawn, type ChildProcess } from 'node:child_process';

export interface Started {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  api: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
}

const children: ChildProcess[] = [];

/**
 * What the suite's in-memory stack (global-setup.ts) puts in this process's environment: its table, queues, link key
 * and public URL. An `npm start` inheriting them would sign its links with that stack's key and point them at that
 * stack's gateway, where its people do not exist ("Not allowed"); a user's `npm start` has none of them.
 */
const TEST_STACK_VARIABLES = ['HARK_TABLE_NAME', 'HARK_DYNAMODB_ENDPOINT', 'HARK_SQS_ENDPOINT', 'HARK_INGEST_QUEUE_URL', 'HARK_TIMERS_QUEUE_URL', 'HARK_WEBHOOKS_QUEUE_URL', 'HARK_LINK_SECRET', 'HARK_PUBLIC_URL'];
const userEnvironment = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !TEST_STACK_VARIABLES.includes(name)));

/** `node lib/local/start.ts` on `dataDir` and `port`, once it prints its admin key. */
export async function startNpm(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['lib/local/start.ts'], {
    env: { ...userEnvironment(), HARK_DATA_DIR: dataDir, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const key = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not print a key: ${output}`)), 90_000);
    child.stdout!.on('data', () => {
      const match = /Admin API key: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}: ${output}`));
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const api = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${baseUrl}/api/v4${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await reply.text();
    return { status: reply.status, body: text ? JSON.parse(text) : undefined };
  };
  return { child, baseUrl, output: () => output, api };
}

/** SIGKILL to the whole process group: the node process and the DynamoDB Local it started, with no clean-up. */
export function crash(started: Started): Promise<void> {
  return new Promise((resolve) => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) return resolve();
    started.child.once('exit', () => resolve());
    process.kill(-started.child.pid!, 'SIGKILL');
  });
}

/** For afterAll: kills every child still running. */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
}
