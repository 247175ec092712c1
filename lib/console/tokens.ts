// The console's secrets: sign-in link tokens, session ids and CSRF tokens. Random values leave Hark once (in a mail,
// in a cookie); only their SHA-256 is stored, and comparisons run in constant time (docs/console.md, "Sign-in").
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../ids.ts';

/** 32 random bytes, URL-safe: a sign-in token or a session id. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What is stored in place of a secret. */
export const storedHash = (secret: string): string => hashSecret(secret);

/** A secret's shape, checked before any storage read (a path or cookie can carry anything). */
export const looksLikeSecret = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed by the session id, so it is bound to the session,
 * needs no storage, and cannot be computed without the HttpOnly cookie.
 */
export const csrfTokenOf = (sessionId: string): string => createHmac('sha256', sessionId).update('hark-console-csrf').digest('base64url');

/** Constant-time comparison of a form's CSRF token with the session's. */
export function csrfMatches(sessionId: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(csrfTokenOf(sessionId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
