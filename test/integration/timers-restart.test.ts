// The acceptance test of durable timers: `npm start` is killed (SIGKILL, with DynamoDB Local beside it, as a
// crash or a power cut would) while an escalation waits for its layer timeout; after a restart on the same data
// folder the next layer is still paged, exactly once. Time runs 60× faster (HARK_TIME_SCALE) so the default
// policy's 5-minute first layer waits 5 s.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '#lib/local/ports.ts';

const dataDirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  api: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
}

/** `node lib/local/start.ts` in a process group of its own, so DynamoDB Local can be killed with it. */
async function start(dataDir: string, port: number): Promise<Started> {
  const child = spawn(process.execPath, ['lib/local/start.ts'], {
    env: { ...process.env, HARK_DATA_DIR: dataDir, PORT: String(port), HARK_TIME_SCALE: '60' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const key = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not print a key: ${output}`)), 90_000);
    child.stdout!.on('data', () => {
      const match = /Admin API key: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}: ${output}`));
    });
  });
  const api = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`http://127.0.0.1:${port}/api/v4${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: reply.status, body: (await reply.json()) as any };
  };
  return { child, output: () => output, api };
}

/** SIGKILL to the whole process group: the node process and the DynamoDB Local it started, with no clean-up. */
function crash(started: Started): Promise<void> {
  return new Promise((resolve) => {
    started.child.once('exit', () => resolve());
    process.kill(-started.child.pid!, 'SIGKILL');
  });
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('a durable timer survives a crash of npm start', { timeout: 240_000 }, () => {
  it('pages the next layer after a SIGKILL and a restart, once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-crash-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const first = await start(dataDir, port);
    const person = async (name: string) => {
      const reply = await first.api('POST', '/account_users', {
        roles: { admin: false },
        user_attributes: { name, emails_attributes: [{ email: `${name.toLowerCase()}-${Date.now()}@example.test`, primary: true }] },
      });
      expect(reply.status).toBe(201);
      return reply.body.id as string;
    };
    const [alice, bob] = [await person('Alice'), await person('Bob')];
    const team = (await first.api('POST', '/teams', { name: 'Ops' })).body;
    for (const [layer, who] of [[1, alice], [2, bob]] as const) {
      const event = await first.api('POST', '/events', {
        start_time: iso(Date.now() - 3_600_000),
        end_time: iso(Date.now() + 3_600_000),
        layer,
        time_zone: 'UTC',
        schedule_ids: [team.schedule_id],
        account_user_ids: [who],
      });
      expect(event.status).toBe(201);
    }
    const created = await first.api('POST', '/alerts', { title: 'Disk full', urgency: 'high', destination_team_ids: [team.id] });
    expect(created.status).toBe(201);
    const alertId = created.body.id as string;
    const pagedOn = (logs: any[]) => logs.filter((l) => l.event === 'paged').map((l) => [l.account_user_id, l.layer]);
    const firstLogs = (await first.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data;
    expect(pagedOn(firstLogs)).toEqual([[alice, 1]]);

    // The layer-1 timer (5 s at 60×) is waiting: crash now, and stay down past its due time.
    await crash(first);
    await new Promise((r) => setTimeout(r, 6000));

    const second = await start(dataDir, port);
    try {
      await vi.waitFor(
        async () => {
          const logs = (await second.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data;
          expect(pagedOn(logs)).toContainEqual([bob, 2]);
        },
        { timeout: 60_000, interval: 250 },
      );
      const logs = (await second.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data;
      expect(pagedOn(logs).filter(([who, layer]) => who === bob && layer === 2)).toHaveLength(1);
      expect(logs.filter((l: any) => l.event === 'timeout')).toHaveLength(1);
      const workflows = (await second.api('GET', `/alerts/${alertId}/workflows?limit=100`)).body.data;
      expect(workflows.find((w: any) => w.account_user_id === alice && w.layer === 1)?.status).toBe('timed_out');
      expect(workflows.find((w: any) => w.account_user_id === bob && w.layer === 2)?.status).toBe('open');
    } finally {
      await crash(second);
    }
  });
});
