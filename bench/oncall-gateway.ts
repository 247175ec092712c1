// On-call views through the gateway: loads the engine bench's schedule through the API into a local stack and
// measures window_events (one year) and current_oncall, next to the raw local limits measured in the same run
// (an authenticated GET /schedules/:id, and a bare node:http server). Bounded request counts.
// Run: node bench/oncall-gateway.ts  (Node 24; `npx node` if the system node is older; needs Java for DynamoDB Local)
import { apiClient, must, type Api } from './api-client.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchGetCommand, BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount } from '#lib/people/new-account.ts';
import { config } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { accountPk } from '#lib/db/keys.ts';
import { createEntity, listEntities } from '#lib/db/repository.ts';
import { eventsOfSchedule } from '#lib/schedule-events/store.ts';
import { newId } from '#lib/ids.ts';
import { startStack } from '#lib/local/stack.ts';
import { occurrencesBetween, occurrencesInWindow, type ScheduleEvent } from '#lib/schedule-engine/index.ts';
import { BENCH_YEAR_FROM_MS, BENCH_YEAR_TO_MS, buildBenchSchedule } from './schedule-engine.ts';
import { measure as measureConcurrent, percentile, type Timing } from './timing.ts';

/** A row of the tables: runs, median and p99 in ms. */
type Row = Pick<Timing, 'runs' | 'median' | 'p99'>;

const RUNS = { window: 40, oncall: 300, get: 300, hello: 500, storage: 200, warmup: 5 };
/** Events added to another schedule of the account, to see what the filtered Query pays for them. */
const NOISE_EVENTS = 500;

const startOf = (event: ScheduleEvent): number => (occurrencesBetween({ ...event, exceptions: [] }, -8.64e15, 8.64e15)[0] as { startMs: number }).startMs;
const endOf = (event: ScheduleEvent): number => (occurrencesBetween({ ...event, exceptions: [] }, -8.64e15, 8.64e15)[0] as { endMs: number }).endMs;
const utcMinute = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/**
 * The bench schedule is the engine's result of 50 repeating events plus 10 overrides. Through the API the
 * overrides are replayed: each base event is created without the exception its override added, then
 * POST /events/:id/override runs with the override's times and the overridden occurrence's start.
 */
async function loadSchedule(api: Api, scheduleId: string, people: Map<string, string>): Promise<ScheduleEvent[]> {
  const events = buildBenchSchedule();
  const base = events.filter((e) => e.parentId === undefined);
  const overrides = events.filter((e) => e.parentId !== undefined && e.remainder !== true);
  const actionOf = new Map<string, number>();
  for (const o of overrides) {
    const before = events.find((r) => r.remainder === true && r.parentId === o.parentId && endOf(r) === startOf(o));
    const parent = base.find((b) => b.id === o.parentId) as ScheduleEvent;
    const action = before ? startOf(before) : Math.max(...parent.exceptions.map(Date.parse).filter((ms) => ms <= startOf(o)));
    actionOf.set(o.id, action);
  }
  const apiIds = new Map<string, string>();
  for (const e of base) {
    const added = overrides.filter((o) => o.parentId === e.id).map((o) => actionOf.get(o.id));
    const created = await must(api, 'POST', '/events', {
      start_time: e.start,
      end_time: e.end,
      time_zone: e.timeZone,
      layer: e.layer,
      repeat: e.repeat,
      frequency: e.frequency,
      frequency_unit: e.frequencyUnit,
      days_of_week: e.daysOfWeek ?? [],
      rotation: e.rotation,
      account_user_ids: e.attendees.map((a) => people.get(a)),
      schedule_ids: [scheduleId],
      exceptions: e.exceptions.filter((x) => !added.includes(Date.parse(x))),
    });
    apiIds.set(e.id, created.id as string);
  }
  for (const o of overrides) {
    await must(api, 'POST', `/events/${apiIds.get(o.parentId as string)}/override`, {
      start_time: utcMinute(startOf(o)),
      end_time: utcMinute(endOf(o)),
      layer: o.layer,
      time_zone: 'Etc/UTC',
      account_user_ids: o.attendees.map((a) => people.get(a)),
      action_time: new Date(actionOf.get(o.id) as number).toISOString(),
    });
  }
  return events;
}

async function writeAll(items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await documentClient().send(new BatchWriteCommand({ RequestItems: { [config().tableName]: batch } }));
  }
}

async function queryAll(input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * How to read one schedule's events, measured at the data layer on the same table, the three reads interleaved
 * so machine noise hits them alike: (a) the filtered Query of the account's EVENT collection that
 * lib/schedule-events/store.ts uses; (b) a Query of per-schedule copies of the events (membership items holding the
 * data); (c) gsi1 membership keys, then BatchGetItem of the events. (b) and (c) are bench-only items.
 */
async function storageRows(accountId: string, scheduleId: string): Promise<[string, Row][]> {
  const table = config().tableName;
  const mine = await eventsOfSchedule(accountId, scheduleId);
  await writeAll(mine.map((e) => ({ ...e, sk: `BENCHCOPY#${scheduleId}#${e.id}`, gsi1pk: undefined, gsi1sk: undefined })));
  await writeAll(mine.map((e) => ({ pk: accountPk(accountId), sk: `BENCHMEMBER#${scheduleId}#${e.id}`, gsi1pk: `BENCH#${scheduleId}`, gsi1sk: e.id, eventSk: e.sk })));
  const all = await listEntities('EVENT', accountId);
  const reads: [string, () => Promise<unknown>][] = [
    [`(a) filtered Query of the account's ${all.length} events (used)`, () => eventsOfSchedule(accountId, scheduleId)],
    [
      `(b) Query of ${mine.length} per-schedule copies`,
      () =>
        queryAll({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': accountPk(accountId), ':prefix': `BENCHCOPY#${scheduleId}#` },
          ConsistentRead: true,
        }),
    ],
    [
      `(c) gsi1 membership keys + BatchGetItem of ${mine.length}`,
      async () => {
        const members = await queryAll({ TableName: table, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `BENCH#${scheduleId}` } });
        const keys = members.map((m) => ({ pk: accountPk(accountId), sk: m.eventSk as string }));
        const out: unknown[] = [];
        for (let i = 0; i < keys.length; i += 100) {
          let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
            [table]: { Keys: keys.slice(i, i + 100), ConsistentRead: true },
          };
          while (request && Object.keys(request).length > 0) {
            const got = await documentClient().send(new BatchGetCommand({ RequestItems: request }));
            out.push(...(got.Responses?.[table] ?? []));
            request = got.UnprocessedKeys as typeof request;
          }
        }
        return out;
      },
    ],
  ];
  const times: number[][] = reads.map(() => []);
  for (let run = -RUNS.warmup; run < RUNS.storage; run++) {
    for (const [i, [, read]] of reads.entries()) {
      const t0 = performance.now();
      await read();
      if (run >= 0) times[i]!.push(performance.now() - t0);
    }
  }
  return reads.map(([name], i) => {
    const sorted = (times[i] as number[]).sort((x, y) => x - y);
    return [name, { runs: RUNS.storage, median: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) }];
  });
}

/** One request at a time, after the warm-up requests. */
const measure = (runs: number, request: (run: number) => Promise<unknown>): Promise<Timing> => measureConcurrent(runs, 1, RUNS.warmup, request);

async function helloServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"hello":"world"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main(): Promise<void> {
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench' });
  const hello = await helloServer();
  try {
    const { account, apiKey } = await createAccount({ name: 'Bench', adminEmail: `bench-${Date.now()}@example.test` });
    const people = new Map<string, string>();
    for (const name of ['usr_a', 'usr_b', 'usr_c', 'usr_d', 'usr_e', 'usr_f', 'usr_g', 'usr_h', 'usr_override']) {
      const item = await createEntity('ACCOUNT_USER', account.id, {
        user_id: newId(),
        roles: { admin: false, billing: false, broadcaster: false, communicator: false },
        notification_rule_id: null,
        status: 'active',
      });
      people.set(name, item.id);
    }
    const api = apiClient(stack.baseUrl, apiKey);
    const schedule = await must(api, 'POST', '/schedules', { name: 'Bench' });
    const scheduleId = schedule.id as string;
    const t0 = performance.now();
    const engineEvents = await loadSchedule(api, scheduleId, people);
    const loadMs = performance.now() - t0;

    const from = new Date(BENCH_YEAR_FROM_MS).toISOString().slice(0, 19).replace('T', ' ');
    const to = new Date(BENCH_YEAR_TO_MS).toISOString().slice(0, 19).replace('T', ' ');
    const yearPath = `/schedules/${scheduleId}/window_events?start=${encodeURIComponent(from)}&end=${encodeURIComponent(to)}`;
    const year = await api('GET', yearPath);
    const expected = occurrencesInWindow(engineEvents, BENCH_YEAR_FROM_MS, BENCH_YEAR_TO_MS).length;
    const got = Array.isArray(year.body) ? year.body.length : -1;
    if (year.status !== 200 || got !== expected) {
      throw new Error(`window_events over the year answered ${year.status} with ${got} entries (${JSON.stringify(year.body).slice(0, 400)}); the engine alone gives ${expected}`);
    }
    const stored = ((await must(api, 'GET', `/schedules/${scheduleId}/events?limit=1`)).total_count as number) ?? 0;

    const yearMs = BENCH_YEAR_TO_MS - BENCH_YEAR_FROM_MS;
    const storageAlone = await storageRows(account.id, scheduleId);
    const rows: [string, Row][] = [];
    rows.push(['window_events, 1 year', await measure(RUNS.window, () => api('GET', yearPath))]);
    rows.push([
      'window_events, 1 week',
      await measure(RUNS.oncall, (run) => {
        const start = BENCH_YEAR_FROM_MS + ((run * 7_919_993_123) % (yearMs - 7 * 86_400_000));
        const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString().slice(0, 19).replace('T', ' '));
        return api('GET', `/schedules/${scheduleId}/window_events?start=${iso(start)}&end=${iso(start + 7 * 86_400_000)}`);
      }),
    ]);
    rows.push(['current_oncall', await measure(RUNS.oncall, () => api('GET', `/schedules/${scheduleId}/current_oncall`))]);
    rows.push(['GET /schedules/:id (local limit)', await measure(RUNS.get, () => api('GET', `/schedules/${scheduleId}`))]);
    rows.push(['bare node:http hello (local limit)', await measure(RUNS.hello, async () => (await fetch(hello.url)).text())]);

    // The filtered Query reads every event of the account: add events to another schedule and measure again.
    const other = (await must(api, 'POST', '/schedules', { name: 'Noise' })).id as string;
    for (let i = 0; i < NOISE_EVENTS; i++) {
      await must(api, 'POST', '/events', {
        start_time: '2026-01-05T09:00:00',
        end_time: '2026-01-05T17:00:00',
        time_zone: 'Europe/Berlin',
        layer: 1,
        repeat: true,
        frequency: 1,
        frequency_unit: 'weekly',
        rotation: true,
        account_user_ids: [people.get('usr_a'), people.get('usr_b'), people.get('usr_c')],
        schedule_ids: [other],
      });
    }
    rows.push([`current_oncall, +${NOISE_EVENTS} events in another schedule`, await measure(RUNS.oncall, () => api('GET', `/schedules/${scheduleId}/current_oncall`))]);
    rows.push([`window_events, 1 year, +${NOISE_EVENTS} other events`, await measure(RUNS.window, () => api('GET', yearPath))]);

    const storageNoisy = await storageRows(account.id, scheduleId);

    const base = rows.find(([name]) => name.startsWith('GET /schedules'))?.[1].median ?? 1;
    console.log(`schedule: ${stored} stored events (${engineEvents.length} in the engine bench), loaded through the API in ${(loadMs / 1000).toFixed(1)} s`);
    console.log(`1-year window_events: ${got} entries, ${(year.bytes / 1e6).toFixed(2)} MB of JSON`);
    console.log('| request | runs | median ms | p99 ms | median / GET schedule |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, r] of rows) console.log(`| ${name} | ${r.runs} | ${r.median.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.median / base).toFixed(1)} |`);
    console.log('');
    for (const [title, storage] of [
      ['only the bench schedule', storageAlone],
      [`${NOISE_EVENTS} more events in another schedule`, storageNoisy],
    ] as const) {
      console.log(`Reading the schedule's events at the data layer (DynamoDB Local), account with ${title}:`);
      console.log('| read | runs | median ms | p99 ms |');
      console.log('|---|---:|---:|---:|');
      for (const [name, r] of storage) console.log(`| ${name} | ${r.runs} | ${r.median.toFixed(2)} | ${r.p99.toFixed(2)} |`);
      console.log('');
    }
    // The gateway runs the Lambda handlers in this process, so this is handlers + gateway + SQS emulator (not Java).
    console.log(`peak memory of this process (max RSS): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    await hello.close();
    await stack.stop();
  }
}

if (import.meta.main) await main();
