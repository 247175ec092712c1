// The deployed code carries requests (docs/architecture.md, "Bundle mode"): the app synthesized once as `npm run synth`
// does (esbuild bundles in a cdk.out of its own, with inbound mail on), then a local stack serving every route, queue,
// schedule and mail from those bundles, each function in its own thread with the template's environment. A smoke
// subset of the integration tests: a team, a webhook alert, its page by email, an acknowledgement from the page's
// link, an email integration's mail through SES's stand-in and S3, a console sign-in.
// The synth's output goes to a temporary folder with no node_modules above it: the bundles find the AWS SDK only as
// the Lambda runtime provides it (lib/local/runtime-modules.ts), and any other package they import is missing.
// Outside the default suite: its synth (esbuild for every function, cdk-nag) and cold starts take minutes, so
// HARK_BUNDLE_SMOKE=1 runs it (docs/testing.md, "The bundles' smoke test").
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type RunningStack } from '#lib/local/stack.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.ts';
import { ConsoleClient } from './console-client.ts';
import { newAccount, request, type TestAccount } from './helpers.ts';

const run = promisify(execFile);
const DOMAIN = 'inbound.bundles.test';
let outdir: string;
let inbox: SmtpInbox;
let stack: RunningStack;
let account: TestAccount;
let adminEmail: string;
let publicUrlBefore: string | undefined;

const enabled = process.env.HARK_BUNDLE_SMOKE === '1';

beforeAll(async () => {
  if (!enabled) return;
  outdir = mkdtempSync(join(tmpdir(), 'hark-bundles-'));
  // The CDK app as `npm run synth` runs it (cdk-nag included), with inbound mail so the email function is bundled too.
  await run(join('node_modules', '.bin', 'cdk'), ['synth', '--quiet', '--output', outdir, '--context', `hark:inboundEmailDomain=${DOMAIN}`], { env: process.env });
  inbox = await startSmtpInbox();
  // Provider settings are what the provider secret holds on AWS: the functions the template gives the secret get them.
  process.env.HARK_SMTP_URL = inbox.url;
  // This process inherited the suite's stack's public URL (global-setup.ts): links must lead to this stack's gateway.
  publicUrlBefore = process.env.HARK_PUBLIC_URL;
  delete process.env.HARK_PUBLIC_URL;
  stack = await startStack({ dataDir: undefined, port: 0, tableName: 'hark-bundles-test', visibilityTimeoutSeconds: 1, smtpPort: 0, bundles: outdir });
  account = await newAccount('Bundles', stack);
  const admin = await account.api('GET', `/account_users/${account.adminAccountUserId}`);
  expect(admin.status, admin.text).toBe(200);
  const user = await account.api('GET', `/users/${admin.body.user_id}`);
  expect(user.status, user.text).toBe(200);
  adminEmail = user.body.emails[0].email;
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  await inbox?.close();
  delete process.env.HARK_SMTP_URL;
  if (publicUrlBefore !== undefined) process.env.HARK_PUBLIC_URL = publicUrlBefore;
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** The first mail to `to` whose subject matches, once it has come. */
async function mailTo(to: string, subject: RegExp): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await vi.waitFor(
    () => {
      found = inbox.mails.find((m) => (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).some((a) => a.value.some((v) => v.address === to)) && subject.test(m.subject ?? ''));
      expect(found).toBeDefined();
    },
    { timeout: 120_000, interval: 200 },
  );
  return found!;
}

/** The link on the mail's line that names `word` ("Acknowledge: <link>"; the sign-in link's own path). */
const linkIn = (mail: ParsedMail, word: string) => {
  const line = (mail.text ?? '').split('\n').find((l) => l.toLowerCase().includes(word.toLowerCase()) && /https?:\/\//.test(l));
  const link = line?.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`No ${word} link in: ${mail.text}`);
  return new URL(link);
};

// Each function's first call is a cold start in a thread of its own: seconds on a busy machine.
describe.runIf(enabled)('the bundles in cdk.out, as deployed', { timeout: 180_000 }, () => {
  it('runs every function of the template from its bundle', () => {
    expect(stack.bundledFunctions).toBeGreaterThanOrEqual(25);
  });

  it('creates a team', async () => {
    const team = await account.api('POST', '/teams', { name: 'Bundled' });
    expect(team.status, team.text).toBe(201);
    expect((await account.api('GET', `/teams/${team.body.id}`)).body.name).toBe('Bundled');
  });

  it('turns a webhook into an alert, pages by email, and acknowledges from the page link', async () => {
    const integration = await account.api('POST', '/integrations', { name: 'Bundled hook', account_user_ids: [account.adminAccountUserId] });
    expect(integration.status, integration.text).toBe(201);
    const accepted = await request('POST', `/integration/${integration.body.id}`, { base: stack.baseUrl, body: { event_type: 'create', Id: 'bundle-1', Title: 'Disk full on bundle-1' } });
    expect(accepted.status, accepted.text).toBe(200);
    let alert: any;
    await vi.waitFor(
      async () => {
        alert = (await account.api('GET', '/alerts?limit=10')).body.data.find((a: any) => a.title === 'Disk full on bundle-1');
        expect(alert).toBeDefined();
      },
      { timeout: 120_000, interval: 200 },
    );
    const page = await mailTo(adminEmail, /Disk full on bundle-1/);
    const link = linkIn(page, 'acknowledge');
    expect(link.origin).toBe(stack.baseUrl);
    const done = await request('POST', `${link.pathname}${link.search}`, { base: stack.baseUrl, rawBody: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status, done.text).toBe(200);
    expect((await account.api('GET', `/alerts/${alert.id}`)).body.status).toBe('acknowledged');
  });

  it("takes an email integration's mail through SES's stand-in: stored in S3, read by the email function", async () => {
    const hook = await account.api('POST', '/integrations', { name: 'Mail monitor', integration_type_id: 'email', account_user_ids: [account.adminAccountUserId] });
    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.email_address).toBe(`${hook.body.prefix_id}@${DOMAIN}`);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort!, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'Nagios <nagios@monitor.example.com>', to: hook.body.email_address, subject: 'Load high on bundle-2', text: 'Load 42.' });
    await vi.waitFor(
      async () => {
        const alerts = (await account.api('GET', '/alerts?limit=20')).body.data as any[];
        expect(alerts.find((a) => a.title === 'Load high on bundle-2')).toMatchObject({ description: 'Load 42.' });
      },
      { timeout: 120_000, interval: 200 },
    );
    const logs = (await account.api('GET', `/logs?owner_id=${hook.body.id}&limit=10`)).body.data as any[];
    expect(logs[0].details.method).toBe('SES');
  });

  it('signs in to the console by a mailed link', async () => {
    const client = new ConsoleClient(stack.baseUrl);
    expect((await client.post('/sign-in', { email: adminEmail })).status).toBe(200);
    const link = linkIn(await mailTo(adminEmail, /sign-in link/i), '/sign-in/');
    const signedIn = await client.post(link.pathname);
    expect(signedIn.status, signedIn.text).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^hark_session=/);
    expect((await client.get('/alerts')).status).toBe(200);
  });
});
