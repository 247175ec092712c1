// The warm process's memory of "API key → caller", so an authenticated request costs no storage read for
// its key once the key has been seen. Entries live AUTH_CACHE_TTL_MS; a change made in this process
// (revoking a key, removing or changing an account user) forgets the affected entries at once. Other
// processes (other Lambdas, the operator CLI) see such a change within the TTL (docs/decisions/0005-auth-caching.md).

import type { Caller } from '../caller/caller.ts';
import { TtlCache } from '../ttl-cache.ts';

export const AUTH_CACHE_TTL_MS = 30_000;
const MAX_CACHED_KEYS = 10_000;

const callers = new TtlCache<string, Caller>({ ttlMs: AUTH_CACHE_TTL_MS, maxEntries: MAX_CACHED_KEYS });

/** The caller of a key (by the key's hash): cached, or loaded; unknown keys are not cached. */
export const cachedCaller = (keyHash: string, load: () => Promise<Caller | undefined>) => callers.get(keyHash, load);

/** A key was revoked. */
export const forgetApiKey = (keyId: string): void => callers.forget((caller) => caller.apiKeyId === keyId);

/** An account user changed (roles, status) or was removed: its keys are authenticated afresh. */
export const forgetAccountUser = (accountId: string, accountUserId: string): void =>
  callers.forget((caller) => caller.accountId === accountId && caller.accountUserId === accountUserId);
