// Email integrations through the local SMTP listener (HARK_SMTP_INBOUND_PORT), mail sent with nodemailer as a
// monitor's mailer would: the subject is the title and the text the description; a reply in the thread and the same
// subject while active are duplicates; resolve_subject_regex resolves; unknown and disabled integrations are refused
// at RCPT with 5xx; a mail that cannot be read is refused for good (554) and kept as one refused log a minute.
// docs/monitors.md, "Email".
import nodemailer from 'nodemailer';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { acceptInboundEmail } from '#lib/ingest/email/intake.ts';
import { addAccountUser, alertsWithThirdpartyId, newAccount, pollUntil, useTestStack, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let hook: { id: string; prefix_id: string; email_address: string };
const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: inject('smtpPort'), secure: false, ignoreTLS: true });
const mail = (to: string, fields: Record<string, unknown>) => transport().sendMail({ from: 'Nagios <nagios@monitor.example.com>', to, ...fields });

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Email');
  const bob = await addAccountUser(acme);
  const reply = await acme.api('POST', '/integrations', {
    name: 'Mail monitor',
    integration_type_id: 'email',
    account_user_ids: [bob.id],
    options: { resolve_subject_regex: '^(RESOLVED|OK)\\b' },
  });
  expect(reply.status, reply.text).toBe(201);
  hook = reply.body;
});

describe('email integrations', () => {
  it('shows its address and refuses a regex RE2 cannot run, naming the option', async () => {
    expect(hook.email_address).toBe(`${hook.prefix_id}@${inject('inboundEmailDomain')}`);
    const refused = await acme.api('POST', '/integrations', { name: 'x', integration_type_id: 'email', account_user_ids: [acme.adminAccountUserId], options: { resolve_subject_regex: '(a)\\1' } });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('resolve_subject_regex');
  });

  it('creates an alert from subject and text; a reply in the thread and the same subject are duplicates; the resolve subject resolves', async () => {
    const sent = await mail(hook.email_address, { subject: 'Disk full on db-1', text: 'Only 2 % left on /var\nCheck the backups.' });
    const [alert] = await alertsWithThirdpartyId(acme, 'subject:disk full on db-1');
    expect(alert).toMatchObject({ title: 'Disk full on db-1', description: 'Only 2 % left on /var\nCheck the backups.', status: 'open' });

    await mail(hook.email_address, { subject: 'Re: Disk full on db-1', text: 'Looking.', inReplyTo: sent.messageId, references: [sent.messageId] });
    await mail(hook.email_address, { subject: 'Disk full on db-1', text: 'Still full.' });
    await alertsWithThirdpartyId(acme, 'subject:disk full on db-1', (alerts) => alerts.length === 1 && alerts[0].dedup_count === 2);

    await mail(hook.email_address, { subject: 'RESOLVED: Disk full on db-1', text: 'Space freed.' });
    await alertsWithThirdpartyId(acme, 'subject:disk full on db-1', (alerts) => alerts.length === 1 && alerts[0].status === 'resolved');
    const logs = (await acme.api('GET', `/logs?owner_id=${hook.id}&limit=10`)).body.data as any[];
    expect(logs[0].details.headers.from).toContain('nagios@monitor.example.com');
    expect(logs[0].details.method).toBe('SMTP');
  });

  it('refuses mail for an unknown or disabled integration at RCPT with 550', async () => {
    const domain = inject('inboundEmailDomain');
    await expect(mail(`int_Unknown0000000@${domain}`, { subject: 'x', text: 'y' })).rejects.toMatchObject({ responseCode: 550 });
    await expect(mail(`${hook.prefix_id}@other.example.com`, { subject: 'x', text: 'y' })).rejects.toMatchObject({ responseCode: 550 });
    const off = await acme.api('POST', '/integrations', { name: 'Off', integration_type_id: 'email', enabled: false, account_user_ids: [acme.adminAccountUserId] });
    expect(off.status).toBe(201);
    await expect(mail(off.body.email_address, { subject: 'x', text: 'y' })).rejects.toMatchObject({ responseCode: 550 });
    const webhook = await acme.api('POST', '/integrations', { name: 'Hook', account_user_ids: [acme.adminAccountUserId] });
    await expect(mail(`${webhook.body.prefix_id}@${domain}`, { subject: 'x', text: 'y' })).rejects.toMatchObject({ responseCode: 550 });
  });
});

/** A mail of more MIME parts than the parser takes (1,000). */
const poisonMail = (to: string) =>
  [
    'From: nagios@monitor.example.com',
    `To: ${to}`,
    'Subject: Too many parts',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    ...Array.from({ length: 1_100 }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}`),
    '--b--',
    '',
  ].join('\r\n');

/** Waits out the end of a minute, so a test's refusals fall in one window. */
async function sameMinute(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe('mail that cannot be read', () => {
  it('is refused for good with 554 over SMTP, and the integration logs one refused request a minute with its count', async () => {
    const refused = await acme.api('POST', '/integrations', { name: 'Poisoned', integration_type_id: 'email', account_user_ids: [acme.adminAccountUserId] });
    const address = refused.body.email_address as string;
    await sameMinute();
    for (let i = 0; i < 3; i++) {
      await expect(transport().sendMail({ envelope: { from: 'nagios@monitor.example.com', to: address }, raw: poisonMail(address) })).rejects.toMatchObject({ responseCode: 554 });
    }
    const logs = (await acme.api('GET', `/logs?owner_id=${refused.body.id}&limit=10`)).body.data as any[];
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 'warn', details: { method: 'SMTP', url: `mailto:${address}`, refused: { reason: 'unreadable_mail', count: 3 } } });
    expect(logs[0].details.sublogs[0].message).toMatch(/^Refused: The message cannot be read: Max allowed child nodes exceeded/);
    expect((await acme.api('GET', `/alerts?limit=5`)).body.data.filter((a: any) => a.title === 'Too many parts')).toEqual([]);
  });

  it('on AWS (the SES path) is not thrown for a retry: a burst is one stored log counting them all', async () => {
    const refused = await acme.api('POST', '/integrations', { name: 'Poisoned SES', integration_type_id: 'email', account_user_ids: [acme.adminAccountUserId] });
    const address = refused.body.email_address as string;
    await sameMinute();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => acceptInboundEmail({ raw: Buffer.from(poisonMail(address)), recipient: address, via: 'SES', deliveryId: `poison-${i}`, envelopeFrom: 'nagios@monitor.example.com' })),
    );
    expect(outcomes.every((o) => !o.ok && o.code === 554)).toBe(true);
    const logs = await pollUntil(async () => {
      const data = (await acme.api('GET', `/logs?owner_id=${refused.body.id}&limit=10`)).body.data as any[];
      return data.length > 0 ? data : undefined;
    });
    expect(logs).toHaveLength(1);
    expect(logs[0].details).toMatchObject({ method: 'SES', headers: { 'envelope-from': 'nagios@monitor.example.com' }, refused: { reason: 'unreadable_mail', count: 6 } });
    expect((await acme.api('GET', `/logs?owner_id=${refused.body.id}&limit=10`)).body.total_count).toBe(1);
  });
});
