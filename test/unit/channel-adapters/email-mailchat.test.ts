// The email adapter against real protocols: an in-process SMTP server (what arrives, parsed), and a node:http
// stand-in for Amazon SES's v2 API that checks what SES checks (a SigV4-signed POST of the raw message).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnvironment } from '#lib/config.ts';
import { emailAdapter, sesEmailAdapter, smtpEmailAdapter } from '#lib/channel-adapters/email.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { startSmtpInbox, type SmtpInbox } from '../../support/smtp-inbox.ts';
import { ALERT_ACTIONS, outgoingMessage } from '../../support/outgoing-message.ts';

const message = (to: string, notificationId = '01JNOTIFICATION0000000001'): OutgoingMessage =>
  outgoingMessage({
    notificationId,
    to,
    text: 'Disk full on db-1 <root>\n\nUrgency: high',
    actions: ALERT_ACTIONS,
    about: { ownerType: 'alert', ownerId: '01JALERT', prefixId: 'ALR_1234567890' },
  });

describe('email over SMTP', () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox({ user: 'hark', password: 's3cret' });
  });
  afterAll(() => inbox.close());

  it('delivers text and HTML with the action links, from HARK_MAIL_FROM, with a Message-ID of the notification', async () => {
    const adapter = smtpEmailAdapter({ url: inbox.url, from: 'Hark Alerts <alerts@example.com>' });
    expect([adapter.channel, adapter.provider]).toEqual(['email', 'smtp']);
    const result = await adapter.send(message('oncall@example.com'));
    expect(result).toEqual({ status: 'sent', providerMessageId: '<01JNOTIFICATION0000000001@hark>' });
    const mail = await inbox.waitFor('oncall@example.com');
    expect(mail.subject).toBe('Alert #12: Disk full on db-1');
    expect(mail.from?.value).toEqual([{ address: 'alerts@example.com', name: 'Hark Alerts' }]);
    expect(mail.messageId).toBe('<01JNOTIFICATION0000000001@hark>');
    expect(mail.headers.get('x-hark-notification-id')).toBe('01JNOTIFICATION0000000001');
    expect(mail.text).toContain('Disk full on db-1 <root>');
    expect(mail.text).toContain('Acknowledge: https://hark.example.com/actions/ack.token');
    expect(mail.text).toContain('Resolve: https://hark.example.com/actions/res.token');
    const html = String(mail.html);
    expect(html).toContain('href="https://hark.example.com/actions/ack.token"');
    expect(html).toContain('href="https://hark.example.com/actions/res.token"');
    expect(html).toContain('Disk full on db-1 &lt;root&gt;');
  });

  it('reports a 4xx reply as a retryable failure and a 5xx reply as a permanent one', async () => {
    const adapter = smtpEmailAdapter({ url: inbox.url, from: 'alerts@example.com' });
    inbox.refuse('busy@example.com', 450);
    inbox.refuse('nobody@example.com', 550);
    // A refused recipient is that message's failure, not the server's: no provider scope (the breaker does not count it).
    const busy = await adapter.send(message('busy@example.com'));
    expect(busy).toMatchObject({ status: 'failed', retryable: true, error: expect.stringContaining('SMTP 450') });
    expect(busy).not.toHaveProperty('scope');
    const nobody = await adapter.send(message('nobody@example.com'));
    expect(nobody).toMatchObject({ status: 'failed', retryable: false, error: expect.stringContaining('SMTP 550') });
    expect(nobody).not.toHaveProperty('scope');
  });

  it('reports a refused login as permanent and an unreachable server as retryable', async () => {
    const wrongPassword = smtpEmailAdapter({ url: inbox.url.replace('s3cret', 'wrong'), from: 'alerts@example.com' });
    expect(await wrongPassword.send(message('oncall@example.com'))).toMatchObject({ status: 'failed', retryable: false, error: expect.stringContaining('535') });
    const closed = await startSmtpInbox();
    await closed.close();
    const unreachable = smtpEmailAdapter({ url: closed.url, from: 'alerts@example.com' });
    expect(await unreachable.send(message('oncall@example.com'))).toMatchObject({ status: 'failed', retryable: true, scope: 'provider' });
    expect(await unreachable.probe!()).toMatchObject({ ok: false, error: expect.stringContaining('ECONNREFUSED') });
    expect(await smtpEmailAdapter({ url: inbox.url, from: 'alerts@example.com' }).probe!()).toEqual({ ok: true });
  });

  it('suppresses a message with no address', async () => {
    const adapter = smtpEmailAdapter({ url: inbox.url, from: 'alerts@example.com' });
    expect(await adapter.send(message(''))).toEqual({ status: 'suppressed', reason: 'the person has no email address' });
  });
});

describe('email through Amazon SES (v2 API)', () => {
  let server: Server;
  let endpoint: string;
  const seen: { path: string; authorization: string; body: { FromEmailAddress?: string; Destination?: { ToAddresses?: string[] }; Content?: { Raw?: { Data?: string } } } }[] = [];
  let answer: { status: number; type?: string; body: unknown } = { status: 200, body: { MessageId: 'ses-0001' } };

  const readJson = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      void readJson(req).then((body) => {
        seen.push({ path: `${req.method} ${req.url}`, authorization: String(req.headers.authorization), body });
        // SES accepts only SigV4-signed requests from the account's credentials.
        if (!/^AWS4-HMAC-SHA256 Credential=AKIDHARKTEST\/\d{8}\/eu-west-1\/ses\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/.test(String(req.headers.authorization))) {
          res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnrecognizedClientException' }).end('{"message":"bad signature"}');
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.type ? { 'x-amzn-errortype': answer.type } : {}) }).end(JSON.stringify(answer.body));
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const adapter = () =>
    sesEmailAdapter({
      from: 'Hark <alerts@example.com>',
      client: new SESv2Client({ region: 'eu-west-1', endpoint, maxAttempts: 1, credentials: { accessKeyId: 'AKIDHARKTEST', secretAccessKey: 'test-secret' } }),
    });

  it('sends the raw message with SendEmail and records SES’s message id', async () => {
    answer = { status: 200, body: { MessageId: 'ses-0001' } };
    const result = await adapter().send(message('oncall@example.com'));
    expect(result).toMatchObject({ status: 'sent', providerMessageId: expect.stringContaining('ses-0001') });
    const request = seen.at(-1)!;
    expect(request.path).toBe('POST /v2/email/outbound-emails');
    expect(request.body.Destination?.ToAddresses).toEqual(['oncall@example.com']);
    const raw = Buffer.from(request.body.Content!.Raw!.Data!, 'base64').toString('utf8');
    expect(raw).toContain('Subject: Alert #12: Disk full on db-1');
    expect(raw).toContain('https://hark.example.com/actions/ack.token');
  });

  it('reports a refused message as permanent, throttling and server errors as retryable', async () => {
    answer = { status: 400, type: 'MessageRejected', body: { message: 'Email address is not verified.' } };
    expect(await adapter().send(message('oncall@example.com'))).toMatchObject({ status: 'failed', retryable: false, error: expect.stringContaining('MessageRejected') });
    answer = { status: 429, type: 'TooManyRequestsException', body: { message: 'Maximum sending rate exceeded.' } };
    expect(await adapter().send(message('oncall@example.com'))).toMatchObject({ status: 'failed', retryable: true });
    answer = { status: 500, type: 'InternalFailure', body: { message: 'oops' } };
    expect(await adapter().send(message('oncall@example.com'))).toMatchObject({ status: 'failed', retryable: true });
  });
});

describe('emailAdapter(config)', () => {
  it('is undefined without a provider, SMTP with HARK_SMTP_URL, SES with HARK_EMAIL_PROVIDER=ses', () => {
    expect(emailAdapter(parseEnvironment({}))).toBeUndefined();
    expect(emailAdapter(parseEnvironment({ HARK_SMTP_URL: 'smtp://127.0.0.1:2525' }))?.provider).toBe('smtp');
    expect(emailAdapter(parseEnvironment({ HARK_EMAIL_PROVIDER: 'ses', AWS_REGION: 'eu-west-1' }))?.provider).toBe('ses');
  });
});
