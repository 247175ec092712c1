// Email integrations through the local SMTP listener (HARK_SMTP_INBOUND_PORT), mail sent with nodemailer as a
// monitor's mailer would: the subject is the title and the text the description; a reply in the thread and the same
// subject while active are duplicates; resolve_subject_regex resolves; unknown and disabled integrations are refused
// at RCPT with 5xx. docs/monitors.md, "Email".
import nodemailer from 'nodemailer';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { addAccountUser, alertsWithThirdpartyId, newAccount, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let hook: { id: string; prefix_id: string; email_address: string };
const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: inject('smtpPort'), secure: false, ignoreTLS: true });
const mail = (to: string, fields: Record<string, unknown>) => transport().sendMail({ from: 'Nagios <nagios@monitor.example.com>', to, ...fields });

beforeAll(async () => {
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
