// The ingest path survives a crash: `npm start` is SIGKILLed (with DynamoDB Local beside it) while the worker is
// part-way through the queued webhook requests; after a restart on the same data folder every request is applied
// exactly once and in order (create, then acknowledge, then resolve, per alert), and nobody is paged twice.
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

const ALERTS = 40;

describe('a crash of npm start mid-batch', { timeout: 360_000 }, () => {
  it('applies every queued event once, in order, after a SIGKILL and a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-ingest-crash-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const first = await startNpm(dataDir, port);
    const person = await first.api('POST', '/account_users', {
      roles: { admin: false },
      user_attributes: { name: 'Alice', emails_attributes: [{ email: `alice-${Date.now()}@example.test`, primary: true }] },
    });
    expect(person.status).toBe(201);
    const integration = await first.api('POST', '/integrations', { name: 'Monitor', account_user_ids: [person.body.id] });
    expect(integration.status).toBe(201);

    const send = async (payload: Record<string, unknown>) => {
      const reply = await fetch(`${first.baseUrl}/integration/${integration.body.prefix_id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(reply.status).toBe(200);
    };
    const ids = Array.from({ length: ALERTS }, (_, i) => `host-${i}`);
    // Interleaved across alerts, in order within each: the queue holds 3 × ALERTS requests.
    for (const event of ['create', 'acknowledge', 'resolve']) {
      await Promise.all(ids.map((id) => send({ event_type: event, Id: id, Title: `${id} down` })));
    }

    // Crash as soon as the worker has applied something, while most of the queue is still waiting or in flight.
    const countOf = async (api: Started['api']) => (await api('GET', '/alerts?limit=1')).body.total_count as number;
    await vi.waitFor(async () => expect(await countOf(first.api)).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    await crash(first);

    const second = await startNpm(dataDir, port);
    try {
      const alertsOf = async (id: string) => (await second.api('GET', `/alerts?thirdparty_id=${id}&limit=100`)).body.data as any[];
      // In-flight messages come back after the visibility timeout (30 s locally).
      await vi.waitFor(
        async () => {
          for (const id of ids) expect((await alertsOf(id)).map((a) => a.status)).toEqual(['resolved']);
        },
        { timeout: 180_000, interval: 1000 },
      );
      for (const id of ids) {
        const [alert] = await alertsOf(id);
        expect(alert.dedup_count).toBe(0);
        expect(alert.acknowledged_at).not.toBeNull();
        const events = ((await second.api('GET', `/alerts/${alert.id}/logs?limit=100`)).body.data as { event: string }[]).map((l) => l.event);
        expect(events.filter((e) => e === 'paged')).toHaveLength(1);
        expect(events.filter((e) => e === 'acknowledged')).toHaveLength(1);
        expect(events.filter((e) => e === 'resolved')).toHaveLength(1);
        expect(events.indexOf('created')).toBeLessThan(events.indexOf('acknowledged'));
        expect(events.indexOf('acknowledged')).toBeLessThan(events.indexOf('resolved'));
      }
      expect(await countOf(second.api)).toBe(ALERTS);
    } finally {
      await crash(second);
    }
  });
});
