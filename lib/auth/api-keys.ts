// API keys: only a SHA-256 hash of each key is stored; the key itself is shown once, when issued.

import { nowIso } from '../clock.ts';
import { deleteItem, getItem, putIfAbsent, queryIndex } from '../db/items.ts';
import { accountPk, apiKeyKey, apiKeysOfAccountGsi, entitySk } from '../db/keys.ts';
import type { EntityItem } from '../db/repository.ts';
import { unauthenticated } from '../errors.ts';
import type { Caller, Roles } from '../caller/caller.ts';
import { hashSecret, newApiKey, newId } from '../ids.ts';
import { hasJoined } from '../accounts/joined.ts';
import { cachedCaller, forgetApiKey } from './key-cache.ts';

export interface ApiKeyItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  keyId: string;
  accountId: string;
  accountUserId: string;
  userId: string;
  name: string;
  createdAt: string;
}

/** The fields of an account user that authentication needs; the account-users group owns the full shape. */
interface AccountUserAuthData {
  user_id: string;
  roles: Roles;
  status?: 'active' | 'invited';
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export interface NewApiKey {
  accountId: string;
  accountUserId: string;
  userId: string;
  name: string;
  /** A key chosen by the operator; generated when absent. */
  key?: string;
}

/** A new key and the item that stores its hash, for a caller that writes it inside its own transaction. */
export function newApiKeyItem(input: NewApiKey): { key: string; keyId: string; item: ApiKeyItem } {
  const key = input.key ?? newApiKey();
  const keyId = newId();
  const item: ApiKeyItem = {
    ...apiKeyKey(hashSecret(key)),
    ...apiKeysOfAccountGsi(input.accountId),
    gsi1sk: keyId,
    keyId,
    accountId: input.accountId,
    accountUserId: input.accountUserId,
    userId: input.userId,
    name: input.name,
    createdAt: nowIso(),
  };
  return { key, keyId, item };
}

export async function issueApiKey(input: NewApiKey) {
  const { key, keyId, item } = newApiKeyItem(input);
  if (!(await putIfAbsent(item))) throw new Error('An API key with this value already exists');
  return { key, keyId };
}

export async function listApiKeys(accountId: string): Promise<ApiKeyItem[]> {
  return queryIndex<ApiKeyItem>(apiKeysOfAccountGsi(accountId).gsi1pk);
}

/** Revokes a key by its id (never by the secret, which is not stored). Returns false when there is no such key. */
export async function revokeApiKey(accountId: string, keyId: string): Promise<boolean> {
  const match = (await listApiKeys(accountId)).find((k) => k.keyId === keyId);
  if (!match) return false;
  await deleteItem(match);
  forgetApiKey(keyId);
  return true;
}

export async function findApiKey(key: string): Promise<ApiKeyItem | undefined> {
  return getItem<ApiKeyItem>(apiKeyKey(hashSecret(key)), { consistent: false });
}

/** Resolves `Authorization: Bearer <key>` to the caller, or 401. Warm processes remember callers (lib/auth/key-cache.ts). */
export async function authenticate(authorization: string | undefined): Promise<Caller> {
  const key = authorization?.match(BEARER)?.[1];
  if (!key) throw unauthenticated('Missing API key: send Authorization: Bearer <key>');
  const caller = await cachedCaller(hashSecret(key), () => loadCaller(key));
  if (!caller) throw unauthenticated('Invalid API key');
  return caller;
}

/** The key's item, then its account user; undefined when the key does not work. */
async function loadCaller(key: string): Promise<Caller | undefined> {
  const apiKey = await findApiKey(key);
  if (!apiKey) return undefined;
  const accountUser = await getItem<EntityItem<AccountUserAuthData>>(
    { pk: accountPk(apiKey.accountId), sk: entitySk('ACCOUNT_USER', apiKey.accountUserId) },
    { consistent: false },
  );
  // A key whose account user was removed from the account, or has not accepted its invitation, does not work.
  if (!accountUser || !hasJoined(accountUser)) return undefined;
  const roles = accountUser.data.roles;
  return {
    accountId: apiKey.accountId,
    accountUserId: apiKey.accountUserId,
    userId: apiKey.userId,
    roles: { admin: !!roles?.admin, billing: !!roles?.billing, broadcaster: !!roles?.broadcaster, communicator: !!roles?.communicator },
    apiKeyId: apiKey.keyId,
  };
}
