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
import { getItem, queryAll } from '#lib/db/items.ts';
import { accountPk } from '#lib/db/keys.ts';
import { integrationLogCounterSk, integrationLogsGsi, type SourceLogItem } from '#lib/ingest/source-log.ts';
import { apiClient, must, type Api } from './api-client.ts';
import { measure as measureTimes, percentile, printRawVsEndpoint, type Timing } from './timing.ts';

const TOKEN = 'whk_bench_token_0123456789';
const ACCEPT_RUNS = { serial: 400, concurrent: 1600, warmup: 20 };
const CONCURRENCY = 16;
const LATENCY = { rate: Number(process.env.BENCH_RATE ?? 100), seconds: 10, pollMs: 100 };
/** 500 alerts × (create, 18 updates, resolve) = 10,000 events, sent in 20 rounds of 3 s. */
const SUSTAINED = { alerts: 500, updates: 18, seconds: 60 };

const measure = (runs: number, concurrency: number, op: (run: number) => Promise<unknown>) => measureTimes(runs, concurrency, ACCEPT_RUNS.warmup, op);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Setup {
  baseUrl: string;
  api: Api;
  accountId: string;
  accountUserId: string;
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
  printRawVsEndpoint(rows, 'accept');
}

/** Sends `count` requests at `perSecond`, open loop (a late answer does not delay the next request). */
async function paced<T>(count: number, perSecond: number, op: (i: number) => Promise<T>): Promise<T[]> {
  const t0 = performance.now();
  const running: Promise<T>[] = [];
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    running.push(op(i));
  }
  return Promise.all(running);
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0 };
};

/**
 * (2) 100 creates a second, each with a new Id; after its 200, GET /alerts?thirdparty_id= is polled every 20 ms
 * until the alert is there. Latency = readable − request sent. Also the alert's created_at − request sent (stored).
 */
async function latencyBench(setup: Setup): Promise<void> {
  const run = randomUUID().slice(0, 8);
  let failures = 0;
  const outcomes = await paced(LATENCY.rate * LATENCY.seconds, LATENCY.rate, async (i) => {
    const id = `lat-${run}-${i}`;
    const sent = Date.now();
    try {
      await post(setup, { event_type: 'create', Id: id, Title: `Latency ${i}` });
      for (;;) {
        const reply = await setup.api('GET', `/alerts?thirdparty_id=${id}`);
        const alert = reply.body?.data?.[0];
        if (alert) return { readable: Date.now() - sent, stored: Date.parse(alert.created_at) - sent };
        await sleep(LATENCY.pollMs);
      }
    } catch (error) {
      failures++;
      console.error(`request ${i}: ${(error as Error).message}`);
      return undefined;
    }
  });
  const results = outcomes.filter((r) => r !== undefined);
  if (failures > 0) console.log(`${failures} requests failed (see above)`);
  const readable = stats(results.map((r) => r.readable));
  const stored = stats(results.map((r) => r.stored));
  console.log(`\n| accept → alert at ${LATENCY.rate} requests/s for ${LATENCY.seconds} s | n | p50 ms | p99 ms | max ms |`);
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| readable through GET /alerts?thirdparty_id= (polled every ${LATENCY.pollMs} ms) | ${readable.n} | ${readable.p50} | ${readable.p99} | ${readable.max} |`);
  console.log(`| stored (the alert's created_at) | ${stored.n} | ${stored.p50} | ${stored.p99} | ${stored.max} |`);
}

/**
 * (3) 10,000 events for one integration within a minute: 500 Ids, each create, 18 updates (Title "seq k"), resolve,
 * sent in rounds so each Id's events are accepted in order. Then every alert is checked: one alert per Id,
 * resolved, title "seq 18", 18 updates logged before the resolve, and every request's log applied in the order
 * it was accepted (its apply note's time).
 */
async function sustainedBench(shared: Setup): Promise<void> {
  // An integration of its own, so its log counter counts this run only.
  const integration = await must(shared.api, 'POST', '/integrations', { name: 'Sustained', account_user_ids: [shared.accountUserId], options: { token: TOKEN } }, 201);
  const setup: Setup = { ...shared, integration };
  const run = randomUUID().slice(0, 8);
  const ids = Array.from({ length: SUSTAINED.alerts }, (_, i) => `sus-${run}-${i}`);
  const rounds = SUSTAINED.updates + 2;
  const total = ids.length * rounds;
  const payloadOf = (round: number, id: string) =>
    round === 0
      ? { event_type: 'create', Id: id, Title: 'seq 0' }
      : round === rounds - 1
        ? { event_type: 'resolve', Id: id }
        : { event_type: 'update', Id: id, Title: `seq ${round}` };
  const t0 = performance.now();
  for (let round = 0; round < rounds; round++) {
    await paced(ids.length, total / SUSTAINED.seconds, (i) => post(setup, payloadOf(round, ids[i]!)));
  }
  const acceptedIn = (performance.now() - t0) / 1000;
  await drained();
  const appliedIn = (performance.now() - t0) / 1000;

  const counter = await getItem<{ itemCount?: number }>({ pk: accountPk(setup.accountId), sk: integrationLogCounterSk(setup.integration.id) });
  const logs = await queryAll<SourceLogItem>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': integrationLogsGsi(setup.accountId, setup.integration.id) },
  });
  let outOfOrder = 0;
  let unapplied = 0;
  const byId = new Map<string, { receivedAt: string; appliedAt: string }[]>();
  for (const log of logs) {
    const id = String((JSON.parse(log.bodyText ?? '{}') as { Id?: unknown }).Id);
    const applied = log.notes.at(-1)?.created_at;
    if (!applied) unapplied++;
    const list = byId.get(id) ?? [];
    list.push({ receivedAt: log.receivedAt, appliedAt: applied ?? '' });
    byId.set(id, list);
  }
  for (const list of byId.values()) {
    list.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
    for (let i = 1; i < list.length; i++) if (list[i]!.appliedAt < list[i - 1]!.appliedAt) outOfOrder++;
  }
  let wrong = 0;
  for (const id of ids) {
    const alerts = (await setup.api('GET', `/alerts?thirdparty_id=${id}`)).body.data as { id: string; status: string; title: string }[];
    const events = ((await setup.api('GET', `/alerts/${alerts[0]?.id}/logs?limit=100`)).body?.data ?? []).map((l: { event: string }) => l.event) as string[];
    const ok =
      alerts.length === 1 &&
      alerts[0]!.status === 'resolved' &&
      alerts[0]!.title === `seq ${SUSTAINED.updates}` &&
      events.filter((e) => e === 'updated').length === SUSTAINED.updates &&
      events.lastIndexOf('updated') < events.indexOf('resolved');
    if (!ok) wrong++;
  }
  console.log(`\n| sustained ingest, one integration | value |`);
  console.log('|---|---:|');
  console.log(`| events sent (${SUSTAINED.alerts} alerts × create, ${SUSTAINED.updates} updates, resolve) | ${total} |`);
  console.log(`| all accepted (200) after | ${acceptedIn.toFixed(1)} s (${(total / acceptedIn).toFixed(0)} events/s) |`);
  console.log(`| all applied after | ${appliedIn.toFixed(1)} s (${(total / appliedIn).toFixed(0)} events/s) |`);
  console.log(`| request logs / counter | ${logs.length} / ${counter?.itemCount ?? 0} |`);
  console.log(`| requests without apply notes (lost) | ${unapplied} |`);
  console.log(`| requests applied out of acceptance order (per Id) | ${outOfOrder} |`);
  console.log(`| alerts not exactly: one, resolved, last title, ${SUSTAINED.updates} updates before the resolve | ${wrong} |`);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const runs = (name: string) => wanted.length === 0 || wanted.includes(name);
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-ingest' });
  try {
    const { account, accountUser, apiKey } = await createAccount({ name: 'Ingest', adminEmail: `ingest-${Date.now()}@example.test` });
    const api = apiClient(stack.baseUrl, apiKey);
    const integration = await must(api, 'POST', '/integrations', { name: 'Bench', account_user_ids: [accountUser.id], options: { token: TOKEN } }, 201);
    const setup: Setup = { baseUrl: stack.baseUrl, api, accountId: account.id, accountUserId: accountUser.id, integration };
    if (runs('accept')) await acceptBench(setup);
    if (runs('latency')) await latencyBench(setup);
    if (runs('sustained')) await sustainedBench(setup);
  } finally {
    await stack.stop();
  }
}

if (import.meta.main) await main();
