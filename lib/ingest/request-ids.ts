// Ids derived from a webhook request, so that applying the same request twice names the same things and the
// second write collides (docs/ingest.md, "Exactly-once effects"). Pure.
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import type { IngestMessage } from '../queue/ingest.ts';

const digestOf = (requestId: string, purpose: string): Buffer => createHash('sha256').update(`${purpose}\n${requestId}`, 'utf8').digest();

/** A PRNG that plays back the digest's bytes: ulid() then draws its random part from the request, not from chance. */
function playback(bytes: Buffer): () => number {
  let i = 0;
  return () => bytes[i++ % bytes.length]! / 256;
}

/**
 * The id of the alert a create event (the `index`th of its request) makes: a ULID whose time is the request's acceptance (so it sorts with
 * the alerts made then) and whose random part comes from the request id. A redelivered create names the same
 * alert, and its write fails on `attribute_not_exists`.
 */
export function alertIdOfRequest(requestId: string, receivedAtMs: number, index = 0): string {
  return requestUlid(digestOf(requestId, eventPurpose('alert', index)), receivedAtMs);
}

/** A request's ids of its event `index`: the first event's are the ids a request had before readers made several. */
const eventPurpose = (purpose: string, index: number) => (index === 0 ? purpose : `${purpose}#${index}`);

/**
 * A ULID of `timeMs` whose random part is played back from `digest`: the same inputs give the same id. A time that
 * is not a number (a malformed acceptance time) still gives an id rather than failing the request.
 */
export const requestUlid = (digest: Buffer, timeMs: number): string => ulid(Number.isFinite(timeMs) ? timeMs : 1, playback(digest));

/**
 * The thirdparty_id of an event (the `index`th of its request) that names no Id: UUID-shaped (as the reference generates one), and the same on
 * every delivery of the request.
 */
export function generatedThirdpartyId(requestId: string, index = 0): string {
  const hex = digestOf(requestId, eventPurpose('thirdparty', index)).toString('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The id and prefix_id of a request's log, derived from the request so every delivery of one message names the same
 * log (an alert can carry its source_log_id before the log is read, and the webhook answers with the prefix id before
 * the worker writes the log). The id is a ULID of the time the request was accepted.
 */
export function logIdsOf(message: Pick<IngestMessage, 'accountId' | 'requestId' | 'receivedAt'>): { id: string; prefixId: string } {
  const digest = createHash('sha256').update(`${message.accountId}\u0000${message.requestId}`).digest();
  const id = requestUlid(digest, Date.parse(message.receivedAt));
  let prefix = '';
  for (let i = 16; i < 30; i++) prefix += ALPHANUMERIC[digest[i]! % ALPHANUMERIC.length];
  return { id, prefixId: `log_${prefix}` };
}
