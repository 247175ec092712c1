// First start of the local runtime: one account, its admin user and THE bootstrap admin API key
// (docs/configuration.md#the-bootstrap-admin-key). There is one bootstrap key at a time: HARK_API_KEY when
// it is set, otherwise a generated key kept in the data folder (mode 600, since the database keeps only
// its hash). Choosing another key replaces the previous one in one transaction: the old key stops working.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAccount } from '../accounts/accounts.ts';
import { createAccount } from '../people/new-account.ts';
import { findApiKey, listApiKeys, newApiKeyItem, type ApiKeyItem } from '../auth/api-keys.ts';
import { ConfigError } from '../config.ts';
import { getItem, transact } from '../db/items.ts';
import { settingKey } from '../db/keys.ts';
import type { TransactItem } from '../db/writes.ts';
import { ADMIN_KEY_FILE } from './private-data.ts';

interface BootstrapSetting {
  accountId: string;
  accountUserId: string;
  userId: string;
  /** The bootstrap key's id; absent in data folders first started before it was recorded. */
  apiKeyId?: string;
}

export interface Bootstrapped {
  accountId: string;
  accountUserId: string;
  apiKey: string;
  /** The data folder was new: the account was created now. */
  created: boolean;
  /** A previous bootstrap key was revoked in favour of this one. */
  replaced: boolean;
}

/** Names the bootstrap key got before its id was recorded: how an old data folder's key is recognised. */
const EARLIER_BOOTSTRAP_KEY_NAMES = new Set(['admin', 'admin (HARK_API_KEY)']);
const BOOTSTRAP_KEY_NAME = 'admin (npm start)';

async function readSetting(): Promise<BootstrapSetting | undefined> {
  return getItem<BootstrapSetting>(settingKey('bootstrap'));
}

/** The keys that are the bootstrap key today: the recorded one, or for an old data folder those named like it. */
async function currentBootstrapKeys(setting: BootstrapSetting): Promise<ApiKeyItem[]> {
  const keys = (await listApiKeys(setting.accountId)).filter((k) => k.accountUserId === setting.accountUserId);
  return setting.apiKeyId ? keys.filter((k) => k.keyId === setting.apiKeyId) : keys.filter((k) => EARLIER_BOOTSTRAP_KEY_NAMES.has(k.name));
}

function settingWrite(setting: BootstrapSetting, previousKeyId: string | undefined): TransactItem {
  return {
    Put: {
      Item: { ...settingKey('bootstrap'), ...setting },
      ...(previousKeyId
        ? { ConditionExpression: 'apiKeyId = :previous', ExpressionAttributeValues: { ':previous': previousKeyId } }
        : { ConditionExpression: 'attribute_not_exists(apiKeyId)' }),
    },
  };
}

/** Makes `key` (or a generated one) the bootstrap key: writes it unless it exists, records it, revokes the others. */
async function makeBootstrapKey(setting: BootstrapSetting, key: string | undefined): Promise<{ apiKey: string; replaced: boolean }> {
  const existing = key ? await findApiKey(key) : undefined;
  const writes: TransactItem[] = [];
  let chosen: { key: string; keyId: string };
  if (existing && existing.accountUserId !== setting.accountUserId) {
    throw new ConfigError('HARK_API_KEY', 'HARK_API_KEY is already the API key of another account user: choose another value');
  }
  if (existing) {
    chosen = { key: key!, keyId: existing.keyId };
  } else {
    const issued = newApiKeyItem({ accountId: setting.accountId, accountUserId: setting.accountUserId, userId: setting.userId, name: BOOTSTRAP_KEY_NAME, ...(key ? { key } : {}) });
    writes.push({ Put: { Item: { ...issued.item }, ConditionExpression: 'attribute_not_exists(pk)' } });
    chosen = issued;
  }
  const revoked = (await currentBootstrapKeys(setting)).filter((old) => old.keyId !== chosen.keyId);
  for (const old of revoked) writes.push({ Delete: { Key: { pk: old.pk, sk: old.sk } } });
  writes.push(settingWrite({ ...setting, apiKeyId: chosen.keyId }, setting.apiKeyId));
  await transact(writes);
  return { apiKey: chosen.key, replaced: revoked.length > 0 };
}

function rememberedKey(keyFile: string): string | undefined {
  return existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() || undefined : undefined;
}

export async function bootstrapLocal(dataDir: string, requestedKey: string | undefined): Promise<Bootstrapped> {
  const keyFile = join(dataDir, ADMIN_KEY_FILE);
  const stored = await readSetting();
  if (!stored || !(await getAccount(stored.accountId))) {
    const created = await createAccount({ name: 'Local', adminEmail: 'admin@hark.local', adminName: 'Admin', ...(requestedKey ? { apiKey: requestedKey } : {}) });
    const setting: BootstrapSetting = { accountId: created.account.id, accountUserId: created.accountUser.id, userId: created.user.id, apiKeyId: created.apiKeyId };
    await transact([{ Put: { Item: { ...settingKey('bootstrap'), ...setting } } }]);
    if (requestedKey) rmSync(keyFile, { force: true });
    else writeFileSync(keyFile, `${created.apiKey}\n`, { mode: 0o600 });
    return { accountId: setting.accountId, accountUserId: setting.accountUserId, apiKey: created.apiKey, created: true, replaced: false };
  }
  const result = { accountId: stored.accountId, accountUserId: stored.accountUserId, created: false };
  const isCurrent = async (key: string) => stored.apiKeyId !== undefined && (await findApiKey(key))?.keyId === stored.apiKeyId;

  if (requestedKey) {
    // The generated key of an earlier start is no longer the bootstrap key once the variable names one.
    rmSync(keyFile, { force: true });
    if (await isCurrent(requestedKey)) return { ...result, apiKey: requestedKey, replaced: false };
    return { ...result, ...(await makeBootstrapKey(stored, requestedKey)) };
  }
  const remembered = rememberedKey(keyFile);
  if (remembered && (await isCurrent(remembered))) return { ...result, apiKey: remembered, replaced: false };
  // The remembered key is gone (revoked, its file removed) or HARK_API_KEY named another one until now.
  const known = remembered && (await findApiKey(remembered));
  const made = await makeBootstrapKey(stored, known && known.accountUserId === stored.accountUserId ? remembered : undefined);
  writeFileSync(keyFile, `${made.apiKey}\n`, { mode: 0o600 });
  return { ...result, ...made };
}
