// Expressions users write (docs/security.md, "Expressions users write"), in process, no I/O: what a rule's $regex,
// a router template and a wrapper key cost within their bounds, how fast the attacks that stalled the service are
// now cut off, and window_events' refusal of a window too large to answer. Figures: docs/benchmarks.md.
// Run: node bench/expressions.ts  (Node 24; `npx node` if the system node is older)
import { compile, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';
import { searchWithinBudget } from '#lib/monitor-readers/jmespath-budget.ts';
import { plainPathFields, unwrapPayload } from '#lib/monitor-readers/wrapper-key.ts';
import { matchDataOf, matchQuery } from '#lib/rule-engine/index.ts';
import { regexFlagsProblem } from '#lib/rule-engine/regex.ts';
import { renderTemplate } from '#lib/routing-engine/templates.ts';
import { occurrencesInWindowAtMost, occurrencesPage, type ScheduleEvent } from '#lib/schedule-engine/index.ts';
import { MAX_WINDOW_ENTRIES } from '#lib/limits.ts';
import { measure, runBench, type Timing } from './timing.ts';

const rows: { name: string; timing: Timing }[] = [];
async function time(name: string, runs: number, op: () => unknown): Promise<void> {
  rows.push({ name, timing: await measure(runs, 1, Math.min(runs, 20), async () => op()) });
}

const now = new Date('2026-06-01T10:00:00Z');
const ZABBIX =
  "{event_type: event_value == '0' && 'resolve' || 'create', Id: trigger_id || event_id, Title: title, Description: description, " +
  "Urgency: (event_nseverity == '5' && 'critical') || (event_nseverity == '4' && 'high') || ((event_nseverity == '3' || event_nseverity == '2') && 'medium') || 'low', " +
  "Tags: split(event_tags, ','), zabbix_url: zabbix_url}";
const zabbixPayload = { event_value: '1', trigger_id: '42', title: 'CPU high on web-1', description: 'load 12', event_nseverity: '4', event_tags: 'class:os,component:cpu', zabbix_url: 'https://z' };

function backtrackingMs(length: number): number {
  const title = `${'a'.repeat(length)}!`;
  const started = performance.now();
  /^(a+)+$/.test(title);
  return performance.now() - started;
}

const hourly = (count: number): ScheduleEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `e${i}`, layer: 1 + (i % 5), timeZone: 'Europe/Berlin', start: '2025-01-01T00:00:00', end: '2025-01-01T01:00:00',
    repeat: true, frequency: 1, frequencyUnit: 'hourly', rotation: true, attendees: ['a', 'b', 'c'], exceptions: [], scheduleIds: ['s'],
  }));

runBench(async () => {
  const evil = matchDataOf({ title: `${'a'.repeat(254)}!` });
  await time('$regex ^(a+)+$ on a 255-character title (RE2)', 2000, () => matchQuery({ 'alert.title': { $regex: '^(a+)+$' } }, evil, now));
  const typical = matchDataOf({ title: 'DB down on prod-1', urgency: 'high' });
  await time('$regex db with i, and $in (a typical rule)', 5000, () => matchQuery({ 'alert.title': { $regex: 'db', $options: 'i' }, 'alert.urgency': { $in: ['high', 'critical'] } }, typical, now));

  const ast = compile(ZABBIX);
  await time('wrapper key: Zabbix recipe, the library’s interpreter', 5000, () => TreeInterpreter.search(ast, zabbixPayload as JSONValue));
  await time('wrapper key: Zabbix recipe, within the budget', 5000, () => searchWithinBudget(zabbixPayload as JSONValue, ast));
  await time('wrapper key: Zabbix recipe as the worker reads it (parse + budget)', 5000, () => unwrapPayload(zabbixPayload, ZABBIX));
  const refused = (expression: string, data: unknown) => () => {
    try {
      searchWithinBudget(data as JSONValue, compile(expression));
    } catch {
      return;
    }
    throw new Error(`${expression} stayed within its budget`);
  };
  await time('wrapper key: replace count 10,000,000, refused', 200, refused("replace(title, 'a', 'b', `10000000`)", { title: 'abc' }));
  await time('wrapper key: 22 doubling projections, refused at 1,000,000 steps', 20, refused(Array(22).fill('[@,@][]').join(' | '), { a: 1 }));
  await time('wrapper key: trim_right of 200,000 spaces and x', 50, () => searchWithinBudget({ s: `x${' '.repeat(200_000)}` }, compile('trim_right(s)')));
  // Moved here from the unit tests, which now check the work these are allowed, not their time (docs/testing.md).
  await time('wrapper key: replace count from the payload (12 tripling replacements), refused', 50, refused("replace(title, 'a', '$`$`a', n)", { title: 'xa', n: 200_000 }));
  await time('wrapper key: trim_right of 200,000 spaces, x and 50,000 spaces', 50, () => searchWithinBudget({ s: `${' '.repeat(200_000)}x${' '.repeat(50_000)}` }, compile('trim_right(s)')));
  const costly = Array(22).fill('[@,@][]').join(' | ');
  await time('webhook: plain-path reading of 22 doubling projections (not evaluated)', 2000, () => plainPathFields({ data: {} }, costly));
  await time('$options of 60,001 characters, refused', 200, () => regexFlagsProblem(`${'i'.repeat(60_000)}x`));

  const tags = Array.from({ length: 50 }, (_, i) => `t${i}`);
  const data = { alert: { title: 'db down', tag_list: tags }, log: { data: {} } };
  await time('template: PROD {{alert.title}}', 5000, () => renderTemplate('PROD {{alert.title}}', data));
  const nested = '{{#each alert.tag_list}}{{#each ../alert.tag_list}}{{#each ../../alert.tag_list}}x{{/each}}{{/each}}{{/each}}';
  await time('template: three nested #each over 50 tags, stopped at 10,000 bodies', 100, () => renderTemplate(nested, data));
  const four = '{{#each alert.tag_list}}{{#each ../alert.tag_list}}{{#each ../../alert.tag_list}}{{#each ../../../alert.tag_list}}x{{/each}}{{/each}}{{/each}}{{/each}}';
  await time('template: four nested #each over 50 tags, stopped at 10,000 bodies', 100, () => renderTemplate(four, data));

  const year = [Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)] as const;
  await time('window_events engine: a year over 100 hourly events, refused', 20, () => occurrencesInWindowAtMost(hourly(100), year[0], year[1], MAX_WINDOW_ENTRIES));
  await time('window_events engine: a year over 1,000 hourly events, refused', 20, () => occurrencesInWindowAtMost(hourly(1_000), year[0], year[1], 20_000));
  await time('window_events engine: first page (5,000) of a year over 100 hourly events', 20, () => occurrencesPage(hourly(100), year[0], year[1], year[0], 5_000));

  console.log('\n| measurement | runs | median ms | p99 ms |\n|---|---:|---:|---:|');
  for (const { name, timing } of rows) console.log(`| ${name} | ${timing.runs} | ${timing.median.toFixed(3)} | ${timing.p99.toFixed(3)} |`);
  console.log('\nThe backtracking RegExp on the same pattern, for scale (title of n a’s and !):');
  for (const n of [16, 20, 22, 24]) console.log(`  n = ${n}: ${backtrackingMs(n).toFixed(1)} ms`);
  console.log(`Peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
});
