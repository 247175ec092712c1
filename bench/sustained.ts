// The sustained run shared by bench/ingest.ts and bench/storms.ts: 10,000 events for one integration within a
// minute (500 Ids × create, 18 updates, resolve), then every alert checked for loss and order
// (docs/benchmarks.md, "The ingest path" and "Alert storms").
import { randomUUID } from 'node:crypto';
import { readShardedCounter } from '#lib/db/counters.ts';
import { queryAll } from '#lib/db/items.ts';
import { integrationLogsGsi, logCounter, type SourceLogItem } from '#lib/ingest/source-log.ts';
import { must } from './api-client.ts';
import { drained, paced, post, type Setup } from './ingest-parts.ts';

/** 500 alerts × (create, 18 updates, resolve) = 10,000 events, paced over one minute. */
export const SUSTAINED = { alerts: 500, updates: 18, seconds: 60 };

export interface SustainedResult {
  events: number;
  acceptedSeconds: number;
  appliedSeconds: number;
  logs: number;
  counter: number;
  /** Requests without apply notes. */
  lost: number;
  /** Requests applied out of their acceptance order, per Id. */
  outOfOrder: number;
  /** Alerts that are not exactly: one per Id, resolved, the last title, every update logged before the resolve. */
  wrong: number;
}

/**
 * Sends the events, paced over `seconds` (the minute by default; 0: as fast as they are accepted, a storm), each Id's
 * next event once its previous one is accepted; waits until the worker has applied them all (then calls
 * `afterApplied`, before the checks read anything), and checks them. Paced, the applied rate cannot pass the pace;
 * unpaced, it is the worker's.
 */
export async function runSustained(shared: Setup, afterApplied: () => void = () => undefined, seconds: number = SUSTAINED.seconds): Promise<SustainedResult> {
  // An integration of its own, so its log counter counts this run only.
  const integration = await must(shared.api, 'POST', '/integrations', { name: 'Sustained', account_user_ids: [shared.accountUserId], options: { token: shared.token } }, 201);
  const setup: Setup = { ...shared, integration };
  const run = randomUUID().slice(0, 8);
  const ids = Array.from({ length: SUSTAINED.alerts }, (_, i) => `sus-${run}-${i}`);
  const rounds = SUSTAINED.updates + 2;
  const total = ids.length * rounds;
  const payloadOf = (round: number, id: string) =>
    round === 0 ? { event_type: 'create', Id: id, Title: 'seq 0' } : round === rounds - 1 ? { event_type: 'resolve', Id: id } : { event_type: 'update', Id: id, Title: `seq ${round}` };
  // One paced stream of all 10,000 (round by round through the Ids); an Id's next event waits for the answer to its
  // previous one, so each Id's events are accepted in order without holding back the other Ids.
  const previous = new Map<string, Promise<void>>();
  const t0 = performance.now();
  await paced(total, seconds > 0 ? total / seconds : Infinity, async (n) => {
    const round = Math.floor(n / ids.length);
    const id = ids[n % ids.length]!;
    const sent = (previous.get(id) ?? Promise.resolve()).then(() => post(setup, payloadOf(round, id)));
    previous.set(id, sent);
    return sent;
  });
  const acceptedSeconds = (performance.now() - t0) / 1000;
  await drained();
  const appliedSeconds = (performance.now() - t0) / 1000;
  afterApplied();

  // The log counters are sharded (lib/db/counters.ts): the count is the sum of the shards.
  const { key, grouped } = logCounter(setup.accountId, setup.integration.id);
  const counter = { itemCount: await readShardedCounter(key, grouped) };
  const logs = await queryAll<SourceLogItem>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': integrationLogsGsi(setup.accountId, setup.integration.id) },
  });
  let outOfOrder = 0;
  let lost = 0;
  const byId = new Map<string, { receivedAt: string; appliedAt: string }[]>();
  for (const log of logs) {
    const id = String((JSON.parse(log.bodyText ?? '{}') as { Id?: unknown }).Id);
    const applied = log.notes.at(-1)?.created_at;
    if (!applied) lost++;
    const list = byId.get(id) ?? [];
    list.push({ receivedAt: log.receivedAt, appliedAt: applied ?? '' });
    byId.set(id, list);
  }
  for (const list of byId.values()) {
    list.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
    for (let i = 1; i < list.length; i++) if (list[i]!.appliedAt < list[i - 1]!.appliedAt) outOfOrder++;
  }
  // An event never logged is lost too.
  lost += Math.max(0, total - logs.length);
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
  return { events: total, acceptedSeconds, appliedSeconds, logs: logs.length, counter: counter?.itemCount ?? 0, lost, outOfOrder, wrong };
}

/** The run's table. */
export function printSustained(r: SustainedResult): void {
  console.log(`\n| sustained ingest, one integration | value |`);
  console.log('|---|---:|');
  console.log(`| events sent (${SUSTAINED.alerts} alerts × create, ${SUSTAINED.updates} updates, resolve) | ${r.events} |`);
  console.log(`| all accepted (200) after | ${r.acceptedSeconds.toFixed(1)} s (${(r.events / r.acceptedSeconds).toFixed(0)} events/s) |`);
  console.log(`| all applied after | ${r.appliedSeconds.toFixed(1)} s (${(r.events / r.appliedSeconds).toFixed(0)} events/s) |`);
  console.log(`| request logs / counter | ${r.logs} / ${r.counter} |`);
  console.log(`| requests lost (not logged, or logged without apply notes) | ${r.lost} |`);
  console.log(`| requests applied out of acceptance order (per Id) | ${r.outOfOrder} |`);
  console.log(`| alerts not exactly: one, resolved, last title, ${SUSTAINED.updates} updates before the resolve | ${r.wrong} |`);
}
