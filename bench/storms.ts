// Alert storms (docs/benchmarks.md, "Alert storms"): what one create asks of storage, counted per phase, for a create
// through the API and through an integration's webhook paging 1, 3 and 10 people.
// Run: node bench/storms.ts  (Node 24; needs Java for DynamoDB Local)
import { randomUUID } from 'node:crypto';
import { createAccount } from '#lib/accounts/accounts.ts';
import { startStack, type RunningStack } from '#lib/local/stack.ts';
import { apiClient, must, type Api } from './api-client.ts';
import { sequentialRoundTrips, startTrace, stopTrace, type Phase, type StorageCall } from './storage-trace.ts';
import { runBench } from './timing.ts';

const PEOPLE = (process.env.BENCH_PEOPLE ?? "1,3,10").split(",").map(Number);
const TOKEN = 'whk_storms_token_0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Team {
  teamId: string;
  integrationPrefixId: string;
}

/** A team whose schedule has `people` people on call now, and an integration routing to it. */
async function teamOf(api: Api, people: number): Promise<Team> {
  const ids: string[] = [];
  for (let i = 0; i < people; i++) {
    const user = await must(api, 'POST', '/users', { name: `Storm ${people}.${i}`, email: `storm-${people}-${i}-${randomUUID()}@example.test` }, 201);
    ids.push(user.account_user_id ?? user.id);
  }
  const team = await must(api, 'POST', '/teams', { name: `Storm ${people}` }, 201);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  await must(api, 'POST', '/events', { layer: 1, time_zone: 'UTC', schedule_ids: [team.schedule_id], account_user_ids: ids, start_time: iso(now - 3_600_000), end_time: iso(now + 86_400_000) }, 201);
  const integration = await must(api, 'POST', '/integrations', { name: `Storm ${people}`, team_ids: [team.id], options: { token: TOKEN } }, 201);
  return { teamId: team.id, integrationPrefixId: integration.prefix_id };
}

/** Traces `act`, then waits until storage has been quiet for `quietMs` (the pages delivered), and answers the calls. */
async function traced(act: () => Promise<void>, quietMs = 1500): Promise<StorageCall[]> {
  startTrace();
  await act();
  let seen = -1;
  const all: StorageCall[] = [];
  for (;;) {
    await sleep(quietMs);
    const batch = stopTrace();
    all.push(...batch);
    if (batch.filter((c) => c.phase !== 'other').length === 0 && seen >= 0) break;
    seen = all.length;
    startTrace();
  }
  return all;
}

function summary(name: string, recorded: StorageCall[]): void {
  if (process.env.BENCH_TRACE) for (const c of [...recorded].sort((a, b) => a.start - b.start)) console.log(`  ${c.phase.padEnd(8)} ${c.start.toFixed(1).padStart(10)} ${(c.end - c.start).toFixed(1).padStart(6)} ${c.command.padEnd(26)} r${c.itemsRead} w${c.itemsWritten} ${c.about} ${c.writtenKinds.join(',')}`);
  const phases: Phase[] = ['gateway', 'worker', 'timers', 'other'];
  for (const phase of phases) {
    const calls = recorded.filter((c) => c.phase === phase);
    if (calls.length === 0) continue;
    const sum = (f: (c: StorageCall) => number) => calls.reduce((n, c) => n + f(c), 0);
    const kinds = new Map<string, number>();
    for (const c of calls) kinds.set(c.command.replace('Command', ''), (kinds.get(c.command.replace('Command', '')) ?? 0) + 1);
    const written = new Map<string, number>();
    for (const c of calls) for (const k of c.writtenKinds) written.set(k, (written.get(k) ?? 0) + 1);
    console.log(
      `| ${name} | ${phase} | ${calls.length} | ${sum((c) => c.itemsRead)} | ${sum((c) => c.itemsWritten)} | ${calls.filter((c) => c.transaction).length} | ${sequentialRoundTrips(calls)} | ${sum((c) => c.bytesWritten)} | ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')} | ${[...written].map(([k, n]) => `${k} ${n}`).join(', ')} |`,
    );
  }
}

async function main(): Promise<void> {
  process.env.HARK_LOG_LEVEL ??= 'warn';
  const stack: RunningStack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-storms' });
  try {
    const { apiKey } = await createAccount({ name: 'Bench storms', adminEmail: `bench-storms-${Date.now()}@example.test` });
    const api = apiClient(stack.baseUrl, apiKey);
    console.log('| create | phase | calls | items read | items written | transactions | sequential round trips | bytes written | commands | written kinds |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---|---|');
    for (const people of PEOPLE) {
      const team = await teamOf(api, people);
      // Warm: the first create of each path fills caches (keys, integrations) a storm's creates find warm.
      await must(api, 'POST', '/alerts', { title: 'warm', urgency: 'high', destination_team_ids: [team.teamId] }, 201);
      await traced(async () => void (await fetch(`${stack.baseUrl}/integration/${team.integrationPrefixId}`, { method: 'POST', headers: { 'content-type': 'application/json', 'service-token': TOKEN }, body: JSON.stringify({ event_type: 'create', Id: 'warm', Title: 'warm' }) })));
      summary(`API, ${people} paged`, await traced(async () => void (await must(api, 'POST', '/alerts', { title: 'Storm', urgency: 'high', destination_team_ids: [team.teamId] }, 201))));
      summary(
        `webhook, ${people} paged`,
        await traced(async () => {
          const res = await fetch(`${stack.baseUrl}/integration/${team.integrationPrefixId}`, { method: 'POST', headers: { 'content-type': 'application/json', 'service-token': TOKEN }, body: JSON.stringify({ event_type: 'create', Id: randomUUID(), Title: 'Storm' }) });
          if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
        }),
      );
    }
  } finally {
    await stack.stop();
  }
}

runBench(main);
