// Console sessions: an opaque random id in a cookie, stored only as its SHA-256 with an expiry (sliding) and a TTL.
// One item per session; signing out deletes it. Rules: docs/console.md, "Sessions".
import { getItem, deleteItem, putIfAbsent, updateIf } from '../db/items.ts';
import { sessionKey } from '../db/keys.ts';
import { SESSION_HOURS, SESSION_TOUCH_MINUTES } from '../limits.ts';
import { looksLikeSecret, newSecret, storedHash } from './tokens.ts';

const SESSION_MS = SESSION_HOURS * 3_600_000;
const TOUCH_MS = SESSION_TOUCH_MINUTES * 60_000;

export interface SessionItem {
  pk: string;
  sk: string;
  type: 'SESSION';
  userId: string;
  /** The account chosen (a person in several accounts picks one); absent until then. */
  accountId?: string;
  expiresAt: number;
  /** Epoch seconds: DynamoDB TTL removes the item after its expiry. */
  ttl: number;
  createdAt: number;
}

export interface Session {
  /** The id from the cookie: never stored, needed for the CSRF token. */
  readonly id: string;
  readonly item: SessionItem;
}

const ttlOf = (expiresAt: number) => Math.ceil(expiresAt / 1000);

/** Starts a session for a person, in `accountId` when they have chosen (or have only one). */
export async function startSession(userId: string, accountId: string | undefined, now: number): Promise<Session> {
  const id = newSecret();
  const expiresAt = now + SESSION_MS;
  const item: SessionItem = {
    ...sessionKey(storedHash(id)),
    type: 'SESSION',
    userId,
    ...(accountId ? { accountId } : {}),
    expiresAt,
    ttl: ttlOf(expiresAt),
    createdAt: now,
  };
  if (!(await putIfAbsent(item))) throw new Error('A session with this id already exists');
  return { id, item };
}

/** The live session of a cookie value, or undefined (unknown, malformed or expired: TTL deletion is lazy). */
export async function findSession(id: string | undefined, now: number): Promise<Session | undefined> {
  if (!id || !looksLikeSecret(id)) return undefined;
  const item = await getItem<SessionItem>(sessionKey(storedHash(id)), { consistent: false });
  if (!item || item.expiresAt <= now) return undefined;
  return { id, item };
}

/** Whether a page view should extend the session (not on every view: one write per few minutes). */
export const needsTouch = (item: Pick<SessionItem, 'expiresAt'>, now: number): boolean => item.expiresAt - now < SESSION_MS - TOUCH_MS;

/** Extends the session to SESSION_HOURS from now; one conditional write that never revives a deleted session. */
export async function touchSession(session: Session, now: number): Promise<void> {
  const expiresAt = now + SESSION_MS;
  await updateIf({
    Update: {
      Key: sessionKey(storedHash(session.id)),
      UpdateExpression: 'SET expiresAt = :e, #ttl = :t',
      ConditionExpression: 'attribute_exists(pk) AND expiresAt < :e',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':e': expiresAt, ':t': ttlOf(expiresAt) },
    },
  });
}

/** Sets the session's account (the account picker); false when the session ended meanwhile. */
export async function chooseAccount(session: Session, accountId: string): Promise<boolean> {
  return updateIf({
    Update: {
      Key: sessionKey(storedHash(session.id)),
      UpdateExpression: 'SET accountId = :a',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':a': accountId },
    },
  });
}

export async function endSession(id: string): Promise<void> {
  if (looksLikeSecret(id)) await deleteItem(sessionKey(storedHash(id)));
}
