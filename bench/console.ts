// The console's pages through the local gateway, in one run: the alert list page (the first page, 25 alerts) timed
// in alternating rounds with GET /api/v4/alerts?limit=25 of the same account (goal: the page within 2× of the API),
// then the median of every other page (each should answer in under 300 ms locally), then POST /sign-in for known and
// unknown addresses alternating (goal: medians within 10 %). Figures: docs/benchmarks.md.
// Run: node bench/console.ts  (Node 24; needs Java for DynamoDB Local).
import { createAccount } from '#lib/people/new-account.ts';
import { issueSignInLink } from '#lib/console/sign-in.ts';
import { startStack } from '#lib/local/stack.ts';
import { apiClient, must } from './api-client.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import { signInTimings } from './sign-in-timing.ts';
import { measure, measureAlternating, runBench, type Timing } from './timing.ts';

const ALERTS = 300;
const ROUNDS = 6;
const RUNS_PER_ROUND = 40;
const PAGE_RUNS = 60;

async function expectOk(response: Promise<Response>): Promise<string> {
  const reply = await response;
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`expected 200, got ${reply.status}: ${text.slice(0, 300)}`);
  return text;
}

const row = (name: string, t: Timing) => `| ${name} | ${t.runs} | ${t.median.toFixed(1)} | ${t.p99.toFixed(1)} |`;

async function main(): Promise<void> {
  // As npm start runs it: the background functions (which deliver the sign-in links) in their own threads.
  const stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bench-console', isolation: 'threads' });
  try {
    const email = `console-${Date.now()}@example.test`;
    const { apiKey, accountUser, user } = await createAccount({ name: 'Console bench', adminEmail: email });
    const api = apiClient(stack.baseUrl, apiKey);
    const team = await must(api, 'POST', '/teams', { name: 'Payments' });
    const now = Date.now();
    await must(api, 'POST', '/events', {
      start_time: new Date(now - 3_600_000).toISOString(),
      end_time: new Date(now + 3_600_000).toISOString(),
      layer: 1,
      time_zone: 'UTC',
      schedule_ids: [team.schedule_id],
      account_user_ids: [accountUser.id],
    });
    const t0 = performance.now();
    const created: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (created.length < ALERTS) {
          const n = created.push('');
          const alert = await must(api, 'POST', '/alerts', { title: `Bench alert ${n}`, urgency: n % 3 ? 'high' : 'low', destination_team_ids: [team.id] });
          created[n - 1] = alert.id;
          if (n % 3 === 0) await must(api, 'POST', `/alerts/${alert.id}/acknowledge`);
          else if (n % 3 === 1) await must(api, 'POST', `/alerts/${alert.id}/resolve`);
        }
      }),
    );
    console.log(`${ALERTS} alerts (a third each open, acknowledged, resolved) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // A session as a person gets one: the link's button.
    const link = new URL(await issueSignInLink(user.id, email, stack.baseUrl, Date.now()));
    const signedIn = await fetch(`${stack.baseUrl}${link.pathname}`, { method: 'POST', redirect: 'manual' });
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const page = (path: string) => () => expectOk(fetch(`${stack.baseUrl}${path}`, { headers: { cookie } }));
    const apiList = () => expectOk(fetch(`${stack.baseUrl}/api/v4/alerts?limit=25`, { headers: { authorization: `Bearer ${apiKey}` } }));

    const [consoleList, apiTiming] = await measureAlternating(ROUNDS, RUNS_PER_ROUND, 1, 10, page('/alerts'), apiList);
    console.log('\n| measurement | runs | median ms | p99 ms |');
    console.log('|---|---:|---:|---:|');
    console.log(row('GET /api/v4/alerts?limit=25 (API)', apiTiming));
    console.log(row('GET /alerts (console, 25 alerts, active first)', consoleList));
    console.log(`\nconsole / API median: ${(consoleList.median / apiTiming.median).toFixed(2)}× (goal ≤ 2×)\n`);

    const pages: [string, string][] = [
      ['GET /alerts?urgency=low (filtered: reads the account index)', '/alerts?urgency=low'],
      ['GET /alerts/<id>', `/alerts/${created[1]}`],
      ['GET /on-call', '/on-call'],
      ['GET /schedules/<id>', `/schedules/${team.schedule_id}`],
      ['GET /me', '/me'],
      ['GET /integrations', '/integrations'],
      ['GET /sign-in', '/sign-in'],
    ];
    console.log('| page | runs | median ms | p99 ms |');
    console.log('|---|---:|---:|---:|');
    for (const [name, path] of pages) console.log(row(name, await measure(PAGE_RUNS, 1, 5, page(path))));

    // Sign-in mails go to an adapter that drops them: the worker does all its work, nothing leaves the machine.
    useTestAdapters({ email: { channel: 'email', provider: 'bench', send: async (m) => ({ status: 'sent', providerMessageId: m.notificationId }) } });
    const signIn = await signInTimings(stack.baseUrl, (address) => must(api, 'POST', '/account_users', { user_attributes: { name: 'Sign-in bench', email: address } }));
    console.log('\n| POST /sign-in | runs | median ms | p99 ms |');
    console.log('|---|---:|---:|---:|');
    console.log(row('known address (a link is sent after the answer)', signIn.known));
    console.log(row('unknown address', signIn.unknown));
    const gap = Math.abs(signIn.known.median - signIn.unknown.median) / Math.min(signIn.known.median, signIn.unknown.median);
    console.log(`\nknown / unknown median: ${(signIn.known.median / signIn.unknown.median).toFixed(2)}× (goal: within 10 %, ${gap <= 0.1 ? 'met' : 'not met'})`);
  } finally {
    await stack.stop();
  }
}

runBench(main);
