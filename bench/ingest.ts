// The ingest path, in one run on the local stack (in process): (1) the webhook's accept (POST /integration/:id
// through the gateway) next to a raw fauxqs FIFO SendMessage of the same message, at concurrency 1 and 16;
// (2) accept → alert readable through GET /alerts?thirdparty_id=, p50/p99 at several rates up to 100 requests/s,
// next to DynamoDB Local's raw transaction rate; (3) 10,000 events for one integration sent within one minute,
// then every alert checked for loss and order.
// Run: node bench/ingest.ts [accept|latency|sustained]  (Node 24; needs Java for DynamoDB Local). Figures: docs/benchmarks.md.
import { TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand, PurgeQueueCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createAccount } from '#lib/accounts/accounts.ts';
import { config } from '#lib/config.ts';
import { startStack, type RunningStack } from '#lib/local/stack.ts';
import { enqueueIngest, type IngestMessage } from '#lib/queue/ingest.ts';
import { sqsClient } from '#lib/queue/client.ts';
import { documentClient } from '#lib/db/client.ts';
import { getItem, queryAll } from '#lib/db/items.ts';
import { accountPk } from '#lib/db/keys.ts';
import { integrationLogCounterSk, integrationLogsGsi, type SourceLogItem } from '#lib/ingest/source-log.ts';
import { apiClient, must, type Api } from './api-client.ts';
import { measure, measureAlternating, percentile, printRawVsEndpoint, runBench, type Timing } from './timing.ts';

const TOKEN = 'whk_bench_token_0123456789';
/** Per concurrency: rounds of raw then webhook, so machine noise and JIT warm-up hit both sides alike. */
const ACCEPT = { rounds: 6, runs: { 1: 600, 16: 1200 }, warmup: 300 };
const CONCURRENCY = 16;
/**
 * Creates at each rate (BENCH_RATES, comma-separated, to change them) for `seconds`. The bench polls each alert
 * every `pollMs` for its first `finePollMs`, then every fifth of the time waited: a backlog must not be deepened by
 * the bench's own reads (a thousand alerts polled every second would be a thousand reads a second), so beyond 2 s
 * a latency is known to within a fifth of itself.
 */
const LATENCY = {
  rates: (process.env.BENCH_RATES ?? '5,20,100').split(',').map(Number),
  seconds: 10,
  pollMs: 50,
  finePollMs: 2000,
  coarsePollFraction: 1 / 5,
};
/** The raw local part for the latency: DynamoDB Local's TransactWriteItems of as many items as an alert's create writes. */
const RAW_TRANSACTION = { items: 19, runs: 300, concurrency: 16 };
/** 500 alerts × (create, 18 updates, resolve) = 10,000 events, paced over one minute. */
const SUSTAINED = { alerts: 500, updates: 18, seconds: 60 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Setup {
  stack: RunningStack;
  baseUrl: string;
  api: Api;
  accountId: string;
  accountUserId: string;
  integration: { id: string; prefix_id: string };
}

/**
 * The monitors' client: node:http with keep-alive connections, the transport the SDK's SendMessage uses on the raw
 * side too, so the two sides differ by what the gateway and the webhook do, not by the client library.
 */
const monitorAgent = new Agent({ keepAlive: true, maxSockets: 256 });

function post(setup: Setup, body: unknown): Promise<void> {
  const url = new URL(`${setup.baseUrl}/integration/${setup.integration.prefix_id}`);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { agent: monitorAgent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'service-token': TOKEN, 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`webhook answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Until `check` holds, polling every `everyMs`; throws after `ms`. */
async function until(check: () => Promise<boolean>, ms: number, everyMs = 250): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await sleep(everyMs);
  }
}

/** Waits until a queue (the ingest queue unless named) holds no message, visible or in flight: its consumer has caught up. */
async function drained(queueUrl: string = config().ingestQueueUrl as string): Promise<void> {
  await until(async () => {
    const { Attributes } = await sqsClient().send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0) === 0;
  }, 600_000);
}

/**
 * (1) Accept vs a raw SendMessage of the message the webhook builds for the same payload. The worker is paused
 * meanwhile: on AWS it runs in other Lambdas, while locally it would share the event loop and the two cores with
 * both sides. The messages queued are then purged (they only exercise the accept path).
 */
async function acceptBench(setup: Setup): Promise<void> {
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
    // The send the webhook makes (same group, same deduplication id), without the webhook around it.
    return enqueueIngest(message);
  };
  const webhook = (run: number) => post(setup, payload(run));
  const rows: { name: string; raw: Timing; endpoint: Timing }[] = [];
  await setup.stack.ingestWorker.pause();
  try {
    for (const concurrency of [1, CONCURRENCY] as const) {
      const [raw, endpoint] = await measureAlternating(ACCEPT.rounds, ACCEPT.runs[concurrency], concurrency, ACCEPT.warmup, rawSend, webhook);
      rows.push({ name: `webhook accept vs SendMessage, c=${concurrency}`, raw, endpoint });
    }
  } finally {
    await sqsClient().send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
    setup.stack.ingestWorker.resume();
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

/** The raw local part: DynamoDB Local's rate of TransactWriteItems as large as an alert's create transaction. */
async function rawTransactionRate(tableName: string): Promise<Timing> {
  const run = randomUUID().slice(0, 8);
  let sent = 0;
  return measure(RAW_TRANSACTION.runs, RAW_TRANSACTION.concurrency, 20, () => {
    const i = sent++;
    return documentClient().send(
      new TransactWriteItemsCommand({
        TransactItems: Array.from({ length: RAW_TRANSACTION.items }, (_, k) => ({
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

/** How long to wait before polling again, `waited` ms after the request was sent. */
const pollDelay = (waited: number) => (waited < LATENCY.finePollMs ? LATENCY.pollMs : waited * LATENCY.coarsePollFraction);

/**
 * (2) Creates with new Ids at each rate, open loop; after each 200, GET /alerts?thirdparty_id= is polled until the
 * alert is listed. Latency = readable − request sent; also the alert's created_at − request sent (stored). The
 * applied rate is the creates over the time from the first request to the last alert readable. Before the rates,
 * the raw part: DynamoDB Local's rate of transactions of a create's size, which bounds how many creates a second
 * the local stack can apply.
 */
async function latencyBench(setup: Setup): Promise<void> {
  const raw = await rawTransactionRate(setup.stack.tableName);
  console.log(`\n| raw DynamoDB Local TransactWriteItems, ${RAW_TRANSACTION.items} puts, c=${RAW_TRANSACTION.concurrency} | median ms | p99 ms | per second |`);
  console.log('|---|---:|---:|---:|');
  console.log(`| ${RAW_TRANSACTION.runs} transactions | ${raw.median.toFixed(1)} | ${raw.p99.toFixed(1)} | ${raw.rate.toFixed(0)} |`);
  console.log(`\n| accept → alert, ${LATENCY.seconds} s at | n | readable p50 / p99 ms | stored p50 / p99 ms | creates applied / s | applied / raw transactions |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const rate of LATENCY.rates) {
    const run = randomUUID().slice(0, 8);
    let failures = 0;
    const t0 = Date.now();
    const outcomes = await paced(rate * LATENCY.seconds, rate, async (i) => {
      const id = `lat-${run}-${i}`;
      const sent = Date.now();
      try {
        await post(setup, { event_type: 'create', Id: id, Title: `Latency ${i}` });
        for (;;) {
          const reply = await setup.api('GET', `/alerts?thirdparty_id=${id}`);
          const alert = reply.body?.data?.[0];
          if (alert) return { sent, readableAt: Date.now(), stored: Date.parse(alert.created_at) - sent };
          await sleep(pollDelay(Date.now() - sent));
        }
      } catch (error) {
        failures++;
        console.error(`request ${i}: ${(error as Error).message}`);
        return undefined;
      }
    });
    const results = outcomes.filter((r) => r !== undefined);
    const readable = stats(results.map((r) => r.readableAt - r.sent));
    const stored = stats(results.map((r) => r.stored));
    const appliedPerSecond = results.length / ((Math.max(...results.map((r) => r.readableAt)) - t0) / 1000);
    console.log(
      `| ${rate} creates/s | ${readable.n}${failures ? ` (${failures} failed)` : ''} | ${readable.p50} / ${readable.p99} | ${stored.p50} / ${stored.p99} | ` +
        `${appliedPerSecond.toFixed(1)} | ${(appliedPerSecond / raw.rate).toFixed(2)} |`,
    );
    // The next rate starts on a quiet stack: its pages delivered, its timers fired.
    await drained();
    await drained(config().timersQueueUrl as string);
  }
}

/**
 * (3) 10,000 events for one integration within a minute: 500 Ids, each create, 18 updates (Title "seq k"), resolve,
 * paced over the minute, each Id's next event sent once its previous one is accepted. Then every alert is checked: one alert per Id,
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
  // One paced stream of all 10,000 (round by round through the Ids); an Id's next event waits for the answer to its
  // previous one, so each Id's events are accepted in order without holding back the other Ids.
  const previous = new Map<string, Promise<void>>();
  const t0 = performance.now();
  await paced(total, total / SUSTAINED.seconds, async (n) => {
    const round = Math.floor(n / ids.length);
    const id = ids[n % ids.length]!;
    const after = previous.get(id) ?? Promise.resolve();
    const sent = after.then(() => post(setup, payloadOf(round, id)));
    previous.set(id, sent);
    return sent;
  });
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
    const setup: Setup = { stack, baseUrl: stack.baseUrl, api, accountId: account.id, accountUserId: accountUser.id, integration };
    if (runs('accept')) await acceptBench(setup);
    if (runs('latency')) await latencyBench(setup);
    if (runs('sustained')) await sustainedBench(setup);
  } finally {
    await stack.stop();
  }
}

runBench(main);
