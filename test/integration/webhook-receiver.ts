// What the outgoing-webhook tests share: their own local stack with a scaled clock, and a local receiver
// (node:http) that records every request it gets. docs/outgoing-webhooks.md.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type RunningStack } from '#lib/local/stack.ts';

/** A stack of the test file's own with HARK_TIME_SCALE=60, so retries and deadlines come 60 times sooner. */
export async function startScaledStack(tableName: string): Promise<RunningStack> {
  process.env.HARK_TIME_SCALE = '60';
  return startStack({ dataDir: undefined, port: 0, tableName, visibilityTimeoutSeconds: 1 });
}

export interface ReceivedRequest<Json> {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: Json;
}

/** What the receiver answers a request: a status, a body, and optionally a pause before answering. */
export interface Answer {
  status: number;
  body?: string;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface WebhookReceiver<Json> {
  /** The receiver's origin, `http://127.0.0.1:<port>`. */
  base: string;
  /** Every request so far, in the order their answers were decided. */
  received: ReceivedRequest<Json>[];
  /** The requests made to one path. */
  at(path: string): ReceivedRequest<Json>[];
  close(): Promise<void>;
}

/** Starts a receiver on a free port; `answerFor` decides each answer by path (204 with no body when not given). */
export async function startWebhookReceiver<Json>(answerFor: (path: string) => Answer = () => ({ status: 204 })): Promise<WebhookReceiver<Json>> {
  const received: ReceivedRequest<Json>[] = [];
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const next = answerFor(path);
    if (next.delayMs) await new Promise((r) => setTimeout(r, next.delayMs));
    received.push({ path, headers: req.headers as Record<string, string>, body, json: JSON.parse(body) as Json });
    res.writeHead(next.status, next.headers);
    res.end(next.body ?? '');
  }
  const server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    at: (path) => received.filter((r) => r.path === path),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
