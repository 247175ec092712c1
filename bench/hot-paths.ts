// The hot paths against the raw local parts, in one run: DynamoDB Local GetItem and Query(10), made with the same
// SDK clients the app uses, next to the endpoints that stand on them through the local gateway (an authenticated
// GET /schedules/:id, GET /schedules?limit=10 with 1,000 and 5,000 schedules). Prints medians, p99 and endpoint
// rate / raw rate. The webhook against a raw SendMessage is measured by bench/ingest.ts.
// Run: node bench/hot-paths.ts  (Node 24; needs Java for DynamoDB Local). Figures: docs/benchmarks.md.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#lib/accounts/accounts.ts';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { accountPk, entityPrefix, entitySk } from '#lib/db/keys.ts';
import { createEntity } from '#lib/db/repository.ts';
import { startStack } from '#lib/local/stack.ts';
import { measure as measureTimes, printRawVsEndpoint, type Timing } from './timing.ts';

const RUNS = { serial: 400, list: 300, warmup: 20 };
const LIST_SIZES = [1000, 5000] as const;

const measure = (runs: number, concurrency: number, op: (run: number) => Promise<unknown>) => measureTimes(runs, concurrency, RUNS.warmup, op);

async function expectStatus(response: Promise<Response>, status: number): Promise<string> {
  const reply = await response;
  const text = await reply.text();
  if (reply.status !== status) throw new Error(`expected ${status}, got ${reply.status}: ${text.slice(0, 300)}`);
  return text;
}

/** Creates `count` schedules in the account through the repository (the same writes POST /schedules makes). */
async function fillSchedules(accountId: string, count: number): Promise<void> {
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < count) {
        made++;
        await createEntity('SCHEDULE', accountId, { name: `Bench ${made}` }, { meta: {} });
      }
    }),
  );
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
    const lists: { size: number; key: string; accountId: string }[] = [];
    for (const size of LIST_SIZES) {
      const other = await createAccount({ name: `List ${size}`, adminEmail: `list-${size}-${Date.now()}@example.test` });
      const t0 = performance.now();
      await fillSchedules(other.account.id, size);
      console.log(`${size} schedules written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      lists.push({ size, key: other.apiKey, accountId: other.account.id });
    }

    const table = config().tableName;
    const rawGet = () =>
      documentClient().send(new GetCommand({ TableName: table, Key: { pk: accountPk(account.id), sk: entitySk('SCHEDULE', schedule.id) }, ConsistentRead: true }));
    const rawQuery = (accountId: string) => () =>
      documentClient().send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': accountPk(accountId), ':prefix': entityPrefix('SCHEDULE') },
          ScanIndexForward: false,
          Limit: 10,
          ConsistentRead: true,
        }),
      );
    const getSchedule = () => expectStatus(fetch(`${api}/schedules/${schedule.id}`, { headers: auth }), 200);
    const listPage = (key: string) => () => expectStatus(fetch(`${api}/schedules?limit=10`, { headers: { authorization: `Bearer ${key}` } }), 200);

    type Row = { name: string; raw: Timing; endpoint: Timing; endpointName: string };
    const rows: Row[] = [];
    // Raw and endpoint measured back to back, so machine noise hits both alike.
    rows.push({ name: 'GET /schedules/:id vs GetItem', raw: await measure(RUNS.serial, 1, rawGet), endpointName: 'GET /schedules/:id', endpoint: await measure(RUNS.serial, 1, getSchedule) });
    for (const list of lists) {
      rows.push({
        name: `GET /schedules?limit=10 (${list.size}) vs Query(10)`,
        raw: await measure(RUNS.list, 1, rawQuery(list.accountId)),
        endpointName: `GET /schedules?limit=10, ${list.size} schedules`,
        endpoint: await measure(RUNS.list, 1, listPage(list.key)),
      });
    }

    printRawVsEndpoint(rows, 'endpoint');
  } finally {
    await stack.stop();
  }
}

if (import.meta.main) await main();
