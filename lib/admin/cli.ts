// Operator commands: `npm run admin -- <command> [options]`.
// Talks to the local data folder (the running `npm start`, or its own DynamoDB Local on that folder),
// or, with --aws --table <name>, to a deployed table using the usual AWS credentials.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccount, getAccount } from '../accounts/accounts.ts';
import { issueApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { findEntity } from '../db/repository.ts';
import { ensureTable, startDynamo, type LocalDynamo } from '../local/dynamo.ts';
import { freePort } from '../local/ports.ts';
import { RUNTIME_FILE, type RuntimeInfo } from '../local/runtime-file.ts';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-account <name> --admin-email <email> [--admin-name <name>] [--sso]
      Creates an account, its admin account user and a new admin API key (printed once).
  create-api-key --account <account id> --account-user <account user id> [--name <label>]
      Issues a new API key acting as that account user (printed once).
  list-api-keys --account <account id>
  revoke-api-key --account <account id> --key-id <key id>

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

function required(values: Parsed['values'], name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Points the data layer at the right table; returns a cleanup for a DynamoDB Local it started. */
async function connect(values: Parsed['values']): Promise<LocalDynamo | undefined> {
  if (values.aws) {
    process.env.HARK_TABLE_NAME = required(values, 'table');
    if (typeof values.region === 'string') process.env.AWS_REGION = values.region;
    delete process.env.HARK_DYNAMODB_ENDPOINT;
    return undefined;
  }
  if (process.env.HARK_DYNAMODB_ENDPOINT) return undefined;
  const dataDir = resolve((values['data-dir'] as string | undefined) ?? process.env.HARK_DATA_DIR ?? '.data');
  const runtimeFile = join(dataDir, RUNTIME_FILE);
  if (existsSync(runtimeFile)) {
    const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as RuntimeInfo;
    if (processAlive(runtime.pid)) {
      process.env.HARK_DYNAMODB_ENDPOINT = runtime.dynamoEndpoint;
      process.env.HARK_TABLE_NAME = runtime.tableName;
      return undefined;
    }
  }
  const dynamo = await startDynamo({ dataDir: join(dataDir, 'dynamodb'), port: await freePort() });
  process.env.HARK_DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.HARK_TABLE_NAME ??= 'hark';
  await ensureTable(dynamo.endpoint, process.env.HARK_TABLE_NAME);
  return dynamo;
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
      const accountId = required(values, 'account');
      if (!(await getAccount(accountId))) throw new UsageError(`No account ${accountId}`);
      const accountUser = await findEntity<{ user_id: string; status?: string }>('ACCOUNT_USER', accountId, required(values, 'account-user'));
      if (!accountUser) throw new UsageError(`No account user ${values['account-user']} in account ${accountId}`);
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
      const keys = await listApiKeys(required(values, 'account'));
      return { api_keys: keys.map((k) => ({ id: k.keyId, name: k.name, account_user_id: k.accountUserId, created_at: k.createdAt })) };
    }
    case 'revoke-api-key': {
      const revoked = await revokeApiKey(required(values, 'account'), required(values, 'key-id'));
      if (!revoked) throw new UsageError(`No API key ${values['key-id']} in account ${values.account}`);
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
  let dynamo: LocalDynamo | undefined;
  try {
    dynamo = await connect(parsed.values);
    print(await run(parsed), parsed.values.json === true);
    return 0;
  } catch (error) {
    console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : `admin: ${(error as Error).message}`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await dynamo?.stop();
  }
}

process.exitCode = await main();
