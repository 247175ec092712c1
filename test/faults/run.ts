// `npm run test:faults`: each planted fault of manifest.json is applied to a throwaway copy of this checkout (never to
// the checkout itself), the one test named for it is run there, and that test must FAIL. One line per fault; the exit
// code is non-zero when any fault goes undetected or could not be tried. How and why: docs/testing.md, "Planted faults".
// `npm run test:faults -- <word>` runs only the faults whose patch name contains the word.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

interface Fault {
  /** File name under test/faults/. */
  patch: string;
  /** The test file, from the project root. */
  file: string;
  /** The test's exact name (its `it` title). */
  test: string;
  /** What the fault breaks, in a line. */
  breaks: string;
  /** Run the whole file (the test reads what earlier tests of the file did), not only the named test. */
  wholeFile?: boolean;
}

const root = join(import.meta.dirname, '..', '..');
const faults = JSON.parse(readFileSync(join(import.meta.dirname, 'manifest.json'), 'utf8')) as Fault[];
const wanted = process.argv.slice(2);
const selected = wanted.length > 0 ? faults.filter((f) => wanted.some((word) => f.patch.includes(word))) : faults;

let copy: string | undefined;
let child: ChildProcess | undefined;
const removeCopy = () => {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    removeCopy();
    process.exit(130);
  });
}
process.on('exit', removeCopy);

/** The checkout's files as they are now (committed or not, ignored ones left out), copied to a fresh folder. */
function freshCopy(): string {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const target = mkdtempSync(join(tmpdir(), 'hark-fault-'));
  copy = target;
  for (const file of new Set(listed.stdout.split('\0').filter(Boolean))) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    try {
      copyFileSync(join(root, file), join(target, file));
    } catch {
      // listed but deleted in the working tree
    }
  }
  symlinkSync(realpathSync(join(root, 'node_modules')), join(target, 'node_modules'));
  return target;
}

interface JsonReport {
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages?: string[] }[] }[];
}

/** Failures that say nothing about the fault: the machine was too slow, or the stack did not start. */
const INCONCLUSIVE = /Test timed out|Hook timed out|did not start within/;

/** Where the run of a fault's test writes its output, kept after the copy is removed (shown when not caught). */
const logOf = (fault: Fault) => join(tmpdir(), `hark-fault-${fault.patch.replace(/\.patch$/, '')}.log`);

/** Runs one test file's tests named `test` in `cwd`; the statuses of the tests that ran under that name. */
function runNamed(cwd: string, fault: Fault): Promise<string[]> {
  const project = fault.file.split('/')[1]!;
  const escaped = fault.test.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const output = join(cwd, 'fault-result.json');
  const args = ['run', '--project', project, fault.file, ...(fault.wholeFile ? [] : ['-t', escaped]), '--reporter=json', `--outputFile=${output}`];
  return new Promise((resolve) => {
    const log = openSync(logOf(fault), 'w');
    child = spawn(join(cwd, 'node_modules', '.bin', 'vitest'), args, { cwd, stdio: ['ignore', log, log], detached: true });
    child.on('exit', () => {
      child = undefined;
      try {
        const report = JSON.parse(readFileSync(output, 'utf8')) as JsonReport;
        const named = report.testResults.flatMap((r) => r.assertionResults.filter((a) => a.title === fault.test));
        appendFileSync(logOf(fault), `\n${named.map((a) => `${a.status}: ${(a.failureMessages ?? []).join('\n')}`).join('\n')}\n`);
        resolve(named.map((a) => (a.status === 'failed' && (a.failureMessages ?? []).every((m) => INCONCLUSIVE.test(m)) ? 'inconclusive' : a.status)));
      } catch {
        resolve([]);
      }
    });
  });
}

let undetected = 0;
for (const fault of selected) {
  const cwd = freshCopy();
  const applied = spawnSync('git', ['apply', join(root, 'test', 'faults', fault.patch)], { cwd, encoding: 'utf8' });
  let verdict: string;
  if (applied.status !== 0) verdict = `NOT APPLIED (${applied.stderr.trim().split('\n')[0]})`;
  else {
    const statuses = await runNamed(cwd, fault);
    if (statuses.length === 0) verdict = 'NOT RUN (the named test was not found or the file did not load)';
    else if (statuses.includes('failed')) verdict = 'caught';
    else if (statuses.includes('inconclusive')) verdict = 'INCONCLUSIVE (it failed only by timing out, or the stack did not start: run it again)';
    else if (statuses.every((status) => status === 'passed')) verdict = 'MISSED (the test passed with the fault in place)';
    else verdict = `NOT RUN (the named test was ${statuses.join(', ')}: a hook before it failed)`;
  }
  removeCopy();
  if (verdict !== 'caught') undetected++;
  console.log(`${verdict === 'caught' ? 'caught' : 'FAIL  '}  ${fault.patch}: ${fault.file} › ${fault.test}${verdict === 'caught' ? '' : ` — ${verdict}; output: ${logOf(fault)}`}`);
}
console.log(`${selected.length - undetected} of ${selected.length} planted faults caught`);
process.exitCode = undetected > 0 ? 1 : 0;
