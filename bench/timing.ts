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

/** Runs `op` `runs` times from `concurrency` loops at once (after `warmup` serial calls), timing each call. */
export async function measure(runs: number, concurrency: number, warmup: number, op: (run: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await op(i);
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs) {
        const run = next++;
        const start = performance.now();
        await op(run);
        times.push(performance.now() - start);
      }
    }),
  );
  const wall = performance.now() - t0;
  times.sort((a, b) => a - b);
  return { runs, concurrency, median: percentile(times, 0.5), p99: percentile(times, 0.99), rate: (runs / wall) * 1000 };
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
  for (const side of sides) for (let i = 0; i < warmup; i++) await side.op(i);
  for (let round = 0; round < rounds; round++) {
    for (const side of sides) {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < runsPerRound) {
            const run = round * runsPerRound + next++;
            const start = performance.now();
            await side.op(run);
            side.times.push(performance.now() - start);
          }
        }),
      );
      side.wall += performance.now() - t0;
    }
  }
  const [timedA, timedB] = sides.map(({ times, wall }) => {
    times.sort((x, y) => x - y);
    return { runs: times.length, concurrency, median: percentile(times, 0.5), p99: percentile(times, 0.99), rate: (times.length / wall) * 1000 };
  });
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
