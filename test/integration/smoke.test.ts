// `npm run admin -- smoke` (docs/deploy.md, "Check it pages") against a stack of this file's own that publishes push
// to a local ntfy server: the check pages its canary, reads the page from the canary's topic, acknowledges through the
// page's signed link, resolves, and deletes what it made. With the ingest worker paused it fails at "alert created".
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logger } from '#lib/logger.ts';
import { startNtfyServer, type NtfyServer } from '../support/ntfy-server.ts';
import { addAccountUser, newAccount, request, type TestAccount } from './helpers.ts';
import { startSmokeStack, type SmokeStack } from './smoke-stack.ts';

let ntfy: NtfyServer;
let stack: SmokeStack;
let account: TestAccount;

/** The CLI as an operator runs it; the environment holds no HARK_URL or HARK_API_KEY unless given. */
function smoke(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['HARK_URL', 'HARK_API_KEY', 'HARK_DATA_DIR'].includes(name)));
  return new Promise((resolve) => {
    execFile(process.execPath, ['lib/admin/cli.ts', 'smoke', ...args], { env: { ...clean, HARK_DATA_DIR: '/nonexistent-hark-data', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  logger.pinLogLevel('WARN');
  ntfy = await startNtfyServer();
  stack = await startSmokeStack('smoke', ntfy.url);
  account = await newAccount('Smoke', stack);
});

afterAll(async () => {
  await stack?.stop();
  await ntfy?.close();
});

const api = (method: string, path: string, body?: unknown) => request(method, `/api/v4${path}`, { key: account.adminKey, base: stack.baseUrl, body });

/** A busy machine: the CLI's start alone may take seconds, then each wait of a check (alert, page, resolve). */
const CHECK_MS = 180_000;

describe('npm run admin -- smoke', () => {
  it('passes against a working stack: each step with its latency, exit 0', async () => {
    const run = await smoke(['--url', stack.baseUrl, '--key', account.adminKey]);
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const step of ['canary', 'create integration', 'post webhook', 'alert created', 'page sent', 'page received', 'acknowledge link', 'resolve', 'clean up']) {
      expect(run.stdout).toMatch(new RegExp(`^ok {4}${step} +\\d+ ms  `, 'm'));
    }
    expect(run.stdout).toMatch(/^passed: the page reached the canary \d+ ms after the webhook/m);
    // The page went through ntfy to the canary's topic, with the signed links as its buttons.
    const canary = (await api('GET', '/account_users?q=Hark%20canary')).body.data[0];
    const push = (await api('GET', `/account_users/${canary.id}/push`)).body;
    const [page] = ntfy.messages(push.topic);
    expect(page!.title).toMatch(/Hark smoke check/);
    expect(page!.actions!.map((a) => a.label)).toEqual(['Acknowledge', 'Resolve']);
    expect(canary.user.notify_email).toBe(false);
  }, CHECK_MS);

  it('leaves nothing behind but the canary, which the next check pages again', async () => {
    const people = (await api('GET', '/account_users')).body.total_count;
    const run = await smoke(['--url', stack.baseUrl, '--key', account.adminKey, '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.ok).toBe(true);
    expect(result.steps.find((s: { step: string }) => s.step === 'canary').detail).not.toMatch(/made now/);
    expect((await api('GET', '/account_users')).body.total_count).toBe(people);
    expect((await api('GET', '/integrations')).body.total_count).toBe(0);
    expect((await api('GET', '/alerts')).body.total_count).toBe(0);
    // Deleting the alerts took their notification records' outbox messages: only the canary's welcome (user_credentials) is left.
    const outbox = (await api('GET', '/outbox?limit=100')).body.data;
    expect(outbox.filter((m: { template: string }) => m.template !== 'user_credentials')).toEqual([]);
  }, CHECK_MS);

  it('also pages --person, a real account user, on their own channels', async () => {
    const person = await addAccountUser(account);
    const email = (await api('GET', `/account_users/${person.id}`)).body.user.emails[0].email;
    const run = await smoke(['--url', stack.baseUrl, '--key', account.adminKey, '--person', email]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/paging the canary and person-/);
    const push = (await api('GET', `/account_users/${person.id}/push`)).body;
    expect(ntfy.messages(push.topic).map((m) => m.title)).toContainEqual(expect.stringMatching(/^\[high\] Hark smoke check/));
  }, CHECK_MS);

  it('fails at "alert created" when the ingest worker is stopped, exit 1, and still cleans up', async () => {
    await stack.ingestWorker.pause();
    try {
      const run = await smoke(['--url', stack.baseUrl, '--key', account.adminKey, '--timeout', '3']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/^FAIL {2}alert created +\d+ ms {2}no alert was created \(is the ingest worker running\?\) within 3 s$/m);
      expect(run.stdout).not.toMatch(/page sent/);
      expect(run.stdout).toMatch(/^ok {4}clean up +\d+ ms {2}deleted int_/m);
      expect(run.stdout).toMatch(/^FAILED at step "alert created"/m);
      expect((await api('GET', '/integrations')).body.total_count).toBe(0);
    } finally {
      stack.ingestWorker.resume();
    }
  }, CHECK_MS);

  it.each([
    [['--timeout', '0'], /--timeout must be a whole number of seconds from 1 to 600, got 0/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--url', 'ftp://example.com'], /--url must be an http\(s\) URL/],
    [['--url', 'http://127.0.0.1:9'], /No API key: give --key \(or HARK_API_KEY\)/],
    [[], /No deployment to check: give --url \(or HARK_URL\), or start `npm start`/],
    [['--person', 'nobody'], /--person must be an email address/],
  ])('usage error %j: exit 2 with the reason and the usage', async (args, reason) => {
    const run = await smoke(args, args.includes('--person') ? { HARK_URL: 'http://127.0.0.1:9', HARK_API_KEY: 'k'.repeat(40) } : {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).toMatch(/Usage: npm run admin -- smoke/);
  }, CHECK_MS);

  it('takes HARK_URL and HARK_API_KEY in place of the flags', async () => {
    const run = await smoke([], { HARK_URL: stack.baseUrl, HARK_API_KEY: account.adminKey });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, CHECK_MS);
});
