// Outgoing webhooks through the local stack (DynamoDB Local, the SQS emulator, the timers and webhooks pollers) to a
// local receiver (node:http, answering 204 at once), two ways:
// 1. end to end: N alerts are created one after the other through the API, each causing `alert.created` and
//    `alert.open` for one subscription; the delay from the alert change (the payload's timestamp) to its arrival;
// 2. the pipeline alone: a burst of events recorded directly with webhookEventWrites (50 subjects × 8 events, so
//    lanes keep each subject's order), then woken at once; events delivered per second until the last arrives.
// Run: node bench/webhooks.ts  (Node 24; needs Java for DynamoDB Local)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiClient, must } from './api-client.ts';
import { percentile, runBench } from './timing.ts';
import { createAccount } from '#lib/people/new-account.ts';
import { startStack } from '#lib/local/stack.ts';
import { transact } from '#lib/db/items.ts';
import { changeSequence, wakeWebhookTimers, webhookEventWrites } from '#lib/webhooks/index.ts';
import type { DurableTimer } from '#lib/timers/index.ts';

const ALERTS = 100;
const EVENTS = ALERTS * 2;
const SUBJECTS = 50;
const PER_SUBJECT = 8;


async function main(): Promise<void> {
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-webhooks' });
  const arrivals: { at: number; changedAt: number }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      arrivals.push({ at: Date.now(), changedAt: Date.parse(body.timestamp) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const created = await createAccount({ name: 'Bench webhooks', adminEmail: `bench-webhooks-${Date.now()}@example.test` });
    const { apiKey } = created;
    const adminAccountUserId = created.accountUser.id;
    const gateway = apiClient(stack.baseUrl, apiKey);
    const api = (method: string, path: string, body?: unknown) => must(gateway, method, path, body);
    await api('POST', '/outgoing_webhooks', { name: 'Bench', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, events: ['alert.created', 'alert.open'] });

    const t0 = Date.now();
    for (let i = 0; i < ALERTS; i++) await api('POST', '/alerts', { title: `Bench ${i}`, urgency: 'low', destination_account_user_ids: [adminAccountUserId] });
    const createSeconds = (Date.now() - t0) / 1000;
    const deadline = Date.now() + 180_000;
    while (arrivals.length < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (arrivals.length < EVENTS) throw new Error(`only ${arrivals.length} of ${EVENTS} events arrived within 180 s`);
    const seconds = (Math.max(...arrivals.map((a) => a.at)) - t0) / 1000;
    const delays = arrivals.map((a) => a.at - a.changedAt).sort((a, b) => a - b);
    console.log(`${ALERTS} alerts created in ${createSeconds.toFixed(1)} s by one client (${(ALERTS / createSeconds).toFixed(0)}/s), ${EVENTS} events to one local receiver`);
    console.log('| outgoing webhooks | events | delivered per s | delay p50 ms | delay p99 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| alert change → receiver (204), changes one at a time | ${EVENTS} | ${(EVENTS / seconds).toFixed(0)} | ${percentile(delays, 0.5)} | ${percentile(delays, 0.99)} | ${delays.at(-1)} |`);

    arrivals.length = 0;
    const burst = SUBJECTS * PER_SUBJECT;
    const timers: DurableTimer[] = [];
    for (let subject = 0; subject < SUBJECTS; subject++) {
      for (let n = 1; n <= PER_SUBJECT; n++) {
        const now = Date.now();
        const events = webhookEventWrites(created.account.id, `BENCHSUBJECT${String(subject).padStart(14, '0')}`, changeSequence(n, now), { team_ids: [], urgency: 'low' }, [{ type: 'alert.created', data: { n } }], now);
        await transact(events.writes);
        timers.push(...events.timers);
      }
    }
    const t1 = Date.now();
    await wakeWebhookTimers(timers);
    const burstDeadline = Date.now() + 180_000;
    while (arrivals.length < burst && Date.now() < burstDeadline) await new Promise((r) => setTimeout(r, 100));
    if (arrivals.length < burst) throw new Error(`only ${arrivals.length} of ${burst} burst events arrived within 180 s`);
    const burstSeconds = (Math.max(...arrivals.map((a) => a.at)) - t1) / 1000;
    console.log(`| a burst of ${burst} recorded events (${SUBJECTS} alerts × ${PER_SUBJECT}), woken at once | ${burst} | ${(burst / burstSeconds).toFixed(0)} | | | |`);
  } finally {
    receiver.close();
    await stack.stop();
  }
}

runBench(main);
