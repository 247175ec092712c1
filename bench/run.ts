// `npm run bench`: every benchmark, one after the other so they do not compete for the two cores.
import { spawnSync } from 'node:child_process';

const BENCHES = ['bench/schedule-engine.ts', 'bench/oncall-gateway.ts', 'bench/hot-paths.ts', 'bench/timers.ts', 'bench/alerts.ts', 'bench/ingest.ts', 'bench/storms.ts', 'bench/webhooks.ts', 'bench/expressions.ts', 'bench/readers.ts', 'bench/console.ts', 'bench/console-lists.ts'];

// `npm run bench -- hot-paths` runs only the benchmarks whose file name contains one of the words given.
const wanted = process.argv.slice(2);
const selected = wanted.length > 0 ? BENCHES.filter((file) => wanted.some((word) => file.includes(word))) : BENCHES;

let failed = false;
for (const file of selected) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, [file], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${file} failed with exit code ${result.status}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
