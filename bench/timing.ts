// What the benchmarks share for timing: percentiles, a warmed-up concurrent measurement, the raw-vs-endpoint table,
// and the runner that exits once a bench is done (pollers started by the local stack would keep the process alive).

export interface Timing {
  runs: number;
  concurrency: number;
  median: number;
  p99: number;
  /** Completed operations per second over the whole measurement. */
  rate: number;
}

/** The value at fraction `p` of an ascending list (nearest rank, clamped to the last). */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/**
 * One timed round: `op` called `runs` times from `concurrency` loops at once, run numbers from `firstRun`, each
 * call's time pushed to `times`. Answers the round's wall time in ms.
 */
async function timedRound(op: (run: number) => Promise<unknown>, runs: number, concurrency: number, firstRun: number, times: number[]): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs) {
        const run = firstRun + next++;
        const start = performance.now();
        await op(run);
        times.push(performance.now() - start);
      }
    }),
  );
  return performance.now() - t0;
}

/** Median, p99 and rate of calls timed over `wallMs` in all. */
export function summarise(times: number[], wallMs: number, concurrency: number): Timing {
  times.sort((a, b) => a - b);
  return { runs: times.length, concurrency, median: percentile(times, 0.5), p99: percentile(times, 0.99), rate: (times.length / wallMs) * 1000 };
}

/**
 * Runs `op` `runs` times from `concurrency` loops at once (after `warmup` serial calls, numbered −1, −2, … so they
 * never reuse a measured run's number), timing each call.
 */
export async function measure(runs: number, concurrency: number, warmup: number, op: (run: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await op(-1 - i);
  const times: number[] = [];
  const wall = await timedRound(op, runs, concurrency, 0, times);
  return summarise(times, wall, concurrency);
}

/**
 * Two operations timed in alternating rounds (a, b, a, b, …) after warming both up, so a machine that speeds up
 * (the JIT) or slows down (other work) during the run affects both alike. Each side's figures are over all its
 * rounds' calls; its rate is its calls over its rounds' summed wall time.
 */
export async function measureAlternating(
  rounds: number,
  runsPerRound: number,
  concurrency: number,
  warmup: number,
  a: (run: number) => Promise<unknown>,
  b: (run: number) => Promise<unknown>,
): Promise<[Timing, Timing]> {
  const sides = [a, b].map((op) => ({ op, times: [] as number[], wall: 0 }));
  for (const side of sides) for (let i = 0; i < warmup; i++) await side.op(-1 - i);
  for (let round = 0; round < rounds; round++) {
    for (const side of sides) side.wall += await timedRound(side.op, runsPerRound, concurrency, round * runsPerRound, side.times);
  }
  const [timedA, timedB] = sides.map(({ times, wall }) => summarise(times, wall, concurrency));
  return [timedA!, timedB!];
}

/** Prints one Markdown table row per measurement pair; `endpoint` names the endpoint column ("endpoint", "accept"). */
export function printRawVsEndpoint(rows: { name: string; raw: Timing; endpoint: Timing }[], endpoint: string): void {
  console.log(`| measurement | concurrency | runs | raw median / p99 ms | ${endpoint} median / p99 ms | raw ops/s | ${endpoint} ops/s | ${endpoint} / raw rate |`);
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { name, raw, endpoint: timed } of rows) {
    console.log(
      `| ${name} | ${raw.concurrency} | ${raw.runs} | ${raw.median.toFixed(2)} / ${raw.p99.toFixed(2)} | ${timed.median.toFixed(2)} / ${timed.p99.toFixed(2)} | ` +
        `${raw.rate.toFixed(0)} | ${timed.rate.toFixed(0)} | ${(timed.rate / raw.rate).toFixed(2)} |`,
    );
  }
}

/** Runs a bench's `main` and exits: 0 when it finishes, 1 (after printing the error) when it throws. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
