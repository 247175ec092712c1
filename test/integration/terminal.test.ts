// What `npm start` prints while it runs: one line per event that matters (lib/local/terminal.ts). A webhook becomes
// an alert, layer 1 is paged by email (a real SMTP server) and by push (not configured: the local inbox), and the person acknowledges
// from the email's link: each step is a line naming the alert's prefix id and title. Started again with
// HARK_LOG_LEVEL=warn on the same data, only problems are printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.ts';
import { killAll, startNpm, type Started } from './npm-start.ts';

const dataDirs: string[] = [];
let inbox: SmtpInbox | undefined;

afterAll(async () => {
  killAll();
  await inbox?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the output once `pattern` is in it; fails with the output after `ms`. */
async function printed(started: Started, pattern: RegExp, ms = 30_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = pattern.exec(started.output());
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`npm start never printed ${pattern}:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(started: Started): Promise<void> {
  const exited = new Promise((r) => started.child.once('exit', r));
  started.child.kill('SIGINT');
  await exited;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('npm start tells what happens', { timeout: 300_000 }, () => {
  it('a webhook, its alert, the pages and the acknowledgement each print a line; HARK_LOG_LEVEL=warn keeps only problems', async () => {
    inbox = await startSmtpInbox();
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-terminal-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Links in the email lead back to this npm start (not to the test stack whose settings the worker inherited).
    const env = { HARK_SMTP_URL: inbox.url, HARK_PUBLIC_URL: base, HARK_LINK_SECRET: 'terminal-test-link-secret-0123456789abcdef' };
    const first = await startNpm(dataDir, port, env);
    // The notice follows the key line that startNpm waits for.
    await printed(first, /Events: one line each, below \(HARK_LOG_LEVEL=info;/);

    const admin = (await first.api('GET', '/account_users?roles.admin=true&sort=created_at&direction=asc&limit=1')).body.data[0];
    const team = (await first.api('POST', '/teams', { name: 'Payments', admin_account_user_ids: [admin.id] })).body;
    const event = await first.api('POST', '/events', {
      schedule_ids: [team.schedule_id],
      layer: 1,
      time_zone: 'UTC',
      start_time: '2025-01-01 00:00',
      end_time: '2025-01-02 00:00',
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      account_user_ids: [admin.id],
    });
    expect(event.status).toBe(201);
    const integration = (await first.api('POST', '/integrations', { name: 'Grafana', team_ids: [team.id] })).body;

    const reply = await fetch(`${base}/integration/${integration.prefix_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'create', Id: 'disk-42', Title: 'Disk full' }),
    });
    expect(reply.status).toBe(200);
    const { log_id: logId } = (await reply.json()) as { log_id: string };
    const line = await printed(first, new RegExp(`^\\d\\d:\\d\\d:\\d\\d webhook from Grafana \\(${logId}\\): Created alert (alt_\\w+) \\(open\\) — "Disk full"$`, 'm'));
    const alert = escape(`${line[1]!} "Disk full"`);
    await printed(first, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${alert} created by integration Grafana \\(high, open\\)$`, 'm'));
    await printed(first, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${alert}: paging layer 1 of team Payments: Admin$`, 'm'));
    await printed(first, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${alert}: page to Admin by email sent \\(smtp\\)$`, 'm'));
    // No push provider: npm start delivers it to the console's local inbox (docs/console.md).
    await printed(first, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${alert}: page to Admin by push sent \\(local\\)$`, 'm'));

    // The page names the team, not its id; its acknowledge link acts, and the line says it came from email.
    const mail = await inbox.waitFor('admin@hark.local');
    expect(mail.text).toContain('You are paged on layer 1 of team Payments (pass 1).');
    const link = new RegExp(`${escape(base)}/actions/[\\w.-]+`).exec(mail.text ?? '')!;
    const acknowledged = await fetch(link[0], { method: 'POST' });
    expect(acknowledged.status).toBe(200);
    await printed(first, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${alert} acknowledged by Admin via email$`, 'm'));
    await stop(first);

    // Quieter: the same kinds of events print nothing; a dropped alert (nobody on call) is a warning and prints.
    const second = await startNpm(dataDir, port, { ...env, HARK_LOG_LEVEL: 'warn' });
    await printed(second, /Events: one line each, below \(HARK_LOG_LEVEL=warn\)\./);
    const before = second.output().length;
    const quietReply = await fetch(`${base}/integration/${integration.prefix_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event_type: 'create', Id: 'cpu-7', Title: 'CPU hot' }),
    });
    expect(quietReply.status).toBe(200);
    // Applied, and its push page decided (the local inbox: no provider), so every line it would print is past.
    for (let i = 0; ; i++) {
      const [quiet] = (await second.api('GET', '/alerts?thirdparty_id=cpu-7')).body.data;
      const records = quiet ? (await second.api('GET', `/alerts/${quiet.id}/notifications`)).body.data : [];
      if (records.some((r: { channel: string; status: string }) => r.channel === 'push' && r.status === 'sent')) break;
      if (i > 300) throw new Error(`the quiet alert was never paged:\n${second.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const empty = (await second.api('POST', '/teams', { name: 'Nobody on call' })).body;
    const dropped = await second.api('POST', '/alerts', { title: 'Queue stuck', urgency: 'low', destination_team_ids: [empty.id] });
    expect(dropped.body.status).toBe('dropped');
    await printed(second, new RegExp(`^\\d\\d:\\d\\d:\\d\\d WARN ${escape(dropped.body.prefix_id)} "Queue stuck" dropped, nobody is paged: team Nobody on call: nobody is on call`, 'm'));
    const printedSince = second.output().slice(before);
    expect(printedSince).not.toContain('CPU hot');
    expect(printedSince).not.toMatch(/webhook from|created by|paging layer/);
    await stop(second);
  });
});
