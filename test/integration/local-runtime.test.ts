// The two-command promise and the operator CLI, exercised as a user runs them: `npm start` in a fresh
// data folder, a restart, Ctrl-C, a machine without Java, and API keys issued, listed and revoked.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { authenticate } from '#lib/auth/api-keys.ts';
import { newAccount, request, useTestStack } from './helpers.ts';
import { platformNeed } from '../support/platform.ts';
import { accepts, canReadSockets, isLoopback, listeningSockets, openToOthers, outsideAddresses } from './listening-sockets.ts';

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

/** Runs `node lib/local/start.ts` (what `npm start` runs) without waiting for anything. */
function spawnStart(dataDir: string, port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['lib/local/start.ts'], {
    env: { ...withoutHarkSettings(process.env), HARK_DATA_DIR: dataDir, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** The environment without the variables `npm start` sets for itself (a test worker may have them). */
function withoutHarkSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('HARK_')));
}

/** Runs `node lib/local/start.ts` (what `npm start` runs) and waits for the line with the key. */
async function start(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Started> {
  const { child, output } = spawnStart(dataDir, port, env);
  const key = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not print a key: ${output()}`)), 90_000);
    const check = () => {
      const match = /Admin API key: (\S+)/.exec(output());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}: ${output()}`));
    });
  });
  return { child, output, baseUrl: `http://127.0.0.1:${port}`, key };
}

/** Runs `npm start` to its end (it fails at once in these cases) and answers its exit code and stderr lines. */
async function failedStart(env: Record<string, string | undefined>): Promise<{ code: number; lines: string[] }> {
  const failure = await run(process.execPath, ['lib/local/start.ts'], { env: env as NodeJS.ProcessEnv }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  if (!failure) throw new Error('npm start did not fail');
  return { code: failure.code, lines: failure.stderr.trim().split('\n').filter((line) => !line.startsWith('npm warn')) };
}

/** Resolves once something accepts TCP connections on the port (a connect attempt per turn, no fixed delay). */
async function portAccepts(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('npm start exited before listening');
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    await new Promise((r) => setImmediate(r));
  }
}

/** An environment where `java` cannot be found: whatever fails there fails before Java would start. */
const noJava = (dataDir: string, env: Record<string, string>) => ({ PATH: dirname(process.execPath), HARK_DATA_DIR: dataDir, ...env });

const newDataDir = (prefix = 'hark-start-') => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dataDirs.push(dir);
  return dir;
};

function stop(started: Started, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
  return new Promise((resolve) => {
    started.child.once('exit', (code) => resolve(code));
    started.child.kill(signal);
  });
}

/** Whether any process (node, DynamoDB Local's java) still names the data folder on its command line. */
async function processesOf(dataDir: string): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid=,args=']);
  return stdout.split('\n').filter((line) => line.includes(dataDir) && !line.includes(' ps '));
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

  it('uses HARK_API_KEY as the one admin key: a changed value replaces the old key, unsetting it goes back to a generated one', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    const status = (started: Started, key: string) =>
      fetch(`${started.baseUrl}/api/v4/schedules`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    const chosen = 'hark_chosen-by-the-operator-0123456789';
    const changed = 'hark_changed-by-the-operator-9876543210';

    const first = await start(dataDir, port, { HARK_API_KEY: chosen });
    try {
      expect(first.key).toBe(chosen);
      expect(first.output()).toMatch(/^Account id: +\S+$/m);
      expect(await status(first, chosen)).toBe(200);
    } finally {
      // A process manager's stop: the same clean exit as Ctrl-C.
      expect(await stop(first, 'SIGTERM')).toBe(0);
    }
    const second = await start(dataDir, port, { HARK_API_KEY: changed });
    try {
      expect(second.key).toBe(changed);
      expect(second.output()).toContain('replaces the previous admin key');
      expect(await status(second, changed)).toBe(200);
      expect(await status(second, chosen)).toBe(401);
    } finally {
      // A closed terminal.
      expect(await stop(second, 'SIGHUP')).toBe(0);
    }
    const third = await start(dataDir, port);
    try {
      expect(third.key).not.toBe(changed);
      expect(readFileSync(join(dataDir, 'admin-api-key'), 'utf8').trim()).toBe(third.key);
      expect(await status(third, third.key)).toBe(200);
      expect(await status(third, changed)).toBe(401);
    } finally {
      await stop(third);
    }
  });

  it('stops everything when the npm process that started it is ended, as a process manager or an IDE ends it', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    const npm = spawn('npm', ['start'], { env: { ...withoutHarkSettings(process.env), HARK_DATA_DIR: dataDir, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await vi.waitFor(() => expect(output).toMatch(/Admin API key: \S+/), { timeout: 90_000, interval: 200 });
    expect(await processesOf(dataDir)).not.toEqual([]);
    // SIGKILL: npm cannot pass anything on; node sees its parent gone and stops the rest.
    npm.kill('SIGKILL');
    await vi.waitFor(
      async () => {
        expect(await processesOf(dataDir)).toEqual([]);
        expect(existsSync(join(dataDir, 'hark.lock'))).toBe(false);
      },
      { timeout: 30_000, interval: 250 },
    );
    await expect(fetch(`http://127.0.0.1:${port}/api/v4/schedules`)).rejects.toThrow();
  });

  it('refuses a HARK_API_KEY shorter than 32 characters in one line, before starting anything', async () => {
    const dataDir = newDataDir();
    const { code, lines } = await failedStart(noJava(dataDir, { HARK_API_KEY: 'short', PORT: String(await freePort()) }));
    expect(code).toBe(1);
    expect(lines).toEqual(['HARK_API_KEY must be 32 to 512 printable characters without spaces, got 5 characters']);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it.each([
    ['abc', 'PORT must be a TCP port number from 1 to 65535, got "abc"'],
    ['', 'PORT must be a TCP port number from 1 to 65535, got ""'],
    ['70000', 'PORT must be a TCP port number from 1 to 65535, got "70000"'],
  ])('refuses PORT=%j in one line before Java starts', async (port, message) => {
    const dataDir = newDataDir();
    const { code, lines } = await failedStart(noJava(dataDir, { PORT: port }));
    expect(code).toBe(1);
    expect(lines).toEqual([message]);
  });

  it('says in one line which port is in use and how to fix it, before Java starts', async () => {
    const dataDir = newDataDir();
    const taken = createServer();
    const port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)));
    try {
      const { code, lines } = await failedStart(noJava(dataDir, { PORT: String(port) }));
      expect(code).toBe(1);
      expect(lines).toEqual([`port ${port} is in use: set PORT to a free port`]);
      expect(existsSync(join(dataDir, 'hark.lock'))).toBe(false);
    } finally {
      taken.close();
    }
  });

  it('says in one line that HOST is not an address of this machine, before Java starts', async () => {
    const dataDir = newDataDir();
    const { code, lines } = await failedStart(noJava(dataDir, { PORT: String(await freePort()), HOST: '192.0.2.1' }));
    expect(code).toBe(1);
    expect(lines).toEqual(['192.0.2.1 is not an address of this machine: set HOST to one (127.0.0.1, or 0.0.0.0 for every interface)']);
  });

  it('answers the first authenticated request the moment its port accepts connections', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    const key = 'hark_ready-before-listening-0123456789';
    const { child, output } = spawnStart(dataDir, port, { HARK_API_KEY: key });
    const started: Started = { child, output, baseUrl: `http://127.0.0.1:${port}`, key };
    try {
      await portAccepts(port, child);
      const reply = await fetch(`${started.baseUrl}/api/v4/schedules`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'First request' }),
      });
      expect(reply.status).toBe(201);
    } finally {
      await stop(started);
    }
  });

  const procNet = platformNeed(canReadSockets, 'no /proc/net/tcp here: which addresses npm start listens on cannot be read');
  it.skipIf(procNet.skip)('listens on loopback only (gateway, DynamoDB Local, SQS emulator, SMTP listener) and keeps its data folder private', async () => {
    procNet.require();
    const dataDir = join(newDataDir(), 'fresh');
    const [port, smtpPort] = [await freePort(), await freePort()];
    const started = await start(dataDir, port, { HARK_SMTP_INBOUND_PORT: String(smtpPort), HARK_INBOUND_EMAIL_DOMAIN: 'inbound.hark.test' });
    try {
      expect(started.output()).toContain(`Inbound mail:  smtp://127.0.0.1:${smtpPort} for <integration id>@inbound.hark.test`);
      const sockets = listeningSockets(started.child.pid!);
      // The gateway, the SMTP listener and the SQS emulator in node, DynamoDB Local in its java child.
      expect(sockets.map((s) => s.port)).toContain(port);
      expect(sockets.map((s) => s.port)).toContain(smtpPort);
      expect(sockets.length).toBeGreaterThanOrEqual(3);
      expect(new Set(sockets.map((s) => s.pid)).size).toBe(2);
      expect(sockets.filter((s) => !isLoopback(s.address))).toEqual([]);
      // From outside: connecting to this machine's other addresses is refused on every port it listens on.
      const outside = outsideAddresses();
      if (outside.length === 0) console.warn('Could not check connections from outside: this machine has no address other than loopback');
      for (const address of outside) for (const socket of sockets) expect(await accepts(address, socket.port), `${address} port ${socket.port}`).toBe(false);
      expect(openToOthers(dataDir)).toEqual([]);
      expect(readdirSync(join(dataDir, 'dynamodb')).length).toBeGreaterThan(0);
      expect(readdirSync(join(dataDir, 'queues')).length).toBeGreaterThan(0);
    } finally {
      expect(await stop(started)).toBe(0);
    }
  });

  it('refuses a second start on the same data folder in one line naming the first, touching none of its files', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    const first = await start(dataDir, port);
    try {
      const runtimeFile = join(dataDir, 'runtime.json');
      const runtime = readFileSync(runtimeFile, 'utf8');
      // Without Java on its PATH: had it gone as far as starting a DynamoDB Local on the folder, it would say so.
      const { code, lines } = await failedStart(noJava(dataDir, { PORT: String(await freePort()) }));
      expect(code).toBe(1);
      expect(lines).toEqual([
        `Hark is already running on ${dataDir}: npm start (pid ${first.child.pid}, ${first.baseUrl}). Stop it first, or set HARK_DATA_DIR to another folder.`,
      ]);
      expect(readFileSync(runtimeFile, 'utf8')).toBe(runtime);
      expect(JSON.parse(readFileSync(join(dataDir, 'hark.lock'), 'utf8'))).toMatchObject({ pid: first.child.pid });
      const reply = await fetch(`${first.baseUrl}/api/v4/schedules`, { headers: { authorization: `Bearer ${first.key}` } });
      expect(reply.status).toBe(200);
    } finally {
      expect(await stop(first)).toBe(0);
    }
    expect(existsSync(join(dataDir, 'hark.lock'))).toBe(false);
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dataDir = newDataDir();
    const gone = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) => gone.once('exit', () => resolve(gone.pid!)));
    writeFileSync(join(dataDir, 'hark.lock'), JSON.stringify({ pid: deadPid, holder: 'npm start', baseUrl: 'http://127.0.0.1:1' }));
    const started = await start(dataDir, await freePort());
    try {
      expect(JSON.parse(readFileSync(join(dataDir, 'hark.lock'), 'utf8'))).toMatchObject({ pid: started.child.pid });
    } finally {
      expect(await stop(started)).toBe(0);
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

  it('names an unknown account, account user or key in every command that takes one, and exits non-zero', async () => {
    const account = await newAccount('CLI unknowns');
    const failure = (...args: string[]) => cli(...args).then(
      () => undefined,
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    for (const args of [
      ['list-api-keys', '--account', 'nope'],
      ['revoke-api-key', '--account', 'nope', '--key-id', 'nope'],
      ['create-api-key', '--account', 'nope', '--account-user', account.adminAccountUserId],
    ]) {
      const failed = await failure(...args);
      expect(failed?.code, args.join(' ')).toBe(2);
      expect(failed!.stderr.trim().split('\n')[0]).toMatch(/^No account nope: /);
      expect(failed!.stdout).toBe('');
    }
    const noUser = await failure('create-api-key', '--account', account.accountId, '--account-user', 'nope');
    expect(noUser?.code).toBe(2);
    expect(noUser!.stderr).toMatch(new RegExp(`^No account user nope in account ${account.accountId}`));
    const noKey = await failure('revoke-api-key', '--account', account.accountId, '--key-id', 'nope');
    expect(noKey?.code).toBe(2);
    expect(noKey!.stderr).toMatch(new RegExp(`^No API key nope in account ${account.accountId}`));
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
