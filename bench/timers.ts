// Page-due precision: how late after its due time a waiting escalation pages the next layer, through the local
// stack (DynamoDB Local, the SQS emulator's delayed wake-ups, the timers poller, the sweeper). N alerts are created
// on a team whose first layer times out after 5 minutes, at HARK_TIME_SCALE=60 (5 s); for each alert the bench
// takes (created_at of the layer-2 `paged` log entry − dueAt of the layer-1 timer). Goal: p99 under 2 s.
// Run: node bench/timers.ts  (Node 24; needs Java for DynamoDB Local)
import { apiClient, must } from './api-client.ts';
import { percentile, runBench } from './timing.ts';
import { createAccount } from '#lib/people/new-account.ts';
import { queryPrefix } from '#lib/db/items.ts';
import { alertPk } from '#lib/db/keys.ts';
import { startStack } from '#lib/local/stack.ts';
import type { TimerItem } from '#lib/timers/index.ts';

const ALERTS = 200;
const TIME_SCALE = '60';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function main(): Promise<void> {
  process.env.HARK_TIME_SCALE = TIME_SCALE;
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-timers' });
  try {
    const { account, apiKey } = await createAccount({ name: 'Bench timers', adminEmail: `bench-timers-${Date.now()}@example.test` });
    const gateway = apiClient(stack.baseUrl, apiKey);
    const api = (method: string, path: string, body?: unknown) => must(gateway, method, path, body);
    const person = async (name: string) =>
      (await api('POST', '/account_users', { roles: { admin: false }, user_attributes: { name, emails_attributes: [{ email: `${name}-${Date.now()}@example.test`, primary: true }] } }))
        .id as string;
    const [first, second] = [await person('first'), await person('second')];
    const team = await api('POST', '/teams', { name: 'Bench' });
    for (const [layer, who] of [[1, first], [2, second]] as const) {
      await api('POST', '/events', { start_time: iso(Date.now() - 3_600_000), end_time: iso(Date.now() + 3_600_000), layer, time_zone: 'UTC', schedule_ids: [team.schedule_id], account_user_ids: [who] });
    }

    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < ALERTS; i++) ids.push((await api('POST', '/alerts', { title: `Bench ${i}`, urgency: 'high', destination_team_ids: [team.id] })).id as string);
    const createSeconds = (performance.now() - t0) / 1000;

    const lateness = new Map<string, number>();
    const deadline = Date.now() + 120_000;
    while (lateness.size < ids.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      for (const id of ids) {
        if (lateness.has(id)) continue;
        const logs = (await api('GET', `/alerts/${id}/logs?limit=100`)).data as { event: string; layer?: number; created_at: string }[];
        const paged = logs.find((l) => l.event === 'paged' && l.layer === 2);
        if (!paged) continue;
        const timers = await queryPrefix<TimerItem>(alertPk(account.id, id), 'TIMER#');
        const timer = timers.find((t) => t.payload?.layer === 1);
        if (!timer) throw new Error(`alert ${id}: no layer-1 timer`);
        lateness.set(id, Date.parse(paged.created_at) - Date.parse(timer.dueAt));
      }
    }
    if (lateness.size < ids.length) throw new Error(`only ${lateness.size} of ${ids.length} alerts paged layer 2 within 120 s`);
    const sorted = [...lateness.values()].sort((a, b) => a - b);
    console.log(`${ALERTS} alerts created in ${createSeconds.toFixed(1)} s (layer 1 times out 5 s later at HARK_TIME_SCALE=${TIME_SCALE})`);
    console.log('| page-due precision (layer-2 page − layer-1 due) | n | min ms | p50 ms | p99 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| delayed wake-up → timers handler → page | ${sorted.length} | ${sorted[0]} | ${percentile(sorted, 0.5)} | ${percentile(sorted, 0.99)} | ${sorted.at(-1)} |`);
    if (sorted[0]! < 0) throw new Error('a page came before its due time');
  } finally {
    await stack.stop();
  }
}

runBench(main);
