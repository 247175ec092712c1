// Alert storms, part "counts": what one create asks of storage, through the API and through an integration's
// webhook, paging 1, 3 and 10 people, split into the create itself and its deliveries (docs/benchmarks.md,
// "Alert storms").
import { randomUUID } from 'node:crypto';
import type { Api } from './api-client.ts';
import { must } from './api-client.ts';
import { post, queuesIdle, sleep } from './ingest-parts.ts';
import { commandMix, PERIODIC, splitCreate, totalsOf, type StorageCall, type Totals } from './storage-counts.ts';
import { startTrace, stopTrace } from './storage-trace.ts';

export const STORM_TOKEN = 'whk_storms_token_0123456789';
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface StormTeam {
  teamId: string;
  integration: { id: string; prefix_id: string };
  accountUserIds: string[];
}

/**
 * A team with `people` people on call now on layer 1 (and `layer2` on layer 2, when given), and an integration
 * routing to it.
 */
export async function stormTeam(api: Api, people: number, name: string, layer2?: number): Promise<StormTeam> {
  const person = async (i: string) => {
    const user = await must(api, 'POST', '/users', { name: `Storm ${name}.${i}`, email: `storm-${name}-${i}-${randomUUID()}@example.test` }, 201);
    return (user.account_user_id ?? user.id) as string;
  };
  const ids: string[] = [];
  for (let i = 0; i < people; i++) ids.push(await person(String(i)));
  const team = await must(api, 'POST', '/teams', { name: `Storm ${name}` }, 201);
  const now = Date.now();
  const event = (layer: number, who: string[]) =>
    must(api, 'POST', '/events', { layer, time_zone: 'UTC', schedule_ids: [team.schedule_id], account_user_ids: who, start_time: iso(now - 3_600_000), end_time: iso(now + 86_400_000) }, 201);
  await event(1, ids);
  if (layer2) {
    const second: string[] = [];
    for (let i = 0; i < layer2; i++) second.push(await person(`l2-${i}`));
    await event(2, second);
  }
  const integration = await must(api, 'POST', '/integrations', { name: `Storm ${name}`, team_ids: [team.id], options: { token: STORM_TOKEN } }, 201);
  return { teamId: team.id, integration, accountUserIds: ids };
}

/**
 * Traces `act`, then waits until storage has been quiet for `quietMs` but for periodic jobs and no queue holds a
 * message due (the request applied, the pages delivered, the timers fired), and answers every call recorded.
 */
async function traced(act: () => Promise<void>, quietMs = 1500): Promise<StorageCall[]> {
  startTrace();
  await act();
  const all: StorageCall[] = [];
  for (let first = true; ; first = false) {
    await sleep(quietMs);
    const batch = stopTrace();
    all.push(...batch);
    if (!first && batch.every((c) => c.phase === 'other' || PERIODIC.includes(c.phase)) && (await queuesIdle())) break;
    startTrace();
  }
  return all;
}

export interface CountsRow {
  name: string;
  create: Totals;
  deliveries: Totals;
  /** Calls of periodic jobs seen meanwhile, left out of both. */
  periodic: number;
  calls: StorageCall[];
}

function rowOf(name: string, calls: StorageCall[]): CountsRow {
  const split = splitCreate(calls);
  return { name, create: totalsOf(split.create), deliveries: totalsOf(split.deliveries), periodic: split.periodic.length, calls };
}

/** One create through the API and one through the webhook per number of people paged, each traced to the end of its deliveries. */
export async function measureCounts(api: Api, baseUrl: string, peopleCounts: number[]): Promise<CountsRow[]> {
  const rows: CountsRow[] = [];
  for (const people of peopleCounts) {
    const team = await stormTeam(api, people, `counts-${people}`);
    const hook = { baseUrl, integration: team.integration, token: STORM_TOKEN };
    // Warm: the first create of each path fills the caches (keys, integrations) a storm's creates find warm.
    await traced(async () => void (await must(api, 'POST', '/alerts', { title: 'warm', urgency: 'high', destination_team_ids: [team.teamId] }, 201)));
    await traced(() => post(hook, { event_type: 'create', Id: `warm-${randomUUID()}`, Title: 'warm' }));
    rows.push(rowOf(`API, ${people} paged`, await traced(async () => void (await must(api, 'POST', '/alerts', { title: 'Storm', urgency: 'high', destination_team_ids: [team.teamId] }, 201)))));
    rows.push(rowOf(`webhook, ${people} paged`, await traced(() => post(hook, { event_type: 'create', Id: randomUUID(), Title: 'Storm' }))));
  }
  return rows;
}

/** The counts table; with `trace`, every call of each create too (phase, start, duration, command, items, key shape, kinds written). */
export function printCounts(rows: CountsRow[], trace = false): void {
  console.log('\n| create | create: calls | items read | items written | transactions | round trips (critical path) | bytes written | deliveries: calls | items read | items written | transactions | bytes written | all calls |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { name, create: c, deliveries: d } of rows) {
    console.log(
      `| ${name} | ${c.calls} | ${c.itemsRead} | ${c.itemsWritten} | ${c.transactions} | ${c.roundTrips} | ${c.bytesWritten} | ${d.calls} | ${d.itemsRead} | ${d.itemsWritten} | ${d.transactions} | ${d.bytesWritten} | ${c.calls + d.calls} |`,
    );
  }
  console.log('\n| create | create: commands | deliveries: commands |');
  console.log('|---|---|---|');
  for (const row of rows) {
    const split = splitCreate(row.calls);
    console.log(`| ${row.name} | ${commandMix(split.create)} | ${commandMix(split.deliveries)} |`);
  }
  if (!trace) return;
  for (const row of rows) {
    console.log(`\n${row.name}: phase, start ms, duration ms, command, items read / written, key shape, kinds written`);
    const t0 = Math.min(...row.calls.map((c) => c.start));
    for (const c of [...row.calls].sort((a, b) => a.start - b.start)) {
      console.log(`  ${c.phase.padEnd(8)} ${(c.start - t0).toFixed(1).padStart(8)} ${(c.end - c.start).toFixed(1).padStart(6)} ${c.command.replace(/Command$/, '').padEnd(20)} r${c.itemsRead} w${c.itemsWritten} ${c.about} ${c.writtenKinds.join(',')}`);
    }
  }
}
