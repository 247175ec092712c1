import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { addAccountUser, request, type Reply, type StackTarget, type TestAccount } from './helpers.ts';

const run = promisify(execFile);
let counter = 0;

/**
 * Adds a member (no roles) to the account through POST /account_users and issues them an API key with
 * the operator CLI; returns the key.
 */
export async function createMemberKey(owner: TestAccount, stack?: StackTarget): Promise<string> {
  counter += 1;
  const reply = await owner.api('POST', '/account_users', {
    user_attributes: { name: `Member ${counter}`, emails_attributes: [{ email: `member-${process.pid}-${Date.now()}-${counter}@example.test`, primary: true }] },
  });
  if (reply.status !== 201) throw new Error(`creating a member failed: ${reply.status} ${reply.text}`);
  const { stdout } = await run(
    process.execPath,
    ['lib/admin/cli.ts', 'create-api-key', '--account', owner.accountId, '--account-user', reply.body.id, '--name', 'member', '--json'],
    { env: { ...process.env, HARK_DYNAMODB_ENDPOINT: stack?.dynamoEndpoint ?? inject('dynamoEndpoint'), HARK_TABLE_NAME: stack?.tableName ?? inject('tableName') } },
  );
  return (JSON.parse(stdout.trim().split('\n').pop()!) as { api_key: string }).api_key;
}

/** A person of the account with an API key of their own (to act as someone paged). */
export interface KeyedPerson {
  id: string;
  prefix_id: string;
  key: string;
  api: (method: string, path: string, body?: unknown) => Promise<Reply>;
}

/** Adds an account user (no roles) and issues them an API key with the operator CLI. */
export async function personWithKey(account: TestAccount): Promise<KeyedPerson> {
  const au = await addAccountUser(account);
  const { stdout } = await run(
    process.execPath,
    ['lib/admin/cli.ts', 'create-api-key', '--account', account.accountId, '--account-user', au.id, '--name', 'person', '--json'],
    { env: { ...process.env, HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), HARK_TABLE_NAME: inject('tableName') } },
  );
  const key = (JSON.parse(stdout.trim().split('\n').pop()!) as { api_key: string }).api_key;
  return { id: au.id, prefix_id: au.prefix_id, key, api: (method, path, body) => request(method, `/api/v4${path}`, { key, body }) };
}
