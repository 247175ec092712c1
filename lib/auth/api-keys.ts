// API keys: only a SHA-256 hash of each key is stored; the key itself is shown once, when issued.

import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { documentClient } from '../db/client.ts';
import { accountPk, apiKeyKey, apiKeysOfAccountGsi, entitySk } from '../db/keys.ts';
import { queryAll, type EntityItem } from '../db/repository.ts';
import { unauthorized } from '../http/errors.ts';
import type { Caller, Roles } from '../http/context.ts';
import { hashSecret, newApiKey, newId } from '../ids.ts';
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

export async function issueApiKey(input: { accountId: string; accountUserId: string; userId: string; name: string; key?: string }) {
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
  await documentClient().send(new PutCommand({ TableName: config().tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return { key, keyId };
}

export async function listApiKeys(accountId: string): Promise<ApiKeyItem[]> {
  return queryAll<ApiKeyItem>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': apiKeysOfAccountGsi(accountId).gsi1pk },
  });
}

/** Revokes a key by its id (never by the secret, which is not stored). Returns false when there is no such key. */
export async function revokeApiKey(accountId: string, keyId: string): Promise<boolean> {
  const match = (await listApiKeys(accountId)).find((k) => k.keyId === keyId);
  if (!match) return false;
  await documentClient().send(new DeleteCommand({ TableName: config().tableName, Key: { pk: match.pk, sk: match.sk } }));
  forgetApiKey(keyId);
  return true;
}

export async function findApiKey(key: string): Promise<ApiKeyItem | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: config().tableName, Key: apiKeyKey(hashSecret(key)) }));
  return result.Item as ApiKeyItem | undefined;
}

/** Resolves `Authorization: Bearer <key>` to the caller, or 401. Warm processes remember callers (lib/auth/key-cache.ts). */
export async function authenticate(authorization: string | undefined): Promise<Caller> {
  const key = authorization?.match(BEARER)?.[1];
  if (!key) throw unauthorized('Missing API key: send Authorization: Bearer <key>');
  const caller = await cachedCaller(hashSecret(key), () => loadCaller(key));
  if (!caller) throw unauthorized('Invalid API key');
  return caller;
}

/** The key's item, then its account user; undefined when the key does not work. */
async function loadCaller(key: string): Promise<Caller | undefined> {
  const apiKey = await findApiKey(key);
  if (!apiKey) return undefined;
  const accountUserResult = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: { pk: accountPk(apiKey.accountId), sk: entitySk('ACCOUNT_USER', apiKey.accountUserId) } }),
  );
  const accountUser = accountUserResult.Item as EntityItem<AccountUserAuthData> | undefined;
  // A key whose account user was removed from the account, or has not accepted its invitation, does not work.
  if (!accountUser || accountUser.data.status === 'invited') return undefined;
  const roles = accountUser.data.roles;
  return {
    accountId: apiKey.accountId,
    accountUserId: apiKey.accountUserId,
    userId: apiKey.userId,
    roles: { admin: !!roles?.admin, billing: !!roles?.billing, broadcaster: !!roles?.broadcaster, communicator: !!roles?.communicator },
    apiKeyId: apiKey.keyId,
  };
}
