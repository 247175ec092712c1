// First start of the local runtime: one account, its admin user and an admin API key. The database keeps
// only the key's hash, so a generated key is also written to the data folder (mode 600) to be shown again.

import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, getAccount } from '../accounts/accounts.ts';
import { findApiKey, issueApiKey } from '../auth/api-keys.ts';
import { config } from '../config.ts';
import { documentClient } from '../db/client.ts';
import { settingKey } from '../db/keys.ts';

interface BootstrapSetting {
  accountId: string;
  accountUserId: string;
  userId: string;
}

export async function bootstrapLocal(dataDir: string, requestedKey: string | undefined) {
  const keyFile = join(dataDir, 'admin-api-key');
  const tableName = config().tableName;
  const stored = (await documentClient().send(new GetCommand({ TableName: tableName, Key: settingKey('bootstrap') }))).Item as
    | (BootstrapSetting & { pk: string })
    | undefined;

  if (!stored || !(await getAccount(stored.accountId))) {
    const created = await createAccount({ name: 'Local', adminEmail: 'admin@hark.local', adminName: 'Admin', ...(requestedKey ? { apiKey: requestedKey } : {}) });
    const setting: BootstrapSetting = { accountId: created.account.id, accountUserId: created.accountUser.id, userId: created.user.id };
    await documentClient().send(new PutCommand({ TableName: tableName, Item: { ...settingKey('bootstrap'), ...setting } }));
    if (!requestedKey) writeFileSync(keyFile, `${created.apiKey}\n`, { mode: 0o600 });
    return { accountId: created.account.id, apiKey: created.apiKey, created: true };
  }

  if (requestedKey) {
    if (!(await findApiKey(requestedKey))) {
      await issueApiKey({ accountId: stored.accountId, accountUserId: stored.accountUserId, userId: stored.userId, name: 'admin (HARK_API_KEY)', key: requestedKey });
    }
    return { accountId: stored.accountId, apiKey: requestedKey, created: false };
  }
  const apiKey = existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined;
  if (apiKey && (await findApiKey(apiKey))) return { accountId: stored.accountId, apiKey, created: false };
  // The remembered key was revoked or its file removed: issue a fresh one rather than start without access.
  const issued = await issueApiKey({ accountId: stored.accountId, accountUserId: stored.accountUserId, userId: stored.userId, name: 'admin' });
  writeFileSync(keyFile, `${issued.key}\n`, { mode: 0o600 });
  return { accountId: stored.accountId, apiKey: issued.key, created: false };
}
