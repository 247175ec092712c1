// Heartbeat integrations on `npm start` with HARK_TIME_SCALE=60 (a 60-second interval with 60 seconds of grace is due
// 2 s after a ping): a heartbeat that never pinged is not armed; a missed beat pages once, even across a SIGKILL and a
// restart in between; the next ping resolves it; a disabled heartbeat is disarmed. docs/monitors.md, "Heartbeat".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { crash, killAll, startNpm, type Started } from './npm-start.ts';

const dataDirs: string[] = [];
afterAll(() => {
  killAll();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const start = (dataDir: string, port: number) => startNpm(dataDir, port, { HARK_TIME_SCALE: '60' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function heartbeatAlerts(stack: Started, integrationId: string): Promise<any[]> {
  const reply = await stack.api('GET', `/alerts?thirdparty_id=heartbeat&limit=100`);
  expect(reply.status).toBe(200);
  return (reply.body.data as any[]).filter((a) => a.source_id === integrationId);
}

describe('heartbeats', { timeout: 240_000 }, () => {
  it('not armed before a first ping; a missed beat pages once across a crash; a ping resolves it; disabling disarms', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-heartbeat-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const first = await start(dataDir, port);
    const me = (await first.api('GET', '/account_users?limit=1')).body.data[0].id as string;

    const refused = await first.api('POST', '/integrations', { name: 'Nightly', integration_type_id: 'heartbeat', account_user_ids: [me], options: { interval_seconds: 30 } });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('interval_seconds');

    const created = await first.api('POST', '/integrations', { name: 'Backup job', integration_type_id: 'heartbeat', account_user_ids: [me], options: { interval_seconds: 60, grace_seconds: 60 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const hook = created.body as { id: string; prefix_id: string };
    expect((await first.api('GET', `/integrations/${hook.id}`)).body).toMatchObject({ last_ping_at: null, next_due_at: null });

    // Never pinged: not armed, however long it waits.
    await sleep(3000);
    expect(await heartbeatAlerts(first, hook.id)).toEqual([]);

    // A GET with no body is a ping; it arms the heartbeat at once.
    const ping = await fetch(`${first.baseUrl}/integration/${hook.prefix_id}`);
    expect(ping.status).toBe(200);
    const armed = (await first.api('GET', `/integrations/${hook.id}`)).body;
    expect(armed.last_ping_at).toEqual(expect.any(String));
    expect(Date.parse(armed.next_due_at) - Date.parse(armed.last_ping_at)).toBe(2000);

    // Crash while the beat is awaited, stay down past its due time, start again: the missed beat still pages, once.
    await crash(first);
    await sleep(3000);
    const second = await start(dataDir, port);
    try {
      await vi.waitFor(async () => expect(await heartbeatAlerts(second, hook.id)).toHaveLength(1), { timeout: 60_000, interval: 250 });
      await sleep(3000);
      const [missed] = await heartbeatAlerts(second, hook.id);
      expect(await heartbeatAlerts(second, hook.id)).toHaveLength(1);
      expect(missed).toMatchObject({ title: 'Backup job missed its heartbeat', status: 'open' });
      expect(missed.description).toContain(`No ping since ${armed.last_ping_at}`);
      expect((await second.api('GET', `/integrations/${hook.id}`)).body.next_due_at).toBeNull();

      // The next ping (a POST with a text body) resolves it and arms the heartbeat again.
      const pong = await fetch(`${second.baseUrl}/integration/${hook.prefix_id}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'backup done' });
      expect(pong.status).toBe(200);
      await vi.waitFor(async () => expect((await heartbeatAlerts(second, hook.id))[0].status).toBe('resolved'), { timeout: 30_000, interval: 250 });

      // Disabled: disarmed (no new alert after the due time), and pings are refused.
      const disabled = await second.api('PUT', `/integrations/${hook.id}`, { enabled: false });
      expect(disabled.status).toBe(200);
      expect(disabled.body.next_due_at).toBeNull();
      await sleep(3500);
      expect(await heartbeatAlerts(second, hook.id)).toHaveLength(1);
      expect((await fetch(`${second.baseUrl}/integration/${hook.prefix_id}`)).status).toBe(405);
    } finally {
      await crash(second);
    }
  });
});
