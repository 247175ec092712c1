// A provider's delivery report on a sent message (Twilio's status callback): the record moves sent → delivered, or
// sent → failed with the provider's error, in one conditional write. The callback finds the record by the reference
// the sender put in the message (its key), and acts only while the record is `sent` with that provider id, so a late,
// repeated or out-of-order report changes nothing. Rules: docs/notifications.md, "Record states".
import { updateIf } from '../db/items.ts';
import type { Key } from '../db/writes.ts';
import type { ProviderStatus } from '../channel-adapters/twilio.ts';

/** The reference of the record at `key`, as a message carries it (URL-safe). */
export const statusRefOf = (key: Key): string => Buffer.from(JSON.stringify([key.pk, key.sk]), 'utf8').toString('base64url');

/** The record key a reference names, or undefined when it is not one. Pure. */
export function recordKeyOfStatusRef(ref: string): Key | undefined {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(ref)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(ref, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [pk, sk] = parsed as unknown[];
    return typeof pk === 'string' && typeof sk === 'string' && pk !== '' && sk !== '' ? { pk, sk } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records a provider's report on the record at `key`: `delivered` sets `delivered_at`; `failed` sets `error` and
 * `reason` (the message was accepted but never arrived: not retried, the notification cycle goes on as planned).
 * True when the record changed; false when it is not `sent` with `providerMessageId` (already delivered or failed,
 * another provider id, gone) or the report is a step on the way.
 */
export async function recordProviderStatus(key: Key, providerMessageId: string, status: ProviderStatus, at: string): Promise<boolean> {
  if (status.kind === 'pending') return false;
  const set = status.kind === 'delivered' ? 'SET #status = :next, delivered_at = :at' : 'SET #status = :next, #error = :err, reason = :err, failed_at = :at';
  return updateIf({
    Update: {
      Key: key,
      UpdateExpression: set,
      ConditionExpression: '#status = :sent AND provider_message_id = :pmid',
      ExpressionAttributeNames: status.kind === 'delivered' ? { '#status': 'status' } : { '#status': 'status', '#error': 'error' },
      ExpressionAttributeValues: {
        ':next': status.kind,
        ':sent': 'sent',
        ':pmid': providerMessageId,
        ':at': at,
        ...(status.kind === 'failed' ? { ':err': status.error } : {}),
      },
    },
  });
}
