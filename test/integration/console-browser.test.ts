// The console in a real browser (Debian's Chromium through playwright-core; never a browser download): sign in
// through the link mailed to a local SMTP sink, see an alert a webhook created, acknowledge it from its page with the
// keyboard, see the schedule picture, sign out. axe-core checks every page (no serious or critical violation), and
// every page fits a 375-px-wide phone without horizontal scrolling. With SCREENSHOTS_DIR set (`npm run screenshots`)
// it saves each page at phone and desktop width.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { inThreadInvoker, sourceSpec } from '#lib/local/invoker.ts';
import { startPoller, type Poller } from '#lib/local/poller.ts';
import { smtpEmailAdapter } from '#lib/channel-adapters/email.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.ts';
import { newAccount, pollUntil, request, teamWithOnCall, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.SCREENSHOTS_DIR;

let stack: OwnStack;
let smtp: SmtpInbox;
let ingest: Poller;
let account: TestAccount;
let context: BrowserContext;
let page: Page;
let userDataDir: string;
let adminEmail: string;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  stack = await startOwnStack('browser', { email: smtpEmailAdapter({ url: smtp.url, from: 'Hark <hark@localhost>' }) });
  // Links lead to this gateway (plain http: the cookie is then hark_session, without Secure).
  process.env.HARK_PUBLIC_URL = stack.baseUrl;
  // The webhook's queue and worker, for this stack's table.
  const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `browser-ingest-${process.pid}-${Date.now()}.fifo`, Attributes: { FifoQueue: 'true', VisibilityTimeout: '5' } }));
  process.env.HARK_INGEST_QUEUE_URL = queue.QueueUrl!;
  const worker = inThreadInvoker(sourceSpec('worker'));
  ingest = startPoller(queue.QueueUrl!, { name: 'worker', invoke: (event) => worker.invoke(event) });
  account = await newAccount('Browser', stack);
  const admin = (await account.api('GET', `/account_users/${account.adminAccountUserId}`)).body;
  adminEmail = (await account.api('GET', `/users/${admin.user_id}`)).body.emails[0].email;
  userDataDir = mkdtempSync(join(tmpdir(), 'hark-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, args: ARGS, headless: true, bypassCSP: true, viewport: { width: 1280, height: 900 } });
  page = context.pages()[0] ?? (await context.newPage());
}, 120_000);

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await ingest?.stop();
  await stack?.stop();
  await smtp?.close();
});

/** axe-core's serious and critical violations on the page, as `rule: targets`. */
async function seriousViolations(): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const results = (await page.evaluate(() => {
    const g = globalThis as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> }; document: unknown };
    return g.axe.run(g.document, { resultTypes: ['violations'] });
  })) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Checks the page at phone width (no horizontal scroll) and with axe; saves screenshots when asked. */
async function checkPage(name: string): Promise<void> {
  expect(await seriousViolations(), name).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(overflow, `${name} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('the console in a browser', () => {
  it('signs in by mail, shows the webhook’s alert, acknowledges it by keyboard, shows the schedule, signs out', async () => {
    const team = await teamWithOnCall(account, [[account.adminAccountUserId]], 'Payments');
    await account.api('POST', '/events', {
      start_time: new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      end_time: new Date(Date.now() + 30 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      layer: 1,
      time_zone: 'UTC',
      schedule_ids: [team.schedule_id],
      account_user_ids: [account.adminAccountUserId],
      rrule: 'FREQ=DAILY;INTERVAL=3',
    });
    const integration = (await account.api('POST', '/integrations', { name: 'Grafana', team_ids: [team.id] })).body;

    // Signing in: the form, the mailed link, its button.
    await page.goto(`${stack.baseUrl}/alerts`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await checkPage('sign-in');
    await page.getByLabel('Email address').fill(adminEmail);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();
    const mail = await smtp.waitFor(adminEmail);
    const link = /https?:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+/.exec(mail.text ?? '')![0];
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${stack.baseUrl}/alerts`);

    // A webhook creates an alert; the list shows it.
    const reply = await request('POST', `/integration/${integration.prefix_id}`, { base: stack.baseUrl, body: { Id: 'disk-1', Title: 'Disk full on <db-1>', event_type: 'create' } });
    expect(reply.status).toBe(200);
    const alert = await pollUntil(async () => (await account.api('GET', '/alerts?limit=1')).body.data?.[0], 20_000);
    await page.reload();
    await page.getByRole('link', { name: 'Disk full on <db-1>' }).waitFor();
    await checkPage('alerts');

    // Its page: acknowledge with the keyboard.
    await page.getByRole('link', { name: 'Disk full on <db-1>' }).click();
    await page.waitForURL(`${stack.baseUrl}/alerts/${alert.id}`);
    await checkPage('alert');
    let focused = '';
    for (let i = 0; i < 60 && focused !== 'Acknowledge'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { innerText?: string } | null } }).document.activeElement?.innerText ?? '');
    }
    expect(focused).toBe('Acknowledge');
    await page.keyboard.press('Enter');
    await page.getByText('Acknowledged.').waitFor();
    expect((await account.api('GET', `/alerts/${alert.id}`)).body.status).toBe('acknowledged');
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);

    // Who is on call, the schedule picture, me, integrations.
    await page.getByRole('link', { name: 'On call' }).click();
    await checkPage('on-call');
    await page.getByRole('link', { name: /^Schedule:/ }).first().click();
    await page.locator('svg').waitFor();
    expect(await page.locator('svg rect').count()).toBeGreaterThan(2);
    await checkPage('schedule');
    await page.getByRole('link', { name: 'Me' }).click();
    await checkPage('me');
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByText('Grafana').first().waitFor();
    await checkPage('integrations');

    // Signing out ends the session.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${stack.baseUrl}/sign-in`);
    await page.goto(`${stack.baseUrl}/alerts`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
  }, 120_000);
});
