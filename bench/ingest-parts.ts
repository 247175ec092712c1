// What the ingest benchmarks share (bench/ingest.ts, bench/storms.ts): the monitors' HTTP client, waiting for a
// queue to drain, open-loop pacing, DynamoDB Local's raw rate of transactions of a given size, and the webhook's
// accept timed against a raw SendMessage of the same message. docs/benchmarks.md says how each figure is measured.
import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, PurgeQueueCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import type { RunningStack } from '#lib/local/stack.ts';
import { enqueueIngest, type IngestMessage } from '#lib/queue/ingest.ts';
import { sqsClient } from '#lib/queue/client.ts';
import type { Api } from './api-client.ts';
import { measure, measureAlternating, percentile, type Timing } from './timing.ts';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Setup {
  stack: RunningStack;
  baseUrl: string;
  api: Api;
  accountId: string;
  accountUserId: string;
  integration: { id: string; prefix_id: string };
  /** The integration's service token (`options.token`). */
  token: string;
}

/**
 * The monitors' client: node:http with keep-alive connections, the transport the SDK's SendMessage uses on the raw
 * side too, so the two sides differ by what the gateway and the webhook do, not by the client library.
 */
const monitorAgent = new Agent({ keepAlive: true, maxSockets: 256 });

/**
 * One webhook request to the setup's integration (or `prefixId`'s); rejects unless answered 200. A kept-alive
 * connection the gateway closed as idle just as it was reused is reset before the request reached it: sent again
 * on a fresh connection (the way node:http's documentation advises), as a monitor would.
 */
export async function post(setup: Pick<Setup, 'baseUrl' | 'integration' | 'token'>, body: unknown, prefixId = setup.integration.prefix_id): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postOnce(setup, body, prefixId);
    } catch (error) {
      if (!(error as { staleSocket?: boolean }).staleSocket || attempt >= 3) throw error;
    }
  }
}

function postOnce(setup: Pick<Setup, 'baseUrl' | 'token'>, body: unknown, prefixId: string): Promise<void> {
  const url = new URL(`${setup.baseUrl}/integration/${prefixId}`);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { agent: monitorAgent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'service-token': setup.token, 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`webhook answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { staleSocket: req.reusedSocket && error.code === 'ECONNRESET' })));
    req.end(text);
  });
}

/** Until `check` holds, polling every `everyMs`; throws after `ms`. */
export async function until(check: () => Promise<boolean>, ms: number, everyMs = 250): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await sleep(everyMs);
  }
}

/** Messages a queue holds, visible or in flight (delayed ones, not yet due, left out). */
export async function messagesIn(queueUrl: string): Promise<number> {
  const { Attributes } = await sqsClient().send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

/** Waits until a queue (the ingest queue unless named) holds no message, visible or in flight: its consumer has caught up. */
export async function drained(queueUrl: string = config().ingestQueueUrl as string, everyMs = 250): Promise<void> {
  await until(async () => (await messagesIn(queueUrl)) === 0, 600_000, everyMs);
}

/** True when no queue of the stack holds a message due (visible or in flight). */
export async function queuesIdle(): Promise<boolean> {
  const counts = await Promise.all([config().ingestQueueUrl, config().timersQueueUrl, config().webhooksQueueUrl].map((url) => messagesIn(url as string)));
  return counts.every((n) => n === 0);
}

/** Every queue of the stack drained: the ingest worker, the timers (pages, deliveries) and outgoing webhooks idle. */
export async function allDrained(): Promise<void> {
  await drained();
  await drained(config().timersQueueUrl as string);
  await drained(config().webhooksQueueUrl as string);
}

/** Sends `count` requests at `perSecond`, open loop (a late answer does not delay the next request). */
export async function paced<T>(count: number, perSecond: number, op: (i: number) => Promise<T>): Promise<T[]> {
  const t0 = performance.now();
  const running: Promise<T>[] = [];
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const started = op(i);
    // Handled now, so a request failing while later ones are still being paced is reported by Promise.all below
    // instead of ending the process as an unhandled rejection.
    started.catch(() => undefined);
    running.push(started);
  }
  return Promise.all(running);
}

export const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0 };
};

/** DynamoDB Local's raw TransactWriteItems: `items` puts of alert-sized items (300 bytes of data) each. */
export const RAW_TRANSACTION = { items: 19, runs: 300, concurrency: 16 };

/** The raw local part: DynamoDB Local's rate of TransactWriteItems of `items` puts (an alert's create: 19). */
export async function rawTransactionRate(tableName: string, items: number = RAW_TRANSACTION.items): Promise<Timing> {
  const run = randomUUID().slice(0, 8);
  let sent = 0;
  return measure(RAW_TRANSACTION.runs, RAW_TRANSACTION.concurrency, 20, () => {
    const i = sent++;
    return documentClient().send(
      new TransactWriteItemsCommand({
        TransactItems: Array.from({ length: items }, (_, k) => ({
          Put: {
            TableName: tableName,
            Item: { pk: { S: `BENCH#RAW#${run}#${i}` }, sk: { S: `ITEM#${k}` }, data: { S: 'x'.repeat(300) } },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        })),
      }),
    );
  });
}

export interface AcceptOptions {
  /** Pause the worker while timing (its Lambdas run elsewhere on AWS), or let it apply what is accepted meanwhile. */
  pauseWorker: boolean;
  concurrencies: number[];
  rounds: number;
  /** Calls per round at each concurrency. */
  runs: (concurrency: number) => number;
  warmup: number;
}

/**
 * The webhook's accept against a raw SendMessage of the message the webhook builds for the same payload (same
 * group, same deduplication id), in alternating rounds. What was queued is purged afterwards (it only exercises
 * the accept path) and the ingest queue left drained.
 */
export async function compareAccept(setup: Setup, options: AcceptOptions): Promise<{ concurrency: number; raw: Timing; endpoint: Timing }[]> {
  const queueUrl = config().ingestQueueUrl as string;
  const payload = (run: number) => ({ Id: `bench-${run % 50}`, Title: 'CPU high', Description: 'bench' });
  const rawSend = (run: number) => {
    const message: IngestMessage = {
      kind: 'webhook',
      requestId: randomUUID(),
      accountId: setup.accountId,
      integrationId: setup.integration.id,
      receivedAt: new Date().toISOString(),
      alertKey: `bench-${run % 50}`,
      headers: { 'content-type': 'application/json' },
      query: {},
      sourceIp: '127.0.0.1',
      body: payload(run),
    };
    return enqueueIngest(message);
  };
  const webhook = (run: number) => post(setup, payload(run));
  const rows: { concurrency: number; raw: Timing; endpoint: Timing }[] = [];
  if (options.pauseWorker) await setup.stack.ingestWorker.pause();
  try {
    for (const concurrency of options.concurrencies) {
      const [raw, endpoint] = await measureAlternating(options.rounds, options.runs(concurrency), concurrency, options.warmup, rawSend, webhook);
      rows.push({ concurrency, raw, endpoint });
    }
  } finally {
    await sqsClient().send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
    if (options.pauseWorker) setup.stack.ingestWorker.resume();
  }
  await drained();
  return rows;
}
