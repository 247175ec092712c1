// The ingest path, in one run on the local stack (in process): (1) the webhook's accept (POST /integration/:id
// through the gateway) next to a raw fauxqs FIFO SendMessage of the same message, at concurrency 1 and 16;
// (2) accept → alert readable through GET /alerts?thirdparty_id=, p50/p99 at several rates up to 100 requests/s,
// next to DynamoDB Local's raw transaction rate; (3) 10,000 events for one integration sent within one minute,
// then every alert checked for loss and order.
// Run: node bench/ingest.ts [accept|latency|sustained]  (Node 24; needs Java for DynamoDB Local). Figures: docs/benchmarks.md.
import { randomUUID } from 'node:crypto';
import { createAccount } from '#lib/people/new-account.ts';
import { config } from '#lib/config.ts';
import { startStack } from '#lib/local/stack.ts';
import { apiClient, must } from './api-client.ts';
import { compareAccept, drained, paced, post, RAW_TRANSACTION, rawTransactionRate, sleep, stats, type Setup } from './ingest-parts.ts';
import { printSustained, runSustained } from './sustained.ts';
import { printRawVsEndpoint, runBench } from './timing.ts';

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
/**
 * (1) Accept vs a raw SendMessage of the message the webhook builds for the same payload. The worker is paused
 * meanwhile: on AWS it runs in other Lambdas, while locally it would share the event loop and the two cores with
 * both sides. The messages queued are then purged (they only exercise the accept path).
 */
async function acceptBench(setup: Setup): Promise<void> {
  const rows = await compareAccept(setup, { pauseWorker: true, concurrencies: [1, CONCURRENCY], rounds: ACCEPT.rounds, runs: (c) => ACCEPT.runs[c as 1 | 16], warmup: ACCEPT.warmup });
  printRawVsEndpoint(rows.map(({ concurrency, raw, endpoint }) => ({ name: `webhook accept vs SendMessage, c=${concurrency}`, raw, endpoint })), 'accept');
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
  printSustained(await runSustained(shared));
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const runs = (name: string) => wanted.length === 0 || wanted.includes(name);
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-ingest' });
  try {
    const { account, accountUser, apiKey } = await createAccount({ name: 'Ingest', adminEmail: `ingest-${Date.now()}@example.test` });
    const api = apiClient(stack.baseUrl, apiKey);
    const integration = await must(api, 'POST', '/integrations', { name: 'Bench', account_user_ids: [accountUser.id], options: { token: TOKEN } }, 201);
    const setup: Setup = { stack, baseUrl: stack.baseUrl, api, accountId: account.id, accountUserId: accountUser.id, integration, token: TOKEN };
    if (runs('accept')) await acceptBench(setup);
    if (runs('latency')) await latencyBench(setup);
    if (runs('sustained')) await sustainedBench(setup);
  } finally {
    await stack.stop();
  }
}

runBench(main);
