// Operator commands: `npm run admin -- <command> [options]`.
// Talks to the local data folder (the running `npm start`, or its own DynamoDB Local on that folder),
// or, with --aws --table <name>, to a deployed table using the usual AWS credentials.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getAccount } from '../accounts/accounts.ts';
import { createAccount } from '../people/new-account.ts';
import { issueApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { config, ConfigError } from '../config.ts';
import { findEntity } from '../db/repository.ts';
import { ensureTable, JavaMissingError, startDynamo } from '../local/dynamo.ts';
import { acquireDataLock, DataFolderLockedError, describeOwner, processAlive } from '../local/lock.ts';
import { freePort } from '../local/ports.ts';
import { DataFolderNotPrivateError, DYNAMODB_FOLDER, keepDataFolderPrivate, tightenedNotice } from '../local/private-data.ts';
import { RUNTIME_FILE, type RuntimeInfo } from '../local/runtime-file.ts';
import { smokeCommand } from './smoke.ts';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-account <name> --admin-email <email> [--admin-name <name>] [--sso]
      Creates an account, its admin account user and a new admin API key (printed once).
  create-api-key --account <account id> --account-user <account user id> [--name <label>]
      Issues a new API key acting as that account user (printed once).
  list-api-keys --account <account id>
  revoke-api-key --account <account id> --key-id <key id>
  smoke [--url <base url>] [--key <admin API key>] [--person <email>] [--timeout <seconds>]
      Pages the account's canary and acknowledges through the page's link (\`smoke --help\`; docs/deploy.md).

Where:
  (default)                     the local data folder (HARK_DATA_DIR or --data-dir, default .data)
  --aws --table <name> [--region <region>]
                                a deployed table, with the standard AWS credential chain
  --json                        machine-readable output`;

interface Parsed {
  command: string | undefined;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

function parse(argv: string[]): Parsed {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      sso: { type: 'boolean' },
      account: { type: 'string' },
      'account-user': { type: 'string' },
      name: { type: 'string' },
      'key-id': { type: 'string' },
      aws: { type: 'boolean' },
      table: { type: 'string' },
      region: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return { command: positionals[0], positionals: positionals.slice(1), values };
}

class UsageError extends Error {}
/** Something named on the command line does not exist: the message alone says it, without the usage. */
class NotFoundError extends UsageError {}

function required(values: Parsed['values'], name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** Points the data layer at the right table; returns the cleanup of a DynamoDB Local it started. */
async function connect(values: Parsed['values']): Promise<(() => Promise<void>) | undefined> {
  if (values.aws) {
    process.env.HARK_TABLE_NAME = required(values, 'table');
    if (typeof values.region === 'string') process.env.AWS_REGION = values.region;
    delete process.env.HARK_DYNAMODB_ENDPOINT;
    return undefined;
  }
  if (process.env.HARK_DYNAMODB_ENDPOINT) return undefined;
  const dataDir = resolve((values['data-dir'] as string | undefined) ?? config().local.dataDir);
  const runtimeFile = join(dataDir, RUNTIME_FILE);
  if (existsSync(runtimeFile)) {
    const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as RuntimeInfo;
    if (processAlive(runtime.pid)) {
      process.env.HARK_DYNAMODB_ENDPOINT = runtime.dynamoEndpoint;
      process.env.HARK_TABLE_NAME = runtime.tableName;
      return undefined;
    }
  }
  // No `npm start` serves this folder: run a DynamoDB Local on it, holding the folder's lock meanwhile.
  const notice = tightenedNotice(dataDir, keepDataFolderPrivate(dataDir));
  if (notice) console.error(notice);
  let lock;
  try {
    lock = acquireDataLock(dataDir, { holder: 'npm run admin' });
  } catch (error) {
    if (!(error instanceof DataFolderLockedError)) throw error;
    throw new DataFolderLockedError(dataDir, error.owner, `The data folder ${dataDir} is in use by ${describeOwner(error.owner)}: run this again once it has started (or finished).`);
  }
  try {
    const dynamo = await startDynamo({ dataDir: join(dataDir, DYNAMODB_FOLDER), port: await freePort() });
    process.env.HARK_DYNAMODB_ENDPOINT = dynamo.endpoint;
    const tableName = config().tableName;
    await ensureTable(dynamo.endpoint, tableName);
    return async () => {
      await dynamo.stop();
      lock.release();
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The account named by --account, or a NotFoundError naming it. */
async function existingAccount(values: Parsed['values']): Promise<string> {
  const accountId = required(values, 'account');
  if (!(await getAccount(accountId))) throw new NotFoundError(`No account ${accountId}: \`npm start\` prints the local account id, \`create-account\` prints a new one`);
  return accountId;
}

async function run(parsed: Parsed): Promise<Record<string, unknown>> {
  const { command, positionals, values } = parsed;
  switch (command) {
    case 'create-account': {
      const name = positionals[0];
      if (!name) throw new UsageError('create-account needs the account name');
      const result = await createAccount({
        name,
        adminEmail: required(values, 'admin-email'),
        ...(typeof values['admin-name'] === 'string' ? { adminName: values['admin-name'] } : {}),
        sso: values.sso === true,
      });
      return {
        account_id: result.account.id,
        account_name: result.account.name,
        admin_account_user_id: result.accountUser.id,
        admin_user_id: result.user.id,
        api_key_id: result.apiKeyId,
        api_key: result.apiKey,
      };
    }
    case 'create-api-key': {
      const accountId = await existingAccount(values);
      const accountUser = await findEntity<{ user_id: string; status?: string }>('ACCOUNT_USER', accountId, required(values, 'account-user'));
      if (!accountUser) {
        throw new NotFoundError(`No account user ${values['account-user']} in account ${accountId} (account user ids are the ids GET /api/v4/account_users answers)`);
      }
      if (accountUser.data.status === 'invited') throw new UsageError(`Account user ${accountUser.id} has not accepted the invitation yet`);
      const issued = await issueApiKey({
        accountId,
        accountUserId: accountUser.id,
        userId: accountUser.data.user_id,
        name: (values.name as string | undefined) ?? 'cli',
      });
      return { account_id: accountId, account_user_id: accountUser.id, api_key_id: issued.keyId, api_key: issued.key };
    }
    case 'list-api-keys': {
      const keys = await listApiKeys(await existingAccount(values));
      return { api_keys: keys.map((k) => ({ id: k.keyId, name: k.name, account_user_id: k.accountUserId, created_at: k.createdAt })) };
    }
    case 'revoke-api-key': {
      const accountId = await existingAccount(values);
      const revoked = await revokeApiKey(accountId, required(values, 'key-id'));
      if (!revoked) throw new NotFoundError(`No API key ${values['key-id']} in account ${accountId} (list-api-keys shows the key ids)`);
      return { revoked: values['key-id'] };
    }
    default:
      throw new UsageError(command ? `Unknown command ${command}` : 'No command given');
  }
}

function print(result: Record<string, unknown>, json: boolean): void {
  if (json) {
    console.log(JSON.stringify(result));
    return;
  }
  for (const [key, value] of Object.entries(result)) {
    console.log(`${key.padEnd(22)} ${typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value)}`);
  }
  if ('api_key' in result) console.log('Keep the API key now: only its hash is stored, it cannot be shown again.');
}

async function main(): Promise<number> {
  // The smoke check talks to a deployment's API, not to its table: its own options and usage (lib/admin/smoke.ts).
  if (process.argv[2] === 'smoke') return smokeCommand(process.argv.slice(3));
  let parsed: Parsed;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help || !parsed.command) {
    console.log(USAGE);
    return parsed.command || parsed.values.help ? 0 : 2;
  }
  let disconnect: (() => Promise<void>) | undefined;
  try {
    config();
    disconnect = await connect(parsed.values);
    print(await run(parsed), parsed.values.json === true);
    return 0;
  } catch (error) {
    if (error instanceof NotFoundError) console.error(error.message);
    else if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof ConfigError || error instanceof DataFolderLockedError || error instanceof JavaMissingError || error instanceof DataFolderNotPrivateError) console.error(error.message);
    else console.error(`admin: ${(error as Error).message}`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await disconnect?.();
  }
}

process.exitCode = await main();
