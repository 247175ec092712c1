// Alert storms, the timed parts: a storm of webhook creates applied (part "apply") and the page-due precision of the
// layer-2 pages of a storm's alerts (part "timers"). docs/benchmarks.md, "Alert storms", says how each is measured.
import { randomUUID } from 'node:crypto';
import { config } from '#lib/config.ts';
import { queryPrefix } from '#lib/db/items.ts';
import { alertPk } from '#lib/db/keys.ts';
import type { RunningStack } from '#lib/local/stack.ts';
import type { TimerItem } from '#lib/timers/index.ts';
import { must, type Api } from './api-client.ts';
import { drained, messagesIn, post, sleep } from './ingest-parts.ts';
import type { StorageCall } from './storage-counts.ts';
import { startTrace, stopTrace } from './storage-trace.ts';
import { STORM_TOKEN, stormTeam, type StormTeam } from './storm-counts.ts';
import { percentile } from './timing.ts';

/**
 * A storm: `creates` webhook creates with new Ids, round robin over `integrations` (each its own team of one person),
 * sent by `concurrency` monitors at once, after `warmup` creates sent and applied the same way (untimed).
 */
export const STORM = { creates: 1000, integrations: 4, concurrency: 16, warmup: 300 };

/** Sends `count` creates round robin over the teams' integrations as fast as they are accepted; answers their Ids in order. */
export async function sendStorm(baseUrl: string, teams: StormTeam[], count: number, title: string): Promise<string[]> {
  const run = randomUUID().slice(0, 8);
  const ids = Array.from({ length: count }, (_, i) => `storm-${run}-${i}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: STORM.concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const team = teams[i % teams.length]!;
        await post({ baseUrl, integration: team.integration, token: STORM_TOKEN }, { event_type: 'create', Id: ids[i], Title: `${title} ${i}` });
      }
    }),
  );
  return ids;
}

export interface ApplyResult {
  creates: number;
  acceptedSeconds: number;
  /** From the first request sent to the ingest queue empty: every create stored (its first pages written). */
  appliedSeconds: number;
  /** From the first request sent to the timers queue empty too: every page delivered. */
  deliveredSeconds: number;
  /** Messages in the ingest dead-letter queue after the storm (a create that failed every attempt). */
  deadLetters: number;
  /** With BENCH_STORM_TRACE=1: every storage call from the first request to every page delivered. */
  calls?: StorageCall[];
}

/** Part "apply": a storm of webhook creates on an idle stack, timed until applied and until delivered. */
export async function applyStorm(api: Api, stack: RunningStack): Promise<ApplyResult> {
  const teams: StormTeam[] = [];
  for (let i = 0; i < STORM.integrations; i++) teams.push(await stormTeam(api, 1, `apply-${i}`));
  // Warm-up: the storage's JIT warms to the mix a storm asks for (the raw side's warm-up is raw transactions only);
  // without it a first storm ran at about four fifths of the rate of one that follows other work.
  await sendStorm(stack.baseUrl, teams, STORM.warmup, 'Warm-up');
  await drained(config().ingestQueueUrl as string, 100);
  await drained(config().timersQueueUrl as string, 100);
  const deadBefore = await messagesIn(stack.ingestDlqUrl);
  // Recording costs the gateway a stack per call: only on request, to see what a storm's creates ask of storage.
  const tracing = process.env.BENCH_STORM_TRACE === '1';
  if (tracing) startTrace();
  const t0 = performance.now();
  await sendStorm(stack.baseUrl, teams, STORM.creates, 'Storm');
  const acceptedSeconds = (performance.now() - t0) / 1000;
  await drained(config().ingestQueueUrl as string, 100);
  const appliedSeconds = (performance.now() - t0) / 1000;
  await drained(config().timersQueueUrl as string, 100);
  const deliveredSeconds = (performance.now() - t0) / 1000;
  const calls = tracing ? stopTrace() : undefined;
  return { creates: STORM.creates, acceptedSeconds, appliedSeconds, deliveredSeconds, deadLetters: (await messagesIn(stack.ingestDlqUrl)) - deadBefore, ...(calls ? { calls } : {}) };
}

/** The page-due storm's time scale: layer 1's 5-minute timeout lasts 5 s. */
const TIME_SCALE = '60';
const LAYER_1_TIMEOUT_MS = 300_000 / Number(TIME_SCALE);

export interface PageDueResult {
  creates: number;
  appliedSeconds: number;
  /** Layer-2 page − layer-1 due, ms, ascending. */
  lateness: number[];
  /** The most messages the timers queue held due at once (sampled every second): wake-ups waiting their turn. */
  timersBacklog: number;
}

/** Samples a queue's messages due every second until stopped; answers the most seen. */
function sampleDepth(queueUrl: string): { stop: () => Promise<number> } {
  let most = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      most = Math.max(most, await messagesIn(queueUrl));
      await sleep(1000);
    }
  })();
  return { stop: async () => ((running = false), await loop, most) };
}

/**
 * Part "timers": a storm of webhook creates to a team whose layer 1 times out after 5 minutes, at
 * HARK_TIME_SCALE=60 (5 s), so the first alerts' layer-2 pages fall due while later ones are still being applied.
 * For each alert, the `created_at` of its layer-2 `paged` entry − the `dueAt` of its layer-1 timer. The scale applies
 * to alerts created while it is set (each alert keeps the scale it was created with); it is unset afterwards.
 */
export async function pageDueStorm(api: Api, stack: RunningStack, accountId: string): Promise<PageDueResult> {
  const team = await stormTeam(api, 1, 'page-due', 1);
  const previous = process.env.HARK_TIME_SCALE;
  process.env.HARK_TIME_SCALE = TIME_SCALE;
  let ids: string[];
  const depth = sampleDepth(config().timersQueueUrl as string);
  const t0 = performance.now();
  try {
    ids = await sendStorm(stack.baseUrl, [team], STORM.creates, 'Page due');
    await drained(config().ingestQueueUrl as string, 100);
  } finally {
    if (previous === undefined) delete process.env.HARK_TIME_SCALE;
    else process.env.HARK_TIME_SCALE = previous;
  }
  const appliedSeconds = (performance.now() - t0) / 1000;
  // Every layer-2 page is due at most LAYER_1_TIMEOUT_MS after the last create; read each alert once it has paged.
  await sleep(LAYER_1_TIMEOUT_MS);
  const lateness: number[] = [];
  const deadline = Date.now() + 180_000;
  for (const id of ids) {
    const alert = (await must(api, 'GET', `/alerts?thirdparty_id=${id}`)).data?.[0] as { id: string } | undefined;
    if (!alert) throw new Error(`no alert for ${id}`);
    for (;;) {
      const logs = (await must(api, 'GET', `/alerts/${alert.id}/logs?limit=100`)).data as { event: string; layer?: number; created_at: string }[];
      const paged = logs.find((l) => l.event === 'paged' && l.layer === 2);
      if (paged) {
        const timer = (await queryPrefix<TimerItem>(alertPk(accountId, alert.id), 'TIMER#')).find((t) => t.payload?.layer === 1);
        if (!timer) throw new Error(`alert ${alert.id}: no layer-1 timer`);
        lateness.push(Date.parse(paged.created_at) - Date.parse(timer.dueAt));
        break;
      }
      if (Date.now() > deadline) throw new Error(`only ${lateness.length} of ${ids.length} alerts paged layer 2 within 180 s of the storm`);
      await sleep(500);
    }
  }
  const timersBacklog = await depth.stop();
  lateness.sort((a, b) => a - b);
  if (lateness[0]! < 0) throw new Error('a page came before its due time');
  return { creates: ids.length, appliedSeconds, lateness, timersBacklog };
}

export const p99 = (sorted: number[]): number => percentile(sorted, 0.99);
