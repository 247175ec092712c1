// The console's filtered alert lists at 1,000 and 10,000 alerts, each view timed in alternating rounds with the
// unfiltered GET /api/v4/alerts?limit=25 of the same account (goals: a view at 10,000 within 1.25× of itself at 1,000,
// and within 2× of the API list). The accounts are seeded with the items a create writes for the lists (alert item
// with its index keys, team index items; no prefix-id alias, which no list reads) in BatchWriteItem rounds (lib/db putItems), then the counts in one
// transaction: 10,000 creates through the API would take the bench's whole budget. Figures: docs/benchmarks.md.
// Run: node bench/console-lists.ts  (Node 24; needs Java for DynamoDB Local).
import { createAccount } from '#lib/people/new-account.ts';
import { alertCountChanges, teamIndexItem, type AlertItem } from '#lib/alerts/items.ts';
import { cookieName } from '#lib/console/headers.ts';
import { startSession } from '#lib/console/sessions.ts';
import { putItems, transact } from '#lib/db/items.ts';
import type { AlertStatus } from '#lib/escalation-engine/index.ts';
import { startStack } from '#lib/local/stack.ts';
import { seededAlertItem } from '../test/support/seeded-alert.ts';
import { apiClient, must } from './api-client.ts';
import { measureAlternating, runBench, type Timing } from './timing.ts';

const SIZES = [1_000, 10_000] as const;
const RUNS = { rounds: 4, perRound: 15, warmup: 3 };
const SERVICES = ['checkout', 'payments', 'search', 'mail', 'db-1', 'db-2', 'cache', 'queue', 'auth', 'billing'];

/** The i-th alert, counted from the newest: a tenth open, a tenth acknowledged, the rest resolved; a quarter low. */
function statusOf(i: number): AlertStatus {
  return i % 10 === 0 ? 'open' : i % 10 === 1 ? 'acknowledged' : 'resolved';
}

function alertItem(accountId: string, sourceId: string, teamId: string, i: number, createdMs: number): AlertItem {
  const service = SERVICES[i % SERVICES.length]!;
  return seededAlertItem(accountId, i + 1, createdMs, {
    title: `High error rate on ${service}`,
    description: `5xx above 2% for 5 minutes on ${service} (alert ${i})`,
    urgency: i % 4 === 0 ? 'low' : 'high',
    status: statusOf(i),
    tag_list: ['bench'],
    source_id: sourceId,
    destination_team_ids: i % 2 === 0 ? [teamId] : [],
  });
}

/** `count` alerts, one a second up to now, with the items a create writes for the lists; the counts once at the end. */
async function seed(accountId: string, sourceId: string, teamId: string, count: number): Promise<void> {
  const now = Date.now();
  const items: { pk: string; sk: string }[] = [];
  const counts = { all: count, statuses: {} as Record<string, number>, teams: { [teamId]: 0 } };
  for (let i = 0; i < count; i++) {
    const alert = alertItem(accountId, sourceId, teamId, i, now - i * 1000);
    items.push(alert, ...alert.data.destination_team_ids.map((t) => teamIndexItem(alert, t)));
    counts.statuses[alert.data.status] = (counts.statuses[alert.data.status] ?? 0) + 1;
    counts.teams[teamId]! += alert.data.destination_team_ids.length;
  }
  // Four writers of 250-item slices, each in BatchWriteItem rounds of 25.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < items.length) {
        const start = next;
        next += 250;
        await putItems(items.slice(start, start + 250));
      }
    }),
  );
  await transact(alertCountChanges(accountId, counts));
}

async function expectPage(response: Promise<Response>, expect: string): Promise<void> {
  const reply = await response;
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`expected 200, got ${reply.status}: ${text.slice(0, 300)}`);
  if (!text.includes(expect)) throw new Error(`the page lacks ${JSON.stringify(expect)}: ${text.slice(0, 600)}`);
}

interface Row {
  view: string;
  size: number;
  page: Timing;
  api: Timing;
}

async function main(): Promise<void> {
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-console-lists' });
  const rows: Row[] = [];
  try {
    for (const size of SIZES) {
      const { account, apiKey, accountUser, user } = await createAccount({ name: `Console lists ${size}`, adminEmail: `console-lists-${size}-${Date.now()}@example.test` });
      const team = await must(apiClient(stack.baseUrl, apiKey), 'POST', '/teams', { name: 'Payments' });
      const t0 = performance.now();
      await seed(account.id, accountUser.id, team.id, size);
      console.log(`${size.toLocaleString('en')} alerts seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      // The seed can outlast the gateway's keep-alive: a first call that meets the closed connection is not timed.
      await fetch(`${stack.baseUrl}/sign-in`).catch(() => undefined);
      const session = await startSession(user.id, account.id, Date.now());
      const cookie = `${cookieName(false)}=${session.id}`;
      const api = async () => {
        const body = await must(apiClient(stack.baseUrl, apiKey), 'GET', '/alerts?limit=25');
        if (body.total_count !== size) throw new Error(`GET /alerts: total_count ${body.total_count}, expected ${size}`);
      };
      // Each view with a text its page must show (the count line, or the search's reach).
      const views: [string, string, string][] = [
        ['status=open', '/alerts?status=open', `of ${size / 10}.`],
        ['team=<team>', `/alerts?team=${team.id}`, `of ${size / 2}.`],
        ['urgency=low', '/alerts?urgency=low', 'of more than 25'],
        ['q=checkout (1 in 10)', '/alerts?q=checkout', 'of more than 25'],
        ['team=<team>&status=acknowledged', `/alerts?team=${team.id}&status=acknowledged`, 'newest 1,000 alerts of Payments'],
        ['q=nothing-matches (reads the whole window)', '/alerts?q=nothing-matches', 'No alerts match.'],
      ];
      for (const [view, path, expect] of views) {
        const page = () => expectPage(fetch(`${stack.baseUrl}${path}`, { headers: { cookie } }), expect);
        const [pageTiming, apiTiming] = await measureAlternating(RUNS.rounds, RUNS.perRound, 1, RUNS.warmup, page, api);
        rows.push({ view, size, page: pageTiming, api: apiTiming });
        console.log(`  ${size} ${view}: ${pageTiming.median.toFixed(1)} ms (API ${apiTiming.median.toFixed(1)} ms)`);
      }
    }
  } finally {
    await stack.stop();
  }
  const at = (view: string, size: number) => rows.find((r) => r.view === view && r.size === size)!;
  console.log(`\n| console view | median at 1,000 (p99) ms | median at 10,000 (p99) ms | 10,000 / 1,000 (goal ≤ 1.25) | API list median at 10,000 ms | view / API at 10,000 (goal ≤ 2) |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const view of [...new Set(rows.map((r) => r.view))]) {
    const small = at(view, SIZES[0]);
    const big = at(view, SIZES[1]);
    const ms = (t: Timing) => `${t.median.toFixed(1)} (${t.p99.toFixed(1)})`;
    console.log(`| /alerts?${view} | ${ms(small.page)} | ${ms(big.page)} | ${(big.page.median / small.page.median).toFixed(2)} | ${big.api.median.toFixed(1)} | ${(big.page.median / big.api.median).toFixed(2)} |`);
  }
}

runBench(main);
