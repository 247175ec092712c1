// Schedule engine benchmark: one year window and onCallAt over a 50-event schedule, engine alone (no I/O).
// Run: node bench/schedule-engine.ts  (Node 24; `npx node` if the system node is older)
import {
  occurrencesBetween,
  occurrencesInWindow,
  onCallAt,
  planOverride,
  type EventPlan,
  type FrequencyUnit,
  type ScheduleEvent,
} from '#lib/schedule-engine/index.ts';
import { percentile } from './timing.ts';

export const BENCH_YEAR_FROM_MS = Date.UTC(2026, 0, 1);
export const BENCH_YEAR_TO_MS = Date.UTC(2027, 0, 1);

const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata'];
const PEOPLE = ['usr_a', 'usr_b', 'usr_c', 'usr_d', 'usr_e', 'usr_f', 'usr_g', 'usr_h'];

interface Shape {
  unit: FrequencyUnit;
  frequency: number;
  hours: number;
  daysOfWeek?: number[];
}

// Ten shapes, five of each: sub-daily handoffs, daily, weekly with and without days, monthly, yearly.
const SHAPES: Shape[] = [
  { unit: 'hourly', frequency: 12, hours: 12 },
  { unit: 'hourly', frequency: 8, hours: 8, daysOfWeek: [1, 2, 3, 4, 5] },
  { unit: 'daily', frequency: 1, hours: 24 },
  { unit: 'daily', frequency: 1, hours: 9, daysOfWeek: [1, 2, 3, 4, 5] },
  { unit: 'daily', frequency: 2, hours: 16 },
  { unit: 'weekly', frequency: 1, hours: 168 },
  { unit: 'weekly', frequency: 2, hours: 12, daysOfWeek: [0, 3, 6] },
  { unit: 'weekly', frequency: 1, hours: 10, daysOfWeek: [1, 2, 3, 4, 5] },
  { unit: 'monthly', frequency: 1, hours: 72 },
  { unit: 'yearly', frequency: 1, hours: 48 },
];

/** Deterministic pseudo-random numbers (mulberry32), so every run builds the same schedule. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const wallClock = (ms: number) => new Date(ms).toISOString().slice(0, 19);

function baseEvent(i: number, rnd: () => number): ScheduleEvent {
  const shape = SHAPES[i % SHAPES.length] as Shape;
  const startF = Date.UTC(2025, Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28), Math.floor(rnd() * 24), rnd() < 0.5 ? 0 : 30);
  return {
    id: `evt_${pad(i)}`,
    layer: 1 + (i % 3),
    timeZone: ZONES[i % ZONES.length] as string,
    start: wallClock(startF),
    end: wallClock(startF + shape.hours * 3_600_000),
    repeat: true,
    frequency: shape.frequency,
    frequencyUnit: shape.unit,
    ...(shape.daysOfWeek ? { daysOfWeek: shape.daysOfWeek } : {}),
    rotation: i % 5 !== 4,
    attendees: PEOPLE,
    exceptions: [],
    scheduleIds: ['sch_bench'],
  };
}

/** Three exceptions on occurrences inside the bench year. */
function withExceptions(event: ScheduleEvent, rnd: () => number): ScheduleEvent {
  const inYear = occurrencesBetween(event, BENCH_YEAR_FROM_MS, BENCH_YEAR_TO_MS);
  const picks = [0, 1, 2].map(() => inYear[Math.floor(rnd() * inYear.length)]).filter((o) => o !== undefined);
  return { ...event, exceptions: [...new Set(picks.map((o) => new Date(o.startMs).toISOString()))] };
}

function apply(events: ScheduleEvent[], original: ScheduleEvent, plan: EventPlan, idPrefix: string): ScheduleEvent[] {
  const kept = events.filter((e) => e.id !== original.id || !plan.deleteOriginal).map((e) => (e.id === original.id && plan.updateOriginal ? plan.updateOriginal : e));
  return [...kept, ...plan.create.map((draft, k) => ({ ...draft, id: `${idPrefix}_${k}` }))];
}

/**
 * The benchmark schedule: 50 repeating events over six zones (three with DST, one with a 30-minute shift),
 * three layers, rotations of 8 people, three exceptions each, then 10 overrides made with planOverride
 * (each adds an exception, remainder pieces and the override). Deterministic.
 */
export function buildBenchSchedule(): ScheduleEvent[] {
  const rnd = random(20260101);
  let events = Array.from({ length: 50 }, (_, i) => withExceptions(baseEvent(i, rnd), rnd));
  for (let k = 0; k < 10; k++) {
    const original = events[k * 5] as ScheduleEvent;
    const inYear = occurrencesBetween(original, BENCH_YEAR_FROM_MS, BENCH_YEAR_TO_MS);
    const target = inYear[Math.floor(rnd() * inYear.length)];
    if (!target) continue;
    const quarter = Math.max(60_000, Math.floor((target.endMs - target.startMs) / 4 / 60_000) * 60_000);
    const plan = planOverride(original, target.startMs, {
      start: new Date(target.startMs + quarter).toISOString().slice(0, 16).replace('T', ' '),
      end: new Date(target.startMs + 3 * quarter).toISOString().slice(0, 16).replace('T', ' '),
      layer: original.layer,
      timeZone: 'Etc/UTC',
      attendees: ['usr_override'],
    });
    events = apply(events, original, plan, `evt_ovr${k}`);
  }
  return events;
}

function measure(runs: number, prepare: () => ScheduleEvent[], work: (events: ScheduleEvent[], run: number) => unknown) {
  const times: number[] = [];
  let sink = 0;
  for (let run = 0; run < runs; run++) {
    const events = prepare();
    const t0 = performance.now();
    const result = work(events, run);
    times.push(performance.now() - t0);
    sink += Array.isArray(result) ? result.length : 0;
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99), sink };
}

function main(): void {
  const schedule = buildBenchSchedule();
  const fresh = () => structuredClone(schedule); // as if read from the database for each request
  const same = () => schedule;
  const yearMs = BENCH_YEAR_TO_MS - BENCH_YEAR_FROM_MS;
  const at = (run: number) => BENCH_YEAR_FROM_MS + ((run * 7_919_993_123) % yearMs);

  const t0 = performance.now();
  const firstYear = occurrencesInWindow(fresh(), BENCH_YEAR_FROM_MS, BENCH_YEAR_TO_MS);
  const coldMs = performance.now() - t0;

  const rows = [
    ['window, 1 year (fresh events)', measure(200, fresh, (e) => occurrencesInWindow(e, BENCH_YEAR_FROM_MS, BENCH_YEAR_TO_MS))],
    ['window, 1 year (same events)', measure(200, same, (e) => occurrencesInWindow(e, BENCH_YEAR_FROM_MS, BENCH_YEAR_TO_MS))],
    ['window, 1 week (fresh events)', measure(2_000, fresh, (e, r) => occurrencesInWindow(e, at(r), at(r) + 7 * 86_400_000))],
    ['onCallAt (fresh events)', measure(5_000, fresh, (e, r) => onCallAt(e, at(r)))],
    ['onCallAt (same events)', measure(20_000, same, (e, r) => onCallAt(e, at(r)))],
  ] as const;

  console.log(`schedule: ${schedule.length} events (50 repeating + override pieces); 1-year window: ${firstYear.length} entries`);
  console.log(`first 1-year window in this process (zone tables cold): ${coldMs.toFixed(1)} ms`);
  console.log('| measurement | runs | median ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  const runsOf = [200, 200, 2_000, 5_000, 20_000];
  rows.forEach(([name, r], i) => console.log(`| ${name} | ${runsOf[i]} | ${r.median.toFixed(3)} | ${r.p99.toFixed(3)} |`));
  console.log(`peak memory of this process (max RSS): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

if (import.meta.main) main();
