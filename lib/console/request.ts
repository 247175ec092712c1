// A console request as the pages see it: the path, the query, the form, the cookies and the base URL; and for
// pages behind sign-in, who is signed in (their session, their account user as a Caller, their name and account).
import { getAccount } from '../accounts/accounts.ts';
import { config, publicBaseUrlOf } from '../config.ts';
import type { Caller } from '../caller/caller.ts';
import type { HttpEvent } from '../http/responses.ts';
import { hasJoined } from '../accounts/joined.ts';
import { membershipOf } from '../people/lookups.ts';
import { getUser, type UserItem } from '../people/user-store.ts';
import { TtlCache } from '../ttl-cache.ts';
import { cookieName, readCookies } from './headers.ts';
import { csrfTokenOf } from './tokens.ts';
import { findSession, type Session } from './sessions.ts';

export interface ConsoleRequest {
  readonly event: HttpEvent;
  readonly method: string;
  /** The path and query as asked: where to come back to after signing in. */
  readonly target: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  /** The urlencoded form of a POST (`{}` otherwise). */
  readonly form: Readonly<Record<string, string>>;
  readonly sessionId: string | undefined;
  /** The public base URL, without a trailing slash (links in mails, cookie flags). */
  readonly baseUrl: string;
  readonly secure: boolean;
  readonly sourceIp: string;
  readonly now: number;
}

export interface SignedIn {
  readonly session: Session;
  readonly person: UserItem;
  /** Present once an account is chosen and the person has joined it. */
  readonly caller?: Caller;
  readonly accountName?: string;
  readonly csrf: string;
  /** How many accounts the person may pick from (the account switcher shows when more than one). */
  readonly accountCount?: number;
}

/** The base URL people reach: HARK_PUBLIC_URL, else the host the request came to (https on API Gateway). */
export function baseUrlOf(event: HttpEvent): string {
  const configured = publicBaseUrlOf(config());
  if (configured) return configured;
  const host = event.headers?.host ?? event.requestContext.domainName;
  const local = /^(127\.|localhost|\[::1\])/.test(host);
  return `${local ? 'http' : 'https'}://${host}`;
}

/** The form fields of a urlencoded body; repeated names keep the first value. */
export function parseForm(text: string): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!Object.hasOwn(form, name)) Object.defineProperty(form, name, { value, enumerable: true });
  return form;
}

export function consoleRequest(event: HttpEvent, params: Record<string, string>, form: Record<string, string>, now: number): ConsoleRequest {
  const baseUrl = baseUrlOf(event);
  const secure = baseUrl.startsWith('https://');
  const cookies = readCookies(event.cookies, event.headers?.cookie);
  return {
    event,
    method: event.requestContext.http.method,
    target: event.rawPath + (event.rawQueryString ? `?${event.rawQueryString}` : ''),
    params,
    query: (event.queryStringParameters ?? {}) as Record<string, string | undefined>,
    form,
    sessionId: cookies.get(cookieName(secure)),
    baseUrl,
    secure,
    sourceIp: event.requestContext.http.sourceIp,
    now,
  };
}

interface Identity {
  person: UserItem;
  accountUser: Awaited<ReturnType<typeof membershipOf>>;
  account: Awaited<ReturnType<typeof getAccount>>;
}

/**
 * A warm process keeps who a session's person is in its account for 10 seconds, as the API keeps a key's caller
 * (decision 0005): a page view then reads only the session. A role change or removal shows within that time; the
 * session itself (sign-out, expiry) is read on every request.
 */
const IDENTITIES = new TtlCache<string, Identity>({ ttlMs: 10_000, maxEntries: 1_000 });

/** The person, their account user and the account, in one round of reads (each a GetItem). */
const identityOf = (userId: string, accountId: string | undefined) =>
  IDENTITIES.get(`${userId}#${accountId ?? ''}`, async () => {
    const [person, accountUser, account] = await Promise.all([
      getUser(userId),
      accountId ? membershipOf(userId, accountId) : undefined,
      accountId ? getAccount(accountId) : undefined,
    ]);
    return person ? { person, accountUser, account } : undefined;
  });

/** Forgets what this process keeps of a person (after they answer an invitation or switch accounts). */
export const forgetIdentity = (userId: string): void => IDENTITIES.forget((_value, key) => key.startsWith(`${userId}#`));

/** Who is signed in, or undefined without a live session. The account user must still belong to the account. */
export async function signedIn(request: ConsoleRequest): Promise<SignedIn | undefined> {
  const session = await findSession(request.sessionId, request.now);
  if (!session) return undefined;
  const accountId = session.item.accountId;
  const identity = await identityOf(session.item.userId, accountId);
  if (!identity) return undefined;
  const { person, accountUser, account } = identity;
  const csrf = csrfTokenOf(session.id);
  if (!accountId || !accountUser || !account || !hasJoined(accountUser)) return { session, person, csrf };
  const roles = accountUser.data.roles;
  const caller: Caller = {
    accountId,
    accountUserId: accountUser.id,
    userId: person.id,
    roles: { admin: !!roles?.admin, billing: !!roles?.billing, broadcaster: !!roles?.broadcaster, communicator: !!roles?.communicator },
    apiKeyId: 'console-session',
  };
  return { session, person, caller, accountName: account.name, csrf };
}
