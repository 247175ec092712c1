// The ingest path survives a crash: `npm start` is SIGKILLed (with DynamoDB Local beside it) while the worker is
// part-way through the queued webhook requests; after a restart on the same data folder every request is applied
// exactly once and in order (create, then acknowledge, then resolve, per alert), and nobody is paged twice.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startDynamo } from '#lib/local/dynamo.ts';
import { freePort } from '#lib/local/ports.ts';
import { DYNAMODB_FOLDER } from '#lib/local/private-data.ts';
import { crash, killAll, startNpm, type Started } from './npm-start.ts';

const dataDirs: string[] = [];

afterAll(() => {
  killAll();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const ALERTS = 40;
const EVENTS = 3 * ALERTS;
/** The test stands for a crash mid-batch only when at least this many events were still unapplied at the kill. */
const UNAPPLIED_AT_LEAST = 20;
const ATTEMPTS = 5;

/**
 * Events applied in the data folder as the kill left it, read with DynamoDB Local alone (no worker running, so nothing
 * moves while it is counted): an alert open has had its create applied, acknowledged two events, resolved all three.
 */
async function appliedAtTheKill(dataDir: string): Promise<number> {
  const dynamo = await startDynamo({ dataDir: join(dataDir, DYNAMODB_FOLDER), port: await freePort() });
  try {
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    );
    const weight: Record<string, number> = { open: 1, acknowledged: 2, resolved: 3 };
    let applied = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: 'hark', FilterExpression: 'sk = :alert', ExpressionAttributeValues: { ':alert': 'ALERT' }, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) applied += weight[(item.data as { status: string }).status] ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    client.destroy();
    return applied;
  } finally {
    await dynamo.stop();
  }
}

/**
 * npm start on a fresh folder, the 3 × ALERTS requests sent, and a SIGKILL once the worker has applied something; done
 * again (up to ATTEMPTS times) until the kill lands mid-batch, with at least UNAPPLIED_AT_LEAST events unapplied. Each
 * attempt reports its count. Returns the folder as the kill left it.
 */
async function crashMidBatch(port: number, ids: string[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-ingest-crash-'));
    dataDirs.push(dataDir);
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
    // Interleaved across alerts, in order within each: the queue holds 3 × ALERTS requests.
    for (const event of ['create', 'acknowledge', 'resolve']) {
      await Promise.all(ids.map((id) => send({ event_type: event, Id: id, Title: `${id} down` })));
    }
    // Crash as soon as the worker has applied something, while most of the queue is still waiting or in flight.
    await vi.waitFor(async () => expect(((await first.api('GET', '/alerts?limit=1')).body.total_count as number)).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    await crash(first);
    const unapplied = EVENTS - (await appliedAtTheKill(dataDir));
    console.log(`attempt ${attempt}: ${unapplied} of ${EVENTS} events were unapplied at the kill`);
    if (unapplied >= UNAPPLIED_AT_LEAST) return dataDir;
    if (attempt === ATTEMPTS) throw new Error(`the kill never landed mid-batch: fewer than ${UNAPPLIED_AT_LEAST} events unapplied in ${ATTEMPTS} attempts`);
  }
}

describe('a crash of npm start mid-batch', { timeout: 900_000 }, () => {
  it('applies every queued event once, in order, after a SIGKILL and a restart', async () => {
    const port = await freePort();
    const ids = Array.from({ length: ALERTS }, (_, i) => `host-${i}`);
    // The kill must land mid-batch (checked, not hoped for): see crashMidBatch.
    const dataDir = await crashMidBatch(port, ids);

    const second = await startNpm(dataDir, port);
    const countOf = async (api: Started['api']) => (await api('GET', '/alerts?limit=1')).body.total_count as number;
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
