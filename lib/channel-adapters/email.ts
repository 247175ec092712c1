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
  message: string;
}

/**
 * An SMTP failure: a 4xx reply is temporary (greylisting, a full mailbox, a busy server) and retried; a 5xx
 * reply is permanent (no such mailbox, refused). No reply at all (connection refused, timeout) is retried.
 */
function smtpFailure(error: SmtpFailure): SendResult {
  const reply = error.responseCode;
  const detail = error.response ?? error.message;
  if (reply !== undefined && reply >= 500) return { status: 'failed', retryable: false, error: `SMTP ${reply}: ${detail}` };
  if (reply !== undefined && reply >= 400) return { status: 'failed', retryable: true, error: `SMTP ${reply}: ${detail}` };
  return { status: 'failed', retryable: true, error: `SMTP ${error.code ?? 'error'}: ${error.message}` };
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
  return { status: 'failed', retryable, error: `SES ${error.name}${status ? ` (${status})` : ''}: ${error.message}` };
}

function adapterOver(provider: 'smtp' | 'ses', transport: Transporter, from: string, failure: (error: never) => SendResult): ChannelAdapter {
  return {
    channel: 'email',
    provider,
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
  return adapterOver('smtp', transport, options.from, smtpFailure);
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
