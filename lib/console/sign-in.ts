// Signing in without a password (docs/console.md, "Sign-in"): a one-time link, valid SIGN_IN_LINK_MINUTES, stored
// only as its hash and taken once by the POST of the page it opens (a mail scanner's GET does not use it).
// POST /sign-in does the same work whatever the address: two limit counters and one message on the deployment's
// timers queue; the worker looks the address up and sends the link after the answer (./sign-in-delivery.ts), so
// neither the page nor its timing tells who has an account here.
import { randomUUID } from 'node:crypto';
import { getItem, putIfAbsent, takeItem } from '../db/items.ts';
import { signInTokenKey } from '../db/keys.ts';
import { hashSecret } from '../ids.ts';
import { SIGN_IN_LINK_MINUTES, SIGN_IN_LINKS_PER_ADDRESS, SIGN_IN_REQUESTS_PER_IP } from '../limits.ts';
import { sendSignInRequest, SIGN_IN_REQUEST_KIND } from '../queue/sign-in.ts';
import { withinLimit, type Window } from './rate-limits.ts';
import { looksLikeSecret, newSecret, storedHash } from './tokens.ts';

const LINK_MS = SIGN_IN_LINK_MINUTES * 60_000;
const PER_ADDRESS: Window = { kind: 'address', limit: SIGN_IN_LINKS_PER_ADDRESS, windowMs: LINK_MS };
const PER_IP: Window = { kind: 'ip', limit: SIGN_IN_REQUESTS_PER_IP, windowMs: 60_000 };

interface SignInTokenItem {
  pk: string;
  sk: string;
  type: 'SIGNIN';
  userId: string;
  email: string;
  /** Where to go after signing in: a same-site path (checked before it is stored). */
  next: string;
  expiresAt: number;
  ttl: number;
}

/** What happened to a sign-in request; the page is the same for every outcome, the log line is not. */
export type SignInRequestOutcome = 'queued' | 'limited';

/**
 * POST /sign-in: within the limits, queues the request for the worker. Never reads whether the address is known:
 * every address, known, invited only or unknown, costs the same two counter writes and one queue message.
 */
export async function requestSignInLink(input: { email: string; sourceIp: string; baseUrl: string; next: string; now: number }): Promise<SignInRequestOutcome> {
  const address = input.email.trim().toLowerCase();
  if (!(await withinLimit(PER_IP, input.sourceIp, input.now))) return 'limited';
  if (!(await withinLimit(PER_ADDRESS, hashSecret(address), input.now))) return 'limited';
  await sendSignInRequest({ kind: SIGN_IN_REQUEST_KIND, requestId: randomUUID(), email: address, next: input.next, baseUrl: input.baseUrl, requestedAt: input.now });
  return 'queued';
}

/** Whether a link's token is still good (GET shows the button only then); never uses it. */
export async function signInLinkIsLive(token: string, now: number): Promise<boolean> {
  if (!looksLikeSecret(token)) return false;
  const item = await getItem<SignInTokenItem>(signInTokenKey(storedHash(token)));
  return !!item && item.expiresAt > now;
}

/** Uses a link: takes its item exactly once while it is live; undefined for a used, expired or unknown link. */
export async function useSignInLink(token: string, now: number): Promise<{ userId: string; next: string } | undefined> {
  if (!looksLikeSecret(token)) return undefined;
  const item = await takeItem<SignInTokenItem>(signInTokenKey(storedHash(token)), { expression: 'expiresAt > :now', values: { ':now': now } });
  return item ? { userId: item.userId, next: item.next } : undefined;
}

/**
 * A new link for a person: stored as its hash, returned once. The worker mails it or prints it in npm start's
 * terminal (./sign-in-delivery.ts); npm start prints one for the bootstrap admin.
 */
export async function issueSignInLink(userId: string, email: string, baseUrl: string, now: number, next = '/alerts'): Promise<string> {
  const token = newSecret();
  const expiresAt = now + LINK_MS;
  const item: SignInTokenItem = { ...signInTokenKey(storedHash(token)), type: 'SIGNIN', userId, email, next, expiresAt, ttl: Math.ceil(expiresAt / 1000) };
  await putIfAbsent(item);
  return `${baseUrl}/sign-in/${token}`;
}
