// A request an integration refused (an unreadable mail, a wrong token, a bad signature, a topic not allowed), kept as a
// `refused` log of the integration so it is seen, without letting unauthenticated traffic flood storage: at most one
// log per integration, reason and minute; the rest of that minute only count on it, one conditional write each
// (docs/ingest.md, "Refused requests").
import { transact, updateIf } from '../db/items.ts';
import { logger } from '../logger.ts';
import type { IngestMessage } from '../queue/ingest.ts';
import { logExisted, logIdsOf, newLogWrites, sourceLogKey } from './source-log.ts';

/** One log per integration and reason per this window. */
export const REFUSAL_WINDOW_MS = 60_000;

export interface Refusal {
  accountId: string;
  integrationId: string;
  /** A short stable name of why (`unreadable_mail`): one log per minute per reason. */
  reason: string;
  /** What was wrong, in words, for the log's note. */
  detail: string;
  /** How the request came and to where, as its log shows them (`SES`, `mailto:…`). */
  method: string;
  path: string;
  /** Headers worth keeping (already redacted); none when the request could not be read. */
  headers?: Record<string, string>;
  /** The sender's address, when known (the log's `remote_ip`). */
  sourceIp?: string;
}

/** The start of the window `now` falls in. Pure. */
export const refusalWindowStart = (now: number): number => now - (now % REFUSAL_WINDOW_MS);

/** The log request of a refusal's window: its id comes from (integration, reason, window), so the minute's refusals name one log. Pure. */
export function refusalRequest(refusal: Refusal, now: number): IngestMessage {
  const start = refusalWindowStart(now);
  return {
    kind: 'webhook',
    requestId: `refused:${refusal.integrationId}:${refusal.reason}:${start}`,
    accountId: refusal.accountId,
    integrationId: refusal.integrationId,
    // The log's time (and so its id) is the minute's start: every refusal of the minute names the same log.
    receivedAt: new Date(start).toISOString(),
    method: refusal.method,
    path: refusal.path,
    headers: refusal.headers ?? {},
    query: {},
    ...(refusal.sourceIp ? { sourceIp: refusal.sourceIp } : {}),
    body: null,
  };
}

/** The count of one more refusal on the window's log; false when the window has no log yet. */
const countOn = (refusal: Refusal, logId: string) =>
  updateIf({
    Update: {
      Key: sourceLogKey(refusal.accountId, logId),
      UpdateExpression: 'ADD refusedCount :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    },
  });

/**
 * Records one refusal: counted on its window's log when there is one (one conditional update), else the window's log
 * is written with its counters (one transaction; a refusal that raced it is then counted). 'stored' or 'counted'.
 */
export async function recordRefusal(refusal: Refusal, now: number): Promise<'stored' | 'counted'> {
  const request = refusalRequest(refusal, now);
  const { id } = logIdsOf(request);
  if (await countOn(refusal, id)) return 'counted';
  const writes = newLogWrites(request, [{ message: `Refused: ${refusal.detail}` }]);
  const first = writes[0]!;
  if (!('Put' in first)) throw new Error('A new log starts with its Put');
  first.Put.Item = { ...first.Put.Item, refusedReason: refusal.reason, refusedCount: 1 };
  try {
    await transact(writes);
    return 'stored';
  } catch (error) {
    if (!logExisted(error)) throw error;
  }
  if (await countOn(refusal, id)) return 'counted';
  throw new Error('The refusal log of this minute was neither written nor found');
}

/**
 * A request refused at the door of a known integration (a wrong token or key, a bad signature, a topic not allowed),
 * recorded as that integration's refusal. `reason` must be one of the caller's constants, never text from the request:
 * it names the minute's log. The sender's answer does not wait on storage's trouble: a failure to record is logged and
 * the refusal still answered as before. For every intake's own refusals (docs/ingest.md, "Refused requests").
 */
export async function recordRefusedAtDoor(refusal: Refusal, now: number): Promise<'stored' | 'counted' | 'not_recorded'> {
  try {
    return await recordRefusal(refusal, now);
  } catch (error) {
    logger.warn('Refused request not recorded on its integration', { error: error as Error, integrationId: refusal.integrationId, reason: refusal.reason });
    return 'not_recorded';
  }
}
