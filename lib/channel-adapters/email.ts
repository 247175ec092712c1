// The email channel (docs/notifications.md, "Email"): nodemailer over SMTP (HARK_SMTP_URL), or over Amazon SES's
// v2 API on AWS (HARK_EMAIL_PROVIDER=ses). A message is text and HTML with its signed action links; its
// Message-ID is made from the notification id, so a resend after a crash is recognisably the same mail.
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import Handlebars from 'handlebars';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { HarkConfig } from '../config.ts';
import type { ChannelAdapter, OutgoingMessage, SendResult } from './port.ts';

/** How long an SMTP server may take to answer before the attempt is a retryable failure. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const html = Handlebars.compile<{ subject: string; paragraphs: string[]; actions: OutgoingMessage['actions'] }>(
  `<!doctype html>
<html lang="en"><body style="font:15px/1.5 system-ui,sans-serif;color:#222">
<h2 style="font-size:17px">{{subject}}</h2>
{{#each paragraphs}}<p>{{this}}</p>
{{/each}}{{#if actions.length}}<p>{{#each actions}}<a href="{{url}}" style="display:inline-block;margin:0 8px 8px 0;padding:8px 18px;border-radius:4px;background:#1f5fbf;color:#fff;text-decoration:none">{{label}}</a>{{/each}}</p>
<p style="color:#666;font-size:13px">Each button opens a page that asks before it acts. The links work for 24 hours and only for you.</p>{{/if}}
</body></html>
`,
);

/** The mail for one message: text with the links spelled out, and HTML with them as buttons. */
function composeEmail(message: OutgoingMessage, from: string): SendMailOptions {
  const links = message.actions.map((a) => `${a.label}: ${a.url}`);
  const text = links.length ? `${message.text}\n\n${links.join('\n')}\n` : `${message.text}\n`;
  return {
    from,
    to: message.to,
    subject: message.subject,
    text,
    html: html({ subject: message.subject, paragraphs: message.text.split(/\n{2,}/), actions: message.actions }),
    messageId: `<${message.notificationId}@hark>`,
    headers: { 'X-Hark-Notification-Id': message.notificationId },
  };
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  /** The SMTP step that failed (nodemailer): CONN, EHLO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA, … */
  command?: string;
  message: string;
}

/** Steps before any message is named: a refusal there is the server's, not the message's. */
const SESSION_COMMANDS = /^(CONN|GREETING|EHLO|HELO|LHLO|STARTTLS|AUTH)/;

/**
 * An SMTP failure. No reply at all (connection refused, TLS, timeout), a 4xx before the message is named (a busy
 * greeting, a login tried later) and 421 (the server closing) are the server's: retried, and counted by its breaker.
 * After that a 4xx reply is temporary for this message (greylisting, a full mailbox) and retried; a 5xx reply is
 * permanent (no such mailbox, refused; a refused login too: wrong credentials are not waited out). docs/notifications.md, "When a provider is down".
 */
export function smtpFailure(error: SmtpFailure): SendResult {
  const reply = error.responseCode;
  const detail = error.response ?? error.message;
  if (reply === undefined) return { status: 'failed', retryable: true, error: `SMTP ${error.code ?? 'error'}: ${error.message}`, scope: 'provider' };
  if (reply === 421 || (reply < 500 && SESSION_COMMANDS.test(error.command ?? ''))) return { status: 'failed', retryable: true, error: `SMTP ${reply}: ${detail}`, scope: 'provider' };
  if (reply >= 500) return { status: 'failed', retryable: false, error: `SMTP ${reply}: ${detail}` };
  return { status: 'failed', retryable: true, error: `SMTP ${reply}: ${detail}` };
}

interface AwsFailure {
  name: string;
  message: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
}

/** SES refusals of the message itself (4xx) are permanent; throttling, 5xx and network failures are retried. */
function sesFailure(error: AwsFailure): SendResult {
  const status = error.$metadata?.httpStatusCode;
  const retryable = error.$retryable !== undefined || status === undefined || status === 429 || status >= 500 || error.name === 'TooManyRequestsException';
  const text = `SES ${error.name}${status ? ` (${status})` : ''}: ${error.message}`;
  return retryable ? { status: 'failed', retryable, error: text, scope: 'provider' } : { status: 'failed', retryable, error: text };
}

function adapterOver(provider: 'smtp' | 'ses', transport: Transporter, from: string, failure: (error: never) => SendResult, endpoint?: string): ChannelAdapter {
  return {
    channel: 'email',
    provider,
    ...(endpoint ? { endpoint } : {}),
    async probe() {
      // SMTP: connect, greet and log in, naming no message; SES has no such call (its next send tells).
      if (provider !== 'smtp') return { ok: true };
      try {
        await transport.verify();
        return { ok: true };
      } catch (error) {
        const result = failure(error as never);
        return { ok: false, error: result.status === 'failed' ? result.error : String(error) };
      }
    },
    async send(message) {
      if (!message.to) return { status: 'suppressed', reason: 'the person has no email address' };
      try {
        const info = (await transport.sendMail(composeEmail(message, from))) as { messageId?: string };
        return { status: 'sent', providerMessageId: info.messageId ?? null };
      } catch (error) {
        return failure(error as never);
      }
    },
  };
}

/** Email through an SMTP server (`smtp://` or `smtps://`, credentials in the URL). */
export function smtpEmailAdapter(options: { url: string; from: string }): ChannelAdapter {
  const transport = nodemailer.createTransport({ url: options.url, ...SMTP_TIMEOUTS } as never);
  // The server's host and port (never its credentials) name its breaker.
  const { hostname, port, protocol } = new URL(options.url);
  return adapterOver('smtp', transport, options.from, smtpFailure, `${hostname}:${port || (protocol === 'smtps:' ? '465' : '587')}`);
}

/** Email through Amazon SES's v2 API (nodemailer's SES transport); `client` is built from the region by default. */
export function sesEmailAdapter(options: { from: string; region?: string; client?: SESv2Client }): ChannelAdapter {
  const sesClient = options.client ?? new SESv2Client({ region: options.region });
  const transport = nodemailer.createTransport({ SES: { sesClient, SendEmailCommand } });
  return adapterOver('ses', transport, options.from, sesFailure);
}

/** The email adapter the configuration names, or undefined when email is not configured. */
export function emailAdapter(config: HarkConfig): ChannelAdapter | undefined {
  const { provider, smtpUrl, from } = config.email;
  if (provider === 'ses') return sesEmailAdapter({ from, region: config.region });
  if (provider === 'smtp' && smtpUrl) return smtpEmailAdapter({ url: smtpUrl, from });
  return undefined;
}
