// The README's promise: every ```sh example runs as written, in order, against a fresh `npm start` on a
// non-default port (blocks fenced as ```bash are the ones a user runs by hand: npm start itself, npm test, cdk
// deploy); then the escalation demo of docs/alerts.md runs as written in a shell of its own. npm start runs with
// HARK_TIME_SCALE=60, as the demo asks.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLE_NAMES } from '#lib/config.ts';
import { freePort } from '#lib/local/ports.ts';

const run = promisify(execFile);
const readme = readFileSync('README.md', 'utf8');
const alertsDoc = readFileSync('docs/alerts.md', 'utf8');

/** The bodies of the README's ```sh blocks, in order. */
function shellExamples(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

const apiKey = 'hark_readme-example-key-0123456789abcdef';
let dataDir: string;
let port: number;
let child: ChildProcess | undefined;
/** What npm start printed so far: the start-up lines, then one line per event. */
let output = '';
/** What a user's shell has: the repository's Node first (as `npm` scripts have), and the settings npm start was given. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hark-readme-'));
  port = await freePort();
  const settings = { HARK_DATA_DIR: dataDir, PORT: String(port), HARK_API_KEY: apiKey, HARK_TIME_SCALE: '60' };
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HARK_')));
  env = { ...inherited, PATH: `${dirname(process.execPath)}:${resolve('node_modules/.bin')}:${process.env.PATH}`, ...settings };
  const started = spawn(process.execPath, ['lib/local/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  await new Promise<void>((resolveStarted, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/^Admin API key: /m.test(output)) resolveStarted();
    };
    started.stdout!.on('data', onData);
    started.stderr!.on('data', onData);
    started.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGINT');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs a script in bash with the user's environment: its exit code and output. */
const bash = (script: string) =>
  run('bash', ['-c', script], { env, cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

/** Resolves once npm start has printed a line matching `pattern`; fails with what it printed after `ms`. */
async function printed(pattern: RegExp, ms = 20_000): Promise<void> {
  for (const deadline = Date.now() + ms; !pattern.test(output); ) {
    if (Date.now() > deadline) throw new Error(`npm start never printed ${pattern}:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('README', () => {
  it('runs every shell example as written, in order, on a fresh start', { timeout: 300_000 }, async () => {
    const examples = shellExamples(readme);
    expect(examples.length).toBeGreaterThanOrEqual(6);
    const script = [
      'set -euo pipefail',
      ...examples,
      // What the examples promise beyond succeeding: someone is on call now.
      'echo "current_oncall: $(api $HARK/schedules/$SCHEDULE_ID/current_oncall)"',
      // `api` fails on an error (its body printed), and the first block still finds the admin after the examples.
      'echo "api exit: $(api $HARK/teams/tem_doesnotexist > /dev/null 2>&1; echo $?)"',
      examples[0]!,
      'echo "admin: $ADMIN_ID"',
    ].join('\n');
    const result = await bash(script);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stderr).not.toMatch(/^curl: /m);
    // The webhook's answer, and what its log says the request became.
    expect(result.stdout).toMatch(/^\{"status":"queued","log_id":"log_[A-Za-z0-9]{14}"\}$/m);
    expect(result.stdout).toMatch(/^Created alert alt_\w+ \(open\)$/m);
    const oncall = JSON.parse(/^current_oncall: (.*)$/m.exec(result.stdout)![1]!) as unknown[];
    expect(oncall.length).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/^api exit: 22$/m);
    const admin = /^Admin account user id: (\S+)$/m.exec(output)![1];
    expect(/^admin: (\S+)$/m.exec(result.stdout)![1]).toBe(admin);
    // The terminal told the webhook's story.
    await printed(/^\d\d:\d\d:\d\d webhook from Grafana \(log_\w+\): Created alert alt_\w+ \(open\) — "Disk full"$/m);
  });

  it('runs the escalation demo of docs/alerts.md as written, and the terminal tells it', { timeout: 300_000 }, async () => {
    const demo = alertsDoc.slice(alertsDoc.indexOf('## Demo: one minute of escalation'));
    const blocks = shellExamples(demo.slice(0, demo.indexOf('\n## ', 5)));
    expect(blocks).toHaveLength(1);
    const result = await bash(['set -euo pipefail', blocks[0]!].join('\n'));
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stderr).not.toMatch(/^curl: /m);
    expect(result.stdout).toMatch(/ paged: Account user \w+ is paged on layer 1 of team \w+ \(pass 1\)/);
    expect(result.stdout).toMatch(/ timeout: Layer 1 of team \w+ timed out with no acknowledgement \(pass 1\)/);
    expect(result.stdout).toMatch(/ paged: Account user \w+ is paged on layer 2 of team \w+ \(pass 1\)/);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('acknowledged');
    await printed(/"Demo": paging layer 1 of team Demo: Admin$/m);
    await printed(/"Demo": escalated to layer 2 of team Demo \(not acknowledged in time\): Admin$/m);
    await printed(/"Demo" acknowledged by Admin via the API$/m);
  });

  it('lists every configuration variable in its table', () => {
    for (const name of VARIABLE_NAMES) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });

  it('keeps its order: the two commands, the console, the API examples, configuration, operator commands, deploying', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Two commands', 'The console', 'Using the API', 'Configuration', 'Operator commands', 'Deploying to AWS', 'Documentation']);
  });
});
