// SES receiving's stand-in in bundle mode (docs/monitors.md, "Email"): the receipt rule of the synthesized stack
// applied to mail the local SMTP listener takes — a recipient at the rule's domain is accepted (as SES accepts it; the
// email function drops mail for no integration), the raw message stored in the S3 emulator under the rule's prefix
// and SES message id, then the email function invoked with SES's event, asynchronously, retried twice as Lambda
// retries an asynchronous invocation.
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { logger } from '../logger.ts';
import { sesReceiptEvent } from './events.ts';
import type { MailIntake } from './smtp-inbound.ts';

export interface SesRule {
  recipients: string[];
  prefix: string;
  functionArn: string;
}

/** Lambda's retries of a failed asynchronous invocation, and the pause before each (shortened locally). */
const ASYNC_RETRIES = 2;
const RETRY_PAUSE_MS = 1_000;

/** A recipient a rule takes: the address itself, its domain, or a subdomain of `.domain`, as SES matches them. */
export function ruleTakes(recipients: readonly string[], address: string): boolean {
  const lower = address.toLowerCase();
  const domain = lower.slice(lower.lastIndexOf('@') + 1);
  if (recipients.length === 0) return true;
  return recipients.some((r) => {
    const want = r.toLowerCase();
    if (want.includes('@')) return want === lower;
    return want.startsWith('.') ? domain.endsWith(want) : domain === want;
  });
}

/** The headers of a raw message, unfolded, as SES lists them in its event. */
function headersOf(raw: Buffer): { name: string; value: string }[] {
  const text = raw.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const block = (end < 0 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  return block.split(/\r?\n/).flatMap((line) => {
    const colon = line.indexOf(':');
    return colon > 0 ? [{ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() }] : [];
  });
}

export async function sesStandIn(options: { s3Endpoint: string; region: string; bucket: string; rule: SesRule; invoke: (event: unknown) => Promise<unknown> }): Promise<MailIntake> {
  const s3 = new S3Client({ endpoint: options.s3Endpoint, region: options.region, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await s3.send(new CreateBucketCommand({ Bucket: options.bucket })).catch((error: { name?: string }) => {
    if (error.name !== 'BucketAlreadyOwnedByYou' && error.name !== 'BucketAlreadyExists') throw error;
  });
  const invokeWithRetries = async (event: unknown, messageId: string) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await options.invoke(event);
      } catch (error) {
        if (attempt >= ASYNC_RETRIES) return logger.error('The email function failed on a received mail', { messageId, error: error as Error });
        await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
      }
    }
  };
  return {
    recipient: async (address) => (ruleTakes(options.rule.recipients, address) ? { ok: true } : { ok: false, code: 550, reason: 'Mailbox unavailable' }),
    accept: async ({ raw, recipients, from }) => {
      // SES message ids are 20+ lowercase alphanumerics; the object's key is the prefix and the id.
      const messageId = randomBytes(16).toString('hex');
      await s3.send(new PutObjectCommand({ Bucket: options.bucket, Key: `${options.rule.prefix}${messageId}`, Body: raw }));
      const event = sesReceiptEvent({ messageId, source: from ?? '', recipients, headers: headersOf(raw), functionArn: options.rule.functionArn });
      void invokeWithRetries(event, messageId);
      return { ok: true, queuedAs: messageId };
    },
  };
}
