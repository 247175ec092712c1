// The hot paths against the raw local parts, in one run: DynamoDB Local GetItem and Query(10), made with the same
// SDK clients the app uses, next to the endpoints that stand on them through the local gateway (an authenticated
// GET /schedules/:id, GET /schedules?limit=10 with 1,000 and 5,000 schedules — the lists measured by
// bench/storm-lists.ts, the one copy `npm run bench -- storms` runs too). Prints medians, p99 and endpoint rate / raw
// rate. The webhook against a raw SendMessage is measured by bench/ingest.ts.
// Run: node bench/hot-paths.ts  (Node 24; needs Java for DynamoDB Local). Figures: docs/benchmarks.md.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#lib/people/new-account.ts';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { accountPk, entitySk } from '#lib/db/keys.ts';
import { startStack } from '#lib/local/stack.ts';
import { measureScheduleLists } from './storm-lists.ts';
import { printAgainstRecorded } from './recorded.ts';
import { measure as measureTimes, printRawVsEndpoint, type Timing } from './timing.ts';

const RUNS = { serial: 400, warmup: 20 };

const measure = (runs: number, concurrency: number, op: (run: number) => Promise<unknown>) => measureTimes(runs, concurrency, RUNS.warmup, op);

async function expectStatus(response: Promise<Response>, status: number): Promise<string> {
  const reply = await response;
  const text = await reply.text();
  if (reply.status !== status) throw new Error(`expected ${status}, got ${reply.status}: ${text.slice(0, 300)}`);
  return text;
}

async function main(): Promise<void> {
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-hot' });
  try {
    const { account, apiKey } = await createAccount({ name: 'Hot paths', adminEmail: `hot-${Date.now()}@example.test` });
    const auth = { authorization: `Bearer ${apiKey}` };
    const api = `${stack.baseUrl}/api/v4`;
    const schedule = JSON.parse(
      await expectStatus(fetch(`${api}/schedules`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":"Hot"}' }), 201),
    ) as { id: string };
    const table = config().tableName;
    const rawGet = () =>
      documentClient().send(new GetCommand({ TableName: table, Key: { pk: accountPk(account.id), sk: entitySk('SCHEDULE', schedule.id) }, ConsistentRead: true }));
    const getSchedule = () => expectStatus(fetch(`${api}/schedules/${schedule.id}`, { headers: auth }), 200);

    type Row = { name: string; raw: Timing; endpoint: Timing; endpointName: string };
    const rows: Row[] = [];
    // Raw and endpoint measured back to back, so machine noise hits both alike.
    for (const concurrency of [1, 16]) {
      const raw = await measure(RUNS.serial, concurrency, rawGet);
      rows.push({ name: `GET /schedules/:id vs GetItem, c=${concurrency}`, raw, endpointName: 'GET /schedules/:id', endpoint: await measure(RUNS.serial, concurrency, getSchedule) });
    }
    for (const list of await measureScheduleLists(stack.baseUrl)) {
      rows.push({ name: `GET /schedules?limit=10 (${list.size}) vs Query(10)`, raw: list.raw, endpointName: `GET /schedules?limit=10, ${list.size} schedules`, endpoint: list.endpoint });
    }

    printRawVsEndpoint(rows, 'endpoint');
    printAgainstRecorded(rows.map((row) => ({ name: row.name, ratio: row.endpoint.rate / row.raw.rate })));
  } finally {
    await stack.stop();
  }
}

if (import.meta.main) await main();
