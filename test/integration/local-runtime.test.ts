// The two-command promise and the operator CLI, exercised as a user runs them: `npm start` in a fresh
// data folder, a restart, Ctrl-C, a machine without Java, and API keys issued, listed and revoked.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { authenticate } from '#lib/auth/api-keys.ts';
import { newAccount, request, useTestStack } from './helpers.ts';

const run = promisify(execFile);
const dataDirs: string[] = [];

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  baseUrl: string;
  key: string;
}

/** Runs `node lib/local/start.ts` (what `npm start` runs) and waits for the line with the key. */
async function start(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['lib/local/start.ts'], {
    env: { ...process.env, HARK_DATA_DIR: dataDir, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const key = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not print a key: ${output}`)), 90_000);
    const check = () => {
      const match = /Admin API key: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}: ${output}`));
    });
  });
  return { child, output: () => output, baseUrl: `http://127.0.0.1:${port}`, key };
}

function stop(started: Started): Promise<number | null> {
  return new Promise((resolve) => {
    started.child.once('exit', (code) => resolve(code));
    started.child.kill('SIGINT');
  });
}

describe('npm start', { timeout: 180_000 }, () => {
  it('serves the API with a bootstrapped key, keeps data and key across a restart, and stops on Ctrl-C', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-start-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const first = await start(dataDir, port);
    try {
      expect(first.output()).toContain(`Hark is running at ${first.baseUrl}`);
      const anonymous = await fetch(`${first.baseUrl}/api/v4/schedules`);
      expect(anonymous.status).toBe(401);
      const auth = { authorization: `Bearer ${first.key}`, 'content-type': 'application/json' };
      const created = await fetch(`${first.baseUrl}/api/v4/schedules`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Survives' }) });
      expect(created.status).toBe(201);
    } finally {
      expect(await stop(first)).toBe(0);
    }
    const second = await start(dataDir, port);
    try {
      expect(second.key).toBe(first.key);
      const listed = await fetch(`${second.baseUrl}/api/v4/schedules`, { headers: { authorization: `Bearer ${second.key}` } });
      expect(listed.status).toBe(200);
      const body = (await listed.json()) as { data: { name: string }[]; total_count: number; has_more: boolean };
      expect(body).toMatchObject({ total_count: 1, has_more: false });
      expect(body.data.map((s) => s.name)).toEqual(['Survives']);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  });

  it('uses HARK_API_KEY as the admin key when it is set', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-start-'));
    dataDirs.push(dataDir);
    const started = await start(dataDir, await freePort(), { HARK_API_KEY: 'hark_chosen-by-the-operator-0123456789' });
    try {
      expect(started.key).toBe('hark_chosen-by-the-operator-0123456789');
      const reply = await fetch(`${started.baseUrl}/api/v4/schedules`, { headers: { authorization: `Bearer ${started.key}` } });
      expect(reply.status).toBe(200);
    } finally {
      await stop(started);
    }
  });

  it('says in one line that Java is needed when it is missing, and exits 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-nojava-'));
    dataDirs.push(dataDir);
    const failure = await run(process.execPath, ['lib/local/start.ts'], {
      env: { PATH: dirname(process.execPath), HARK_DATA_DIR: dataDir, PORT: String(await freePort()) },
    }).then(
      () => undefined,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const lines = failure!.stderr.trim().split('\n').filter((line) => !line.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Java 17 or newer is needed to run DynamoDB Local/);
  });
});

describe('operator CLI', () => {
  const cli = (...args: string[]) =>
    run(process.execPath, ['lib/admin/cli.ts', ...args], {
      env: { ...process.env, HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), HARK_TABLE_NAME: inject('tableName') },
    });

  it('issues, lists and revokes API keys; a revoked key answers 401 in every process that has not remembered it', async () => {
    const account = await newAccount('CLI');
    const issued = JSON.parse(
      (await cli('create-api-key', '--account', account.accountId, '--account-user', account.adminAccountUserId, '--name', 'ci', '--json')).stdout,
    ) as { api_key: string; api_key_id: string };
    expect((await request('GET', '/api/v4/schedules', { key: issued.api_key })).status).toBe(200);

    const listed = JSON.parse((await cli('list-api-keys', '--account', account.accountId, '--json')).stdout) as { api_keys: { id: string; name: string }[] };
    expect(listed.api_keys.map((k) => k.name).sort()).toEqual(['admin', 'ci']);
    expect(JSON.stringify(listed)).not.toContain(issued.api_key);

    await cli('revoke-api-key', '--account', account.accountId, '--key-id', issued.api_key_id, '--json');
    const after = JSON.parse((await cli('list-api-keys', '--account', account.accountId, '--json')).stdout) as { api_keys: { id: string }[] };
    expect(after.api_keys.map((k) => k.id)).not.toContain(issued.api_key_id);
    // The CLI is another process: the running gateway, which just served this key, refuses it once its memory of
    // the key expires (AUTH_CACHE_TTL_MS, docs/decisions/0005-auth-caching.md). A process that has not seen the key
    // refuses it at once; test/integration/hot-paths.test.ts shows a revoke in the serving process applying at once.
    useTestStack();
    await expect(authenticate(`Bearer ${issued.api_key}`)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect((await request('GET', '/api/v4/schedules', { key: account.adminKey })).status).toBe(200);
  });

  it('exits 2 with the usage for a missing option or an unknown account, changing nothing', async () => {
    const missing = await cli('create-account', 'Nameless').catch((error: { code: number; stderr: string }) => error);
    expect(missing).toMatchObject({ code: 2 });
    expect((missing as { stderr: string }).stderr).toMatch(/--admin-email is required/);
    const unknown = await cli('create-api-key', '--account', 'nope', '--account-user', 'nope').catch((error: { code: number; stderr: string }) => error);
    expect(unknown).toMatchObject({ code: 2 });
    expect((unknown as { stderr: string }).stderr).toMatch(/No account nope/);
  });
});
