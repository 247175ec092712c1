// Monitor readers (docs/monitors.md), in process, no I/O: requests read per second by each type's reader on a recorded
// payload of its sender (test/fixtures/monitors/), next to the generic webhook reader on the generic fields, and what
// Sentry's signature check costs at intake. The worker's storage writes dwarf all of these (docs/benchmarks.md,
// "The ingest path"); the figures show a reader is never what limits ingest. Figures: docs/benchmarks.md.
// Run: node bench/readers.ts  (Node 24; `npx node` if the system node is older)
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readerOf } from '#lib/monitor-readers/index.ts';
import type { ReaderOptions, ReaderRequest } from '#lib/monitor-readers/types.ts';
import { measure, runBench, type Timing } from './timing.ts';

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures', 'monitors');
const SECRET = 'bench-sentry-client-secret-0123456789';

function requestOf(file: string, headers: Record<string, string> = {}): ReaderRequest {
  const rawBody = readFileSync(join(FIXTURES, file), 'utf8');
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, query: {}, body: JSON.parse(rawBody) as unknown, rawBody };
}

const CASES: { type: string; label: string; file: string; headers?: Record<string, string>; options?: Record<string, unknown> }[] = [
  { type: 'webhook', label: 'webhook (generic fields, the baseline)', file: 'spec-create.json' },
  { type: 'prometheus', label: 'prometheus: a group of 2 firing', file: 'prometheus/firing.json' },
  { type: 'prometheus', label: 'prometheus: the same, alert_per: alert', file: 'prometheus/firing.json', options: { alert_per: 'alert' } },
  { type: 'grafana', label: 'grafana: a group of 2 firing', file: 'grafana/firing.json' },
  { type: 'datadog', label: 'datadog: Triggered (template)', file: 'datadog/triggered.json' },
  { type: 'datadog', label: 'datadog: default payload', file: 'datadog/default-triggered.json' },
  { type: 'sentry', label: 'sentry: issue created', file: 'sentry/issue-created.json', headers: { 'sentry-hook-resource': 'issue' } },
  { type: 'azure_monitor', label: 'azure_monitor: Fired', file: 'azure_monitor/fired.json' },
  { type: 'stackdriver', label: 'stackdriver: incident open', file: 'stackdriver/open.json' },
];

const RUNS = 20_000;

/**
 * Requests read per second on one core, from the median read: the wall-clock rate of a loop on this shared machine
 * swings with its other load (and with garbage collection) far more than the median does.
 */
const perSecond = (timing: Timing) => 1000 / timing.median;

runBench(async () => {
  const rows: { label: string; timing: Timing }[] = [];
  for (const c of CASES) {
    const reader = readerOf(c.type);
    if (!reader) throw new Error(`no reader for ${c.type}`);
    const request = requestOf(c.file, c.headers);
    const options: ReaderOptions = { options: c.options ?? {}, wrapperKey: null, captureAdditionalData: false, defaultUrgency: 'high', generateId: (i) => `g-${i}` };
    if (reader.read(request, options).events.length === 0) throw new Error(`${c.label} read no event`);
    rows.push({ label: c.label, timing: await measure(RUNS, 1, 2000, async () => reader.read(request, options)) });
  }
  const sentry = readerOf('sentry')!;
  const raw = readFileSync(join(FIXTURES, 'sentry/issue-created.json'), 'utf8');
  const signed = requestOf('sentry/issue-created.json', { 'sentry-hook-resource': 'issue', 'sentry-hook-signature': createHmac('sha256', SECRET).update(raw).digest('hex') });
  const verify = () => sentry.verify!(signed, { client_secret: SECRET });
  rows.push({ label: 'sentry: verify (HMAC-SHA256 of the raw body, at intake)', timing: await measure(RUNS, 1, 2000, verify) });

  const baseline = perSecond(rows[0]!.timing);
  console.log('\n| reader | runs | median µs | p99 µs | requests read / s | vs generic |\n|---|---:|---:|---:|---:|---:|');
  for (const { label, timing } of rows) {
    const rate = perSecond(timing);
    console.log(`| ${label} | ${timing.runs} | ${(timing.median * 1000).toFixed(1)} | ${(timing.p99 * 1000).toFixed(1)} | ${Math.round(rate).toLocaleString('en-US')} | ${(rate / baseline).toFixed(2)}× |`);
  }
  console.log(`Peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
});
