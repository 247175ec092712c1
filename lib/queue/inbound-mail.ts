// The raw messages SES receiving stored for email integrations (AWS only): the bucket HARK_INBOUND_EMAIL_BUCKET,
// one object per message under `inbound/<SES message id>` (infra/inbound-email.ts, docs/monitors.md "Email").
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { config } from '../config.ts';
import { INBOUND_EMAIL_BYTES } from '../limits.ts';

export const INBOUND_MAIL_PREFIX = 'inbound/';

let client: S3Client | undefined;

/** The raw message, at most INBOUND_EMAIL_BYTES + 1 bytes of it (a larger one is then refused as too large). */
export async function readStoredMail(messageId: string): Promise<Buffer> {
  const bucket = config().inbound.emailBucket;
  if (!bucket) throw new Error('HARK_INBOUND_EMAIL_BUCKET is not set');
  client ??= new S3Client({ region: config().region });
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${INBOUND_MAIL_PREFIX}${messageId}`, Range: `bytes=0-${INBOUND_EMAIL_BYTES}` }));
  return Buffer.from(await object.Body!.transformToByteArray());
}
