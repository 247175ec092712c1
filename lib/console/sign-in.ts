// Signing in without a password (docs/console.md, "Sign-in"): a one-time link by email, valid SIGN_IN_LINK_MINUTES,
// stored only as its hash and taken once by the POST of the page it opens (a mail scanner's GET does not use it).
// POST /sign-in answers the same page whatever happened, so it never tells who has an account here.
import { getItem, putIfAbsent, takeItem } from '../db/items.ts';
import { signInTokenKey } from '../db/keys.ts';
import { ADAPTER_SERVICES } from '../delivery/adapter-services.ts';
import { hashSecret, newId } from '../ids.ts';
import { SIGN_IN_LINK_MINUTES, SIGN_IN_LINKS_PER_ADDRESS, SIGN_IN_REQUESTS_PER_IP } from '../limits.ts';
import { logger } from '../logger.ts';
import { adapterFor } from '../channel-adapters/adapters.ts';
import { findUserByEmail, listMemberships } from '../people/user-store.ts';
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
export type SignInRequestOutcome = 'sent' | 'unknown_address' | 'limited' | 'not_sent';

/** The mail of a sign-in link. Pure. */
export function signInMail(link: string, name: string): { subject: string; text: string } {
  return {
    subject: 'Your Hark sign-in link',
    text: [
      `Hello ${name},`,
      '',
      `Open this link to sign in to Hark: ${link}`,
      '',
      `It works once, within ${SIGN_IN_LINK_MINUTES} minutes. If you did not ask to sign in, ignore this mail: nothing happens without the link.`,
    ].join('\n'),
  };
}

/** POST /sign-in: within the limits, and when the address is an account user's, mails a link. */
export async function requestSignInLink(input: { email: string; sourceIp: string; baseUrl: string; next: string; now: number }): Promise<SignInRequestOutcome> {
  const address = input.email.trim().toLowerCase();
  if (!(await withinLimit(PER_IP, input.sourceIp, input.now))) return 'limited';
  if (!(await withinLimit(PER_ADDRESS, hashSecret(address), input.now))) return 'limited';
  const person = await findUserByEmail(address);
  const memberships = person ? await listMemberships(person.id) : [];
  if (!person || memberships.length === 0) return 'unknown_address';
  const token = newSecret();
  const expiresAt = input.now + LINK_MS;
  const item: SignInTokenItem = { ...signInTokenKey(storedHash(token)), type: 'SIGNIN', userId: person.id, email: address, next: input.next, expiresAt, ttl: Math.ceil(expiresAt / 1000) };
  await putIfAbsent(item);
  const adapter = adapterFor('email', ADAPTER_SERVICES);
  if (!adapter) {
    logger.warn('Sign-in link not sent: no email provider is configured', { event: 'sign_in_link', outcome: 'not_sent' });
    return 'not_sent';
  }
  const mail = signInMail(`${input.baseUrl}/sign-in/${token}`, person.name);
  const first = memberships[0]!;
  const result = await adapter.send({
    notificationId: newId(),
    accountId: first.accountId,
    accountUserId: first.accountUserId,
    channel: 'email',
    to: address,
    subject: mail.subject,
    text: mail.text,
    actions: [],
    about: { ownerType: 'alert', ownerId: '', prefixId: '' },
  });
  if (result.status !== 'sent') {
    logger.warn('Sign-in link not sent', { event: 'sign_in_link', outcome: result.status, reason: result.status === 'failed' ? result.error : result.reason });
    return 'not_sent';
  }
  return 'sent';
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

/** A link for a person that npm start prints for the bootstrap admin, so nobody needs mail to try the console. */
export async function issueSignInLink(userId: string, email: string, baseUrl: string, now: number): Promise<string> {
  const token = newSecret();
  const expiresAt = now + LINK_MS;
  const item: SignInTokenItem = { ...signInTokenKey(storedHash(token)), type: 'SIGNIN', userId, email, next: '/alerts', expiresAt, ttl: Math.ceil(expiresAt / 1000) };
  await putIfAbsent(item);
  return `${baseUrl}/sign-in/${token}`;
}
