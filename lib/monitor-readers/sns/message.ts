// Amazon SNS's HTTP(S) messages: their shape, the canonical text SNS signs and the signature check, as SNS
// defines them (docs/monitors.md, "Amazon CloudWatch (Amazon SNS)"). Pure: the certificate is a parameter.
import { createVerify } from 'node:crypto';

export const SNS_MESSAGE_TYPES = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'] as const;
export type SnsMessageType = (typeof SNS_MESSAGE_TYPES)[number];

export interface SnsMessage {
  Type: SnsMessageType;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: '1' | '2';
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
  UnsubscribeURL?: string;
}

const REQUIRED = ['Type', 'MessageId', 'TopicArn', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'] as const;

/** The body as an SNS message, or why it is not one (the reason names the field). */
export function snsMessageOf(body: unknown): { ok: true; message: SnsMessage } | { ok: false; reason: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, reason: 'the body is not an Amazon SNS message (a JSON object)' };
  const record = body as Record<string, unknown>;
  for (const name of REQUIRED) {
    if (typeof record[name] !== 'string') return { ok: false, reason: `the SNS message has no ${name}` };
  }
  if (!(SNS_MESSAGE_TYPES as readonly unknown[]).includes(record.Type)) return { ok: false, reason: `the SNS message's Type "${String(record.Type).slice(0, 64)}" is not one SNS sends` };
  if (record.SignatureVersion !== '1' && record.SignatureVersion !== '2') {
    return { ok: false, reason: `the SNS message's SignatureVersion "${String(record.SignatureVersion).slice(0, 16)}" is not 1 or 2` };
  }
  for (const name of ['Subject', 'Token', 'SubscribeURL', 'UnsubscribeURL'] as const) {
    if (record[name] !== undefined && record[name] !== null && typeof record[name] !== 'string') return { ok: false, reason: `the SNS message's ${name} is not text` };
  }
  if (record.Type !== 'Notification') {
    for (const name of ['Token', 'SubscribeURL'] as const) {
      if (typeof record[name] !== 'string') return { ok: false, reason: `the SNS ${String(record.Type)} has no ${name}` };
    }
  }
  return { ok: true, message: record as unknown as SnsMessage };
}

/** The fields SNS signs, in its order; Subject only when the notification has one. */
const SIGNED_NOTIFICATION = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const;
const SIGNED_SUBSCRIPTION = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const;

/** The text SNS signs: each field as "Name\nvalue\n". */
export function canonicalString(message: SnsMessage): string {
  const names = message.Type === 'Notification' ? SIGNED_NOTIFICATION : SIGNED_SUBSCRIPTION;
  let text = '';
  for (const name of names) {
    const value = message[name];
    if (typeof value !== 'string') continue; // only Subject may be absent (snsMessageOf checked the rest)
    text += `${name}\n${value}\n`;
  }
  return text;
}

/** Whether the signature is the certificate's: SHA1withRSA for version 1, SHA256withRSA for version 2. */
export function signatureMatches(message: SnsMessage, certificatePem: string): boolean {
  try {
    const verifier = createVerify(message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
    verifier.update(canonicalString(message), 'utf8');
    return verifier.verify(certificatePem, message.Signature, 'base64');
  } catch {
    return false; // a certificate that is not one, or a malformed signature
  }
}

const SNS_HOST = /^sns\.[a-z]{2}(?:-[a-z]+)+-\d\.amazonaws\.com(?:\.cn)?$/;

/**
 * Whether a URL is one of SNS's own endpoints: https, `sns.<region>.amazonaws.com` (or `.com.cn`), no port, no
 * user; `path` says what the path must end with ('.pem' for a signing certificate). Hark fetches nothing else.
 */
export function isSnsUrl(text: string, pathEnding = ''): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.port === '' && url.username === '' && url.password === '' && SNS_HOST.test(url.hostname) && url.pathname.endsWith(pathEnding);
}

/** The PEM file a signing certificate is read from in HARK_SNS_CERT_DIR: the URL's last path segment, a plain name. */
export function certificateFileOf(signingCertUrl: string): string | undefined {
  const name = new URL(signingCertUrl).pathname.split('/').at(-1) ?? '';
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.pem$/.test(name) ? name : undefined;
}

/** The region and account of a topic ARN (`arn:aws:sns:<region>:<account>:<name>`), or undefined. */
export function topicArnParts(arn: string): { region: string; account: string; name: string } | undefined {
  const match = /^arn:aws(?:-cn|-us-gov)?:sns:([a-z0-9-]+):(\d{12}):([A-Za-z0-9_.-]{1,256})$/.exec(arn);
  return match ? { region: match[1]!, account: match[2]!, name: match[3]! } : undefined;
}

export interface TopicOptions {
  topic_arns: readonly string[];
  aws_account_ids: readonly string[];
}

/** Whether the integration takes messages of this topic: the listed topics, else any topic of the listed accounts, else any. */
export function topicAllowed(topicArn: string, options: TopicOptions): { ok: true } | { ok: false; reason: string } {
  if (options.topic_arns.length > 0) {
    return options.topic_arns.includes(topicArn) ? { ok: true } : { ok: false, reason: `topic ${topicArn} is not one of the integration's topic_arns` };
  }
  if (options.aws_account_ids.length > 0) {
    const account = topicArnParts(topicArn)?.account;
    return account !== undefined && options.aws_account_ids.includes(account)
      ? { ok: true }
      : { ok: false, reason: `topic ${topicArn} is not in one of the integration's aws_account_ids` };
  }
  return { ok: true };
}
