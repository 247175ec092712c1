// The acceptance test of durable timers: `npm start` is killed (SIGKILL, with DynamoDB Local beside it, as a
// crash or a power cut would) while an escalation waits for its layer timeout; after a restart on the same data
// folder the next layer is still paged, exactly once. Time runs 60× faster (HARK_TIME_SCALE) so the default
// policy's 5-minute first layer waits 5 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { crash, killAll, startNpm } from './npm-start.ts';

const dataDirs: string[] = [];

afterAll(() => {
  killAll();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const start = (dataDir: string, port: number) => startNpm(dataDir, port, { HARK_TIME_SCALE: '60' });

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
