// What integration tests share: an HTTP client for the local gateway and fresh accounts made with the
// operator CLI, exactly as an operator would.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, inject, vi } from 'vitest';

const run = promisify(execFile);

export const baseUrl = () => inject('baseUrl');

/** Points this test worker's own data-layer calls (few tests need them) at the test stack. */
export function useTestStack(): void {
  process.env.HARK_DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
  process.env.HARK_TABLE_NAME = inject('tableName');
  process.env.HARK_SQS_ENDPOINT = inject('sqsEndpoint');
  process.env.HARK_INGEST_QUEUE_URL = inject('ingestQueueUrl');
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export async function request<T = any>(
  method: string,
  path: string,
  options: { key?: string | undefined; body?: unknown; rawBody?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${options.base ?? baseUrl()}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, body: parsed as T, headers: response.headers, text };
}

export interface TestAccount {
  accountId: string;
  adminKey: string;
  adminAccountUserId: string;
  /** Calls /api/v4 as this account's admin. */
  api: <T = any>(method: string, path: string, body?: unknown) => Promise<Reply<T>>;
}

let counter = 0;

/** A stack of the test's own (started with other settings), instead of the shared one. */
export interface StackTarget {
  baseUrl: string;
  dynamoEndpoint: string;
  tableName: string;
}

/** A fresh account with an admin key, created through `npm run admin -- create-account` (on `stack` when given). */
export async function newAccount(name = 'Test', stack?: StackTarget): Promise<TestAccount> {
  counter += 1;
  const email = `admin-${process.pid}-${Date.now()}-${counter}@example.test`;
  const { stdout } = await run(process.execPath, ['lib/admin/cli.ts', 'create-account', `${name} ${counter}`, '--admin-email', email, '--json'], {
    env: { ...process.env, HARK_DYNAMODB_ENDPOINT: stack?.dynamoEndpoint ?? inject('dynamoEndpoint'), HARK_TABLE_NAME: stack?.tableName ?? inject('tableName') },
  });
  const created = JSON.parse(stdout.trim().split('\n').pop()!) as { account_id: string; api_key: string; admin_account_user_id: string };
  const adminKey = created.api_key;
  return {
    accountId: created.account_id,
    adminKey,
    adminAccountUserId: created.admin_account_user_id,
    api: (method, path, body) => request(method, `/api/v4${path}`, { key: adminKey, body, ...(stack ? { base: stack.baseUrl } : {}) }),
  };
}

/** Asserts the JSON error body shape and returns its messages. */
export function errorMessages(reply: Reply): string[] {
  const body = reply.body as { errors?: { message: string }[]; code?: number };
  if (!body || !Array.isArray(body.errors) || body.code !== reply.status) {
    throw new Error(`Not an error body for ${reply.status}: ${reply.text}`);
  }
  return body.errors.map((e) => e.message);
}

export interface Ref {
  id: string;
  prefix_id: string;
}
export interface AccountUserRef extends Ref {
  user_id: string;
}

let people = 0;

/** A new account user (a new person) of the account, made through POST /account_users as an admin would. */
export async function addAccountUser(account: TestAccount, roles: { admin?: boolean } = {}): Promise<AccountUserRef> {
  people += 1;
  const email = `person-${process.pid}-${Date.now()}-${people}@example.test`;
  const reply = await account.api('POST', '/account_users', {
    roles: { admin: roles.admin ?? false },
    user_attributes: { name: `Person ${people}`, emails_attributes: [{ email, primary: true }] },
  });
  if (reply.status !== 201) throw new Error(`account user: ${reply.status} ${reply.text}`);
  return { id: reply.body.id, prefix_id: reply.body.prefix_id, user_id: reply.body.user_id };
}

/** The account user behind the account's admin key. */
export async function adminAccountUser(account: TestAccount): Promise<Ref> {
  const reply = await account.api('GET', `/account_users/${account.adminAccountUserId}`);
  if (reply.status !== 200) throw new Error(`account user: ${reply.status} ${reply.text}`);
  return { id: reply.body.id, prefix_id: reply.body.prefix_id };
}

export async function addTeam(account: TestAccount, name: string): Promise<Ref> {
  const reply = await account.api('POST', '/teams', { name });
  if (reply.status !== 201) throw new Error(`team: ${reply.status} ${reply.text}`);
  return { id: reply.body.id, prefix_id: reply.body.prefix_id };
}

/** An ISO instant without milliseconds, as clients write them. */
export const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A team whose schedule has `layers[i]` on call now on layer i + 1 (default policy: layers of 5, 10, 15 minutes), with
 * the ids of the events written (one per layer with people).
 */
export async function teamWithOnCall(
  account: TestAccount,
  layers: string[][],
  name = 'Ops',
): Promise<{ id: string; prefix_id: string; schedule_id: string; escalation_policy_id: string; event_ids: string[] }> {
  const team = (await account.api('POST', '/teams', { name })).body;
  const eventIds: string[] = [];
  const now = Date.now();
  for (const [i, people] of layers.entries()) {
    if (people.length === 0) continue;
    const reply = await account.api('POST', '/events', {
      start_time: isoSeconds(now - 3_600_000),
      end_time: isoSeconds(now + 3_600_000),
      layer: i + 1,
      time_zone: 'UTC',
      schedule_ids: [team.schedule_id],
      account_user_ids: people,
    });
    if (reply.status !== 201) throw new Error(`event: ${reply.status} ${reply.text}`);
    eventIds.push(reply.body.id);
  }
  return { ...team, event_ids: eventIds };
}

/** A weekly rotation of `people` on layer 1 of `scheduleId` (UTC) whose first turn starts at `firstMs`; checks the 201. */
export async function weeklyRotation(account: TestAccount, people: string[], scheduleId: string, firstMs: number): Promise<Reply> {
  const WEEK_MS = 7 * 24 * 3_600_000;
  const reply = await account.api('POST', '/events', {
    start_time: isoSeconds(firstMs),
    end_time: isoSeconds(firstMs + WEEK_MS),
    time_zone: 'UTC',
    layer: 1,
    repeat: true,
    frequency: 1,
    frequency_unit: 'weekly',
    rotation: true,
    account_user_ids: people,
    schedule_ids: [scheduleId],
  });
  if (reply.status !== 201) throw new Error(`rotation: ${reply.status} ${reply.text}`);
  return reply;
}

/** Polls every 150 ms until `check` returns a value, and returns it; throws after `ms`. */
export async function pollUntil<T>(check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The account's alerts with this thirdparty_id (up to 100, newest first), once `ready` holds for them. */
export async function alertsWithThirdpartyId(account: TestAccount, thirdpartyId: string, ready: (alerts: any[]) => boolean = (a) => a.length > 0): Promise<any[]> {
  let alerts: any[] = [];
  await vi.waitFor(
    async () => {
      alerts = (await account.api('GET', `/alerts?thirdparty_id=${encodeURIComponent(thirdpartyId)}&limit=100`)).body.data;
      expect(ready(alerts)).toBe(true);
    },
    { timeout: 15_000, interval: 100 },
  );
  return alerts;
}

/** The `total_count` a list answers (200 expected). */
export async function totalCount(account: TestAccount, path: string): Promise<number> {
  const reply = await account.api('GET', path);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as { total_count: number }).total_count;
}

/** The alert counts every list shows: all alerts, per status, and the team's. */
export async function alertTotals(account: TestAccount, teamId: string) {
  const [all, open, acknowledged, resolved, team] = await Promise.all([
    totalCount(account, '/alerts?limit=1'),
    totalCount(account, '/alerts?status=open&limit=1'),
    totalCount(account, '/alerts?status=acknowledged&limit=1'),
    totalCount(account, '/alerts?status=resolved&limit=1'),
    totalCount(account, `/teams/${teamId}/alerts?limit=1`),
  ]);
  return { all, open, acknowledged, resolved, team };
}
