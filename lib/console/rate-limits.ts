// Sign-in rate limits as fixed-window counters: one conditional write per check, which fails once the window's
// count has reached its limit. Limits: SIGN_IN_LINKS_PER_ADDRESS, SIGN_IN_REQUESTS_PER_IP (docs/limits.md).
import { updateIf } from '../db/items.ts';
import { signInRateKey } from '../db/keys.ts';

export interface Window {
  readonly kind: 'address' | 'ip';
  readonly limit: number;
  readonly windowMs: number;
}

/** The start of the fixed window `now` falls in. Pure. */
export const windowStart = (now: number, windowMs: number): number => now - (now % windowMs);

/**
 * Counts one request of `subject` in its window; false when the window already holds `limit` requests (nothing is
 * counted then). The counter item expires with its window.
 */
export async function withinLimit(window: Window, subject: string, now: number): Promise<boolean> {
  const start = windowStart(now, window.windowMs);
  return updateIf({
    Update: {
      Key: signInRateKey(window.kind, subject, start),
      UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':limit': window.limit, ':ttl': Math.ceil((start + window.windowMs) / 1000) + 60 },
    },
  });
}
