// API keys: only a SHA-256 hash of each key is stored; the key itself is shown once, when issued.

import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { documentClient } from '../db/client.ts';
import { accountPk, apiKeyKey, apiKeysOfAccountGsi, entitySk, userKey } from '../db/keys.ts';
import { queryAll, type EntityItem } from '../db/repository.ts';
import { unauthorized } from '../http/errors.ts';
import type { Caller, Roles } from '../http/context.ts';
import { hashSecret, newApiKey, newId } from '../ids.ts';

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
  return true;
}

export async function findApiKey(key: string): Promise<ApiKeyItem | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: config().tableName, Key: apiKeyKey(hashSecret(key)) }));
  return result.Item as ApiKeyItem | undefined;
}

/** Resolves `Authorization: Bearer <key>` to the caller, or 401. */
export async function authenticate(authorization: string | undefined): Promise<Caller> {
  const key = authorization?.match(BEARER)?.[1];
  if (!key) throw unauthorized('Missing API key: send Authorization: Bearer <key>');
  const apiKey = await findApiKey(key);
  if (!apiKey) throw unauthorized('Invalid API key');
  const tableName = config().tableName;
  const get = (Key: Record<string, string>) => documentClient().send(new GetCommand({ TableName: tableName, Key }));
  const [accountUserResult, userResult] = await Promise.all([
    get({ pk: accountPk(apiKey.accountId), sk: entitySk('ACCOUNT_USER', apiKey.accountUserId) }),
    get(userKey(apiKey.userId)),
  ]);
  const accountUser = accountUserResult.Item as EntityItem<AccountUserAuthData> | undefined;
  const user = userResult.Item as { name?: string } | undefined;
  // A key whose account user was removed from the account, or has not accepted its invitation, does not work.
  if (!accountUser || accountUser.data.status === 'invited') throw unauthorized('Invalid API key');
  const roles = accountUser.data.roles;
  return {
    accountId: apiKey.accountId,
    accountUserId: apiKey.accountUserId,
    displayName: user?.name ?? '',
    roles: { admin: !!roles?.admin, billing: !!roles?.billing, broadcaster: !!roles?.broadcaster, communicator: !!roles?.communicator },
    apiKeyId: apiKey.keyId,
  };
}
