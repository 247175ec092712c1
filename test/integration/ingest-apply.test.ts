// The worker applies webhook requests to alerts, through the gateway and the queue: the four events, dedup of a
// repeated create, unknown Ids and disallowed transitions as notes, per-alert order, the same message delivered
// twice, and maintenance windows (inside, outside, created, edited, deleted). Rules: docs/ingest.md.
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { findSourceLogItem, logIdsOf, sourceLogsOf } from '#lib/ingest/source-log.ts';
import { sqsClient } from '#lib/queue/client.ts';
import { messageGroupOf, type IngestMessage } from '#lib/queue/ingest.ts';
import { addAccountUser, alertsWithThirdpartyId, isoSeconds, newAccount, request, useTestStack, type AccountUserRef, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let bob: AccountUserRef;
let hook: { id: string; prefix_id: string };

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Ingest apply');
  bob = await addAccountUser(acme);
  hook = await integration({ name: 'Monitor', urgency: 'medium' });
});

async function integration(body: Record<string, unknown>) {
  const reply = await acme.api('POST', '/integrations', { account_user_ids: [bob.id], ...body });
  if (reply.status !== 201) throw new Error(`integration: ${reply.status} ${reply.text}`);
  return reply.body as { id: string; prefix_id: string };
}

/** Posts a payload to the webhook; the answer never depends on the payload. */
async function send(payload: Record<string, unknown>, to = hook): Promise<void> {
  const reply = await request('POST', `/integration/${to.prefix_id}`, { body: payload });
  expect(reply.status).toBe(200);
}

const alertsOf = (thirdpartyId: string, ready?: (alerts: any[]) => boolean) => alertsWithThirdpartyId(acme, thirdpartyId, ready);

const logEvents = async (alertId: string) => ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string; message: string }[]).map((l) => l.event);
const pages = async (alertId: string) => (await logEvents(alertId)).filter((e) => e === 'paged').length;

/** The apply notes of the newest request of the integration whose body holds `marker`, once it has them. */
async function notesOfRequest(marker: string, to = hook): Promise<string[]> {
  let notes: string[] = [];
  await vi.waitFor(
    async () => {
      const logs = await sourceLogsOf(acme.accountId, to.id, 100);
      const log = logs.find((l) => JSON.stringify(l.body).includes(marker));
      expect(log).toBeDefined();
      const item = await findSourceLogItem(acme.accountId, log!.id);
      expect(item?.noteSteps?.has('apply')).toBe(true);
      notes = item!.notes.map((n) => n.message);
    },
    { timeout: 15_000, interval: 100 },
  );
  return notes;
}

/** Sends a message as the webhook would, straight to the queue; the deduplication id is fresh, so SQS takes a repeat too (a redelivery). */
async function sendRaw(message: IngestMessage): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: inject('ingestQueueUrl'),
      MessageBody: JSON.stringify(message),
      MessageGroupId: messageGroupOf(message.integrationId, message.alertKey),
      MessageDeduplicationId: randomUUID(),
    }),
  );
}

const messageOf = (body: Record<string, unknown>, alertKey: string): IngestMessage => ({
  kind: 'webhook',
  requestId: randomUUID(),
  accountId: acme.accountId,
  integrationId: hook.id,
  receivedAt: new Date().toISOString(),
  alertKey,
  headers: { 'content-type': 'application/json' },
  query: {},
  body,
});

describe('the four events', () => {
  it('create makes an integration alert to its destinations with its default urgency, and pages once', async () => {
    const id = `disk-${randomUUID()}`;
    await send({ event_type: 'create', Id: id, Title: 'Disk full on db-1', Description: '95% used', Tags: ['db', ' ', 'db', 'disk'] });
    const [alert] = await alertsOf(id);
    expect(alert).toMatchObject({
      title: 'Disk full on db-1',
      description: '95% used',
      urgency: 'medium',
      status: 'open',
      tag_list: ['db', 'disk'],
      source_type: 'Integration',
      source_id: hook.id,
      thirdparty_id: id,
      dedup_count: 0,
      destination_account_user_ids: [bob.id],
    });
    const log = await findSourceLogItem(acme.accountId, alert.source_log_id as string);
    expect(log?.integrationId).toBe(hook.id);
    expect(await notesOfRequest(id)).toContain(`Created alert ${alert.prefix_id} (open)`);
    expect(await pages(alert.id)).toBe(1);
  });

  it('a create with the Id of an active alert counts a duplicate and pages nobody; after resolve it starts a new alert', async () => {
    const id = `cpu-${randomUUID()}`;
    await send({ event_type: 'create', Id: id, Title: 'CPU high' });
    const [first] = await alertsOf(id);
    await send({ event_type: 'create', Id: id, Title: 'CPU high' });
    await alertsOf(id, (alerts) => alerts[0]?.dedup_count === 1);
    await send({ event_type: 'create', Id: id, Title: 'CPU high' });
    const [counted] = await alertsOf(id, (alerts) => alerts[0]?.dedup_count === 2);
    expect(counted.id).toBe(first.id);
    expect(await pages(first.id)).toBe(1);
    expect((await logEvents(first.id)).filter((e) => e === 'deduplicated')).toHaveLength(2);

    await send({ event_type: 'resolve', Id: id });
    await send({ event_type: 'create', Id: id, Title: 'CPU high again' });
    const alerts = await alertsOf(id, (a) => a.length === 2);
    expect(alerts.map((a) => [a.title, a.status])).toEqual([
      ['CPU high again', 'open'],
      ['CPU high', 'resolved'],
    ]);
  });

  it('update changes only the fields sent, on the newest alert with the Id', async () => {
    const id = `mem-${randomUUID()}`;
    await send({ event_type: 'create', Id: id, Title: 'Memory', Description: 'at 80%', Tags: ['mem'] });
    await alertsOf(id);
    await send({ event_type: 'update', Id: id, Urgency: 'CRITICAL!' });
    const [updated] = await alertsOf(id, (a) => a[0]?.urgency === 'critical');
    expect(updated).toMatchObject({ title: 'Memory', description: 'at 80%', tag_list: ['mem'], urgency: 'critical' });
    await send({ event_type: 'update', Id: id, Title: 'Memory at 99%', Meta: { runbook: 'https://runbooks.example/mem' } });
    const [again] = await alertsOf(id, (a) => a[0]?.title === 'Memory at 99%');
    expect(again).toMatchObject({ description: 'at 80%', urgency: 'critical', meta: { runbook: 'https://runbooks.example/mem' } });
    expect((await logEvents(again.id)).filter((e) => e === 'updated')).toHaveLength(2);
  });

  it('acknowledge and resolve follow the API transitions; a disallowed one and an unknown Id are notes, never errors', async () => {
    const id = `net-${randomUUID()}`;
    await send({ event_type: 'create', Id: id, Title: 'Link down' });
    await alertsOf(id);
    await send({ event_type: 'ACKNOWLEDGE ', Id: id });
    const [acked] = await alertsOf(id, (a) => a[0]?.status === 'acknowledged');
    expect(acked.acknowledged_at).not.toBeNull();
    const again = `again-${randomUUID()}`;
    await send({ event_type: 'acknowledge', Id: id, marker: again });
    expect((await notesOfRequest(again)).join('\n')).toMatch(new RegExp(`Ignored: alert ${acked.prefix_id} was not acknowledged`));
    await send({ event_type: 'resolve', Id: id });
    const [resolved] = await alertsOf(id, (a) => a[0]?.status === 'resolved');
    expect(resolved.acknowledged_at).toBe(acked.acknowledged_at);

    for (const event of ['acknowledge', 'resolve', 'update']) {
      const marker = `unknown-${randomUUID()}`;
      await send({ event_type: event, Id: marker, Title: 'x' });
      expect(await notesOfRequest(marker)).toContain(`Ignored: no alert of this integration has Id "${marker}", so there is nothing to ${event}`);
    }
  });

  it('a create without a Title or with another event_type changes nothing and says why', async () => {
    const untitled = `untitled-${randomUUID()}`;
    await send({ event_type: 'create', Id: untitled });
    expect((await notesOfRequest(untitled)).join('\n')).toMatch(/Ignored: No Title/);
    const odd = `odd-${randomUUID()}`;
    await send({ event_type: 'trigger', Id: odd, Title: 'x' });
    expect((await notesOfRequest(odd)).join('\n')).toMatch(/Ignored: event_type "trigger" is not one of create, update, acknowledge, resolve/);
    expect((await acme.api('GET', `/alerts?thirdparty_id=${untitled}`)).body.total_count).toBe(0);
    expect((await acme.api('GET', `/alerts?thirdparty_id=${odd}`)).body.total_count).toBe(0);
  });

  it('a create without an Id gets a generated thirdparty_id', async () => {
    const marker = `noid-${randomUUID()}`;
    await send({ event_type: 'create', Title: marker });
    const notes = await notesOfRequest(marker);
    const generated = /No Id; generated (\S+)/.exec(notes.join('\n'))?.[1];
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const [alert] = await alertsOf(generated!);
    expect(alert.title).toBe(marker);
  });
});

describe('order and duplicates', () => {
  it('create, acknowledge, resolve sent back to back apply in that order', async () => {
    const ids = Array.from({ length: 5 }, () => `burst-${randomUUID()}`);
    for (const id of ids) {
      await send({ event_type: 'create', Id: id, Title: `Burst ${id}` });
      await send({ event_type: 'acknowledge', Id: id });
      await send({ event_type: 'resolve', Id: id });
    }
    for (const id of ids) {
      const alerts = await alertsOf(id, (a) => a[0]?.status === 'resolved');
      expect(alerts).toHaveLength(1);
      expect(alerts[0].acknowledged_at).not.toBeNull();
      const events = await logEvents(alerts[0].id);
      expect(events.indexOf('acknowledged')).toBeGreaterThan(events.indexOf('created'));
      expect(events.indexOf('resolved')).toBeGreaterThan(events.indexOf('acknowledged'));
    }
  });

  it('the same create delivered twice makes one alert and pages once', async () => {
    const id = `twice-${randomUUID()}`;
    const message = messageOf({ event_type: 'create', Id: id, Title: 'Delivered twice' }, id);
    await sendRaw(message);
    await sendRaw(message);
    const [alert] = await alertsOf(id);
    expect(alert.source_log_id).toBe(logIdsOf(message).id);
    // Both deliveries are through once a later message of the group is applied.
    await send({ event_type: 'update', Id: id, Description: 'after both' });
    const alerts = await alertsOf(id, (a) => a[0]?.description === 'after both');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].dedup_count).toBe(0);
    expect(await pages(alert.id)).toBe(1);
  });

  it('a create folded by a dedup key into another alert says so in its notes, and counts once however often it is delivered', async () => {
    const first = `dedupkey-a-${randomUUID()}`;
    const second = `dedupkey-b-${randomUUID()}`;
    const key = `disk-${randomUUID()}`;
    await send({ event_type: 'create', Id: first, Title: 'Disk full', dedup_keys: [key] });
    const [alert] = await alertsOf(first);
    const folding = `fold-${randomUUID()}`;
    const message = messageOf({ event_type: 'create', Id: second, Title: 'Disk full again', Description: folding, dedup_keys: [key] }, second);
    await sendRaw(message);
    await sendRaw(message);
    // A later request of the same group is applied after both deliveries.
    const marker = `after-${randomUUID()}`;
    await send({ event_type: 'update', Id: second, Description: marker });
    expect((await notesOfRequest(marker)).join(' | ')).toContain(`no alert of this integration has Id "${second}"`);
    expect(await notesOfRequest(folding)).toEqual([`Deduplicated into alert ${alert.prefix_id} by a dedup key (still open): dedup_count 1, nobody paged`]);
    const [after] = await alertsOf(first);
    expect(after.dedup_count).toBe(1);
    expect(await alertsOf(second, () => true)).toEqual([]);
  });

  it('a redelivered resolve after create → resolve → create resolves nothing more (the second alert stays open)', async () => {
    const id = `redeliver-${randomUUID()}`;
    const create1 = messageOf({ event_type: 'create', Id: id, Title: 'First' }, id);
    const resolve = messageOf({ event_type: 'resolve', Id: id }, id);
    const create2 = messageOf({ event_type: 'create', Id: id, Title: 'Second' }, id);
    for (const message of [create1, resolve, create2]) await sendRaw(message);
    await alertsOf(id, (a) => a.length === 2 && a[0].status === 'open');
    await sendRaw(create1);
    await sendRaw(resolve);
    await send({ event_type: 'update', Id: id, Description: 'after the repeats' });
    const alerts = await alertsOf(id, (a) => a[0]?.description === 'after the repeats');
    expect(alerts.map((a) => [a.title, a.status, a.dedup_count])).toEqual([
      ['Second', 'open', 0],
      ['First', 'resolved', 0],
    ]);
  });
});

describe('maintenance windows', () => {
  const windowBody = (integrationId: string, startMs: number, endMs: number) => ({
    name: 'Planned upgrade',
    start_datetime: isoSeconds(startMs),
    end_datetime: isoSeconds(endMs),
    time_zone: 'UTC',
    integration_ids: [integrationId],
  });

  it('inside a window a request is logged with a note naming the window and changes no alert; API alerts still page', async () => {
    const quiet = await integration({ name: 'Quiet monitor' });
    const window = (await acme.api('POST', '/maintenance_windows', windowBody(quiet.id, Date.now() - 60_000, Date.now() + 3_600_000))).body;
    const id = `silenced-${randomUUID()}`;
    await send({ event_type: 'create', Id: id, Title: 'During the upgrade' }, quiet);
    const notes = await notesOfRequest(id, quiet);
    expect(notes.join('\n')).toContain(`Ignored: maintenance window "Planned upgrade" (${window.prefix_id})`);
    expect((await acme.api('GET', `/alerts?thirdparty_id=${id}`)).body.total_count).toBe(0);

    const api = await acme.api('POST', '/alerts', { title: 'From the API', urgency: 'high', destination_account_user_ids: [bob.id] });
    expect(api.status).toBe(201);
    expect(api.body.status).toBe('open');

    // Another integration is not silenced by it.
    const loud = `loud-${randomUUID()}`;
    await send({ event_type: 'create', Id: loud, Title: 'Other monitor' });
    await alertsOf(loud);
  });

  it('a window created, edited or deleted takes effect for the next request', async () => {
    const flappy = await integration({ name: 'Edited windows' });
    const post = async (prefix: string) => {
      const id = `${prefix}-${randomUUID()}`;
      await send({ event_type: 'create', Id: id, Title: prefix }, flappy);
      await notesOfRequest(id, flappy);
      return (await acme.api('GET', `/alerts?thirdparty_id=${id}`)).body.total_count as number;
    };
    expect(await post('before')).toBe(1);
    const window = (await acme.api('POST', '/maintenance_windows', windowBody(flappy.id, Date.now() - 60_000, Date.now() + 3_600_000))).body;
    expect(await post('created')).toBe(0);
    // Edited to start in an hour: not active now.
    const later = await acme.api('PUT', `/maintenance_windows/${window.id}`, { start_datetime: isoSeconds(Date.now() + 3_600_000), end_datetime: isoSeconds(Date.now() + 7_200_000) });
    expect(later.status).toBe(200);
    expect(await post('moved-out')).toBe(1);
    // Edited back to now: silenced again.
    expect((await acme.api('PUT', `/maintenance_windows/${window.id}`, { start_datetime: isoSeconds(Date.now() - 60_000) })).status).toBe(200);
    expect(await post('moved-in')).toBe(0);
    expect((await acme.api('DELETE', `/maintenance_windows/${window.id}`)).status).toBe(204);
    expect(await post('deleted')).toBe(1);
  });
});
