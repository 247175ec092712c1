// Alerts through the gateway, as ratios to the raw local parts measured in the same run: create (routing to a
// team, the first page queued, the timer stored) vs a raw PutItem; acknowledge vs a raw UpdateItem; the first
// page of GET /alerts and GET /alerts?status=open at 1,000 and at 100,000 alerts vs a raw Query(10) of the same
// index. The large account is seeded at the data layer with the items the create writes for the lists (alert item
// with its index keys, counters), since 100,000 creates through the API would take the bench's whole budget.
// Run: node bench/alerts.ts  (Node 24; needs Java for DynamoDB Local)
import { apiClient as client, must } from './api-client.ts';
import { BatchWriteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#lib/people/new-account.ts';
import { alertCountChanges } from '#lib/alerts/items.ts';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { transact } from '#lib/db/items.ts';
import { accountAlertsGsi, alertKey } from '#lib/db/keys.ts';
import { newId } from '#lib/ids.ts';
import { startStack } from '#lib/local/stack.ts';
import { seededAlertItem } from '../test/support/seeded-alert.ts';
import { measure as measureConcurrent, type Timing } from './timing.ts';

const RUNS = { create: 100, ack: 100, list: 200, raw: 200, warmup: 5 };
const SIZES = [1_000, 100_000];

/** One call at a time, after the warm-up calls (numbered −1, −2, …). */
const measure = (runs: number, run: (i: number) => Promise<unknown>): Promise<Timing> => measureConcurrent(runs, 1, RUNS.warmup, run);

/** `count` open alerts of the account written as the create writes them for the lists, 4 batches at a time. */
async function seed(accountId: string, count: number, sourceId: string): Promise<void> {
  const table = config().tableName;
  const base = Date.now() - count * 1000;
  const items: Record<string, unknown>[] = Array.from({ length: count }, (_, i) =>
    seededAlertItem(accountId, i + 1, base + i * 1000, { title: `Seeded ${i}`, description: null, urgency: 'low', status: 'open', tag_list: [], source_id: sourceId, destination_team_ids: [] }) as unknown as Record<string, unknown>,
  );
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      let request: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = { [table]: batch.map((Item) => ({ PutRequest: { Item } })) };
      while (request && (request[table]?.length ?? 0) > 0) {
        const result = await documentClient().send(new BatchWriteCommand({ RequestItems: request }));
        request = result.UnprocessedItems as typeof request;
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  await transact(alertCountChanges(accountId, { all: count, statuses: { open: count } }));
}

const ratio = (a: Timing, b: Timing) => (a.median / b.median).toFixed(1);
const row = (name: string, t: Timing, raw?: Timing) =>
  console.log(`${name.padEnd(58)} median ${t.median.toFixed(2).padStart(7)} ms  p99 ${t.p99.toFixed(2).padStart(7)} ms${raw ? `  ×${ratio(t, raw)} raw` : ''}`);

async function main(): Promise<void> {
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-alerts' });
  const table = config().tableName;
  try {
    const { account, apiKey, accountUser } = await createAccount({ name: 'Bench alerts', adminEmail: `bench-alerts-${Date.now()}@example.test` });
    const api = client(stack.baseUrl, apiKey);
    const team = await must(api, 'POST', '/teams', { name: 'Bench team' }, 201);
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await must(api, 'POST', '/events', { layer: 1, time_zone: 'UTC', schedule_ids: [team.schedule_id], account_user_ids: [accountUser.id], start_time: iso(now - 3_600_000), end_time: iso(now + 86_400_000) }, 201);

    // Create (routing to the team, layer 1 paged on two channels, one timer) vs raw PutItem of an alert-sized item.
    const created: string[] = [];
    const create = await measure(RUNS.create, async (i) => {
      const alert = await must(api, 'POST', '/alerts', { title: `Bench ${i}`, urgency: 'high', destination_team_ids: [team.id] }, 201);
      if (alert.status !== 'open') throw new Error(`created alert is ${alert.status}`);
      created.push(alert.id);
    });
    const rawPut = await measure(RUNS.raw, async () => {
      const id = newId();
      await documentClient().send(new PutCommand({ TableName: table, Item: { pk: `BENCH#${id}`, sk: 'ALERT', title: 'Bench', data: { urgency: 'high', tag_list: [] } }, ConditionExpression: 'attribute_not_exists(pk)' }));
    });

    // Acknowledge vs raw UpdateItem.
    let acked = 0;
    const ack = await measure(RUNS.ack, async () => {
      const id = created[acked++];
      if (id === undefined) throw new Error('not enough alerts to acknowledge');
      const body = await must(api, 'POST', `/alerts/${id}/acknowledge`);
      if (body.status !== 'acknowledged') throw new Error(`acknowledge answered ${body.status}`);
    });
    const rawUpdate = await measure(RUNS.raw, async () => {
      await documentClient().send(
        new UpdateCommand({
          TableName: table,
          Key: alertKey(account.id, created[0]!),
          UpdateExpression: 'SET updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': new Date().toISOString() },
        }),
      );
    });

    console.log(`Alerts through the gateway (${RUNS.create} creates, ${RUNS.ack} acknowledges; raw parts ${RUNS.raw} runs)`);
    row('POST /alerts (team, first page queued, timer stored)', create, rawPut);
    row('  raw PutItem', rawPut);
    row('POST /alerts/:id/acknowledge', ack, rawUpdate);
    row('  raw UpdateItem', rawUpdate);

    for (const size of SIZES) {
      const big = await createAccount({ name: `Bench alerts ${size}`, adminEmail: `bench-alerts-${size}-${Date.now()}@example.test` });
      const t0 = performance.now();
      await seed(big.account.id, size, big.accountUser.id);
      const seedMs = performance.now() - t0;
      const bigApi = client(stack.baseUrl, big.apiKey);
      const first = await must(bigApi, 'GET', '/alerts');
      if (first.total_count !== size || first.data.length !== 10) throw new Error(`list of ${size}: total_count ${first.total_count}, ${first.data.length} items`);
      const list = await measure(RUNS.list, () => must(bigApi, 'GET', '/alerts'));
      const byStatus = await measure(RUNS.list, () => must(bigApi, 'GET', '/alerts?status=open'));
      const deep = await measure(RUNS.list, () => must(bigApi, 'GET', '/alerts?limit=10&page=50'));
      const rawQuery = await measure(RUNS.raw, () =>
        documentClient().send(
          new QueryCommand({ TableName: table, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': accountAlertsGsi(big.account.id) }, ScanIndexForward: false, Limit: 10 }),
        ),
      );
      console.log(`\n${size.toLocaleString('en')} alerts in the account (seeded in ${(seedMs / 1000).toFixed(1)} s)`);
      row('GET /alerts (newest 10, total_count from the counter)', list, rawQuery);
      row('GET /alerts?status=open', byStatus, rawQuery);
      row('GET /alerts?page=50 (offset 490)', deep, rawQuery);
      row('  raw Query(10) of gsi1', rawQuery);
    }
  } finally {
    await stack.stop();
  }
}

await main();
