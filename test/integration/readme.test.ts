// The README's promise: every ```sh example runs as written, in order, against a fresh `npm start`
// (blocks fenced as ```bash are the ones a user runs by hand: npm start itself, npm test, cdk deploy).
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

/** The bodies of the README's ```sh blocks, in order. */
function shellExamples(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

const apiKey = 'hark_readme-example-key-0123456789abcdef';
let dataDir: string;
let port: number;
let child: ChildProcess | undefined;
/** What a user's shell has: the repository's Node first (as `npm` scripts have), and the settings npm start was given. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hark-readme-'));
  port = await freePort();
  const settings = { HARK_DATA_DIR: dataDir, PORT: String(port), HARK_API_KEY: apiKey };
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HARK_')));
  env = { ...inherited, PATH: `${dirname(process.execPath)}:${resolve('node_modules/.bin')}:${process.env.PATH}`, ...settings };
  const started = spawn(process.execPath, ['lib/local/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  let output = '';
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

describe('README', () => {
  it('runs every shell example as written, in order, on a fresh start', { timeout: 300_000 }, async () => {
    const examples = shellExamples(readme);
    expect(examples.length).toBeGreaterThanOrEqual(6);
    const script = [
      'set -euo pipefail',
      ...examples,
      // What the examples promise beyond succeeding: someone is on call now.
      'echo "current_oncall: $(api $HARK/schedules/$SCHEDULE_ID/current_oncall)"',
    ].join('\n');
    const result = await run('bash', ['-c', script], { env, cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 }).then(
      (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stderr).not.toMatch(/^curl: /m);
    expect(result.stdout).toMatch(/^HTTP 200$/m);
    const oncall = JSON.parse(/^current_oncall: (.*)$/m.exec(result.stdout)![1]!) as unknown[];
    expect(oncall.length).toBeGreaterThan(0);
  });

  it('lists every configuration variable in its table', () => {
    for (const name of VARIABLE_NAMES) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });

  it('keeps its order: the two commands, the API examples, configuration, operator commands, deploying', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Two commands', 'Using the API', 'Configuration', 'Operator commands', 'Deploying to AWS', 'Documentation']);
  });
});
