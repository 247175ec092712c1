// A request that carries several events (a monitor that sends a batch): the worker applies them in order, each
// exactly once, when the message is delivered twice and when a delivery is cut short mid-way, before or after an
// event's write landed. A tiny reader registered only here makes the events; the worker runs in this process against
// the test stack's DynamoDB Local, and the alerts are read back through the gateway. Rules: docs/ingest.md.
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '#lib/db/client.ts';
import { findSourceLogItem, logIdsOf } from '#lib/ingest/source-log.ts';
import type { IntegrationReader, ReadEvent } from '#lib/monitor-readers/types.ts';
import { processIngestBody } from '#lib/ingest/worker.ts';
import type { IngestMessage } from '#lib/queue/ingest.ts';
import { z } from 'zod';
import { addAccountUser, alertsWithThirdpartyId, newAccount, useTestStack, type TestAccount } from './helpers.ts';

/** Reads `{events: [{event, id?, title?}]}` into one event each, in order; an event without an id gets a generated one. */
const batchReader: IntegrationReader = {
  id: 'test_batch',
  name: 'Test batch',
  description: 'Several events per request (tests only)',
  docs: 'docs/ingest.md',
  options: z.object({}),
  read(request, options) {
    const sent = (request.body as { events: { event: ReadEvent['event']; id?: string; title?: string }[] }).events;
    const events = sent.map((item, index): ReadEvent => {
      const thirdpartyId = item.id ?? options.generateId(index);
      return {
        event: item.event,
        thirdpartyId,
        idGenerated: item.id === undefined,
        fields: item.event === 'create' ? { title: item.title ?? thirdpartyId, urgency: options.defaultUrgency } : {},
        notes: [`event ${index}`],
      };
    });
    return { events, notes: ['a batch'] };
  },
};
const readers = () => batchReader;

let acme: TestAccount;
let hook: { id: string; prefix_id: string };

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Ingest events');
  const bob = await addAccountUser(acme);
  const reply = await acme.api('POST', '/integrations', { name: 'Batch monitor', account_user_ids: [bob.id] });
  expect(reply.status).toBe(201);
  hook = reply.body;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const messageOf = (events: Record<string, unknown>[]): IngestMessage => ({
  kind: 'webhook',
  requestId: randomUUID(),
  accountId: acme.accountId,
  integrationId: hook.id,
  receivedAt: new Date().toISOString(),
  headers: { 'content-type': 'application/json' },
  query: {},
  body: { events },
});

/** The log steps a storage write marks, if it is a transaction carrying a request's notes. */
function stepsOf(command: unknown): string[] {
  if (!(command instanceof TransactWriteCommand)) return [];
  return (command.input.TransactItems ?? []).flatMap((item) => [...((item.Update?.ExpressionAttributeValues?.[':steps'] as Set<string> | undefined) ?? [])]);
}

/**
 * Cuts the delivery short at the write marking `step`: `after` lets that write land and then fails as a crash would
 * (the worker never learns it landed), `before` fails it unsent.
 */
function crashAt(step: string, when: 'before' | 'after') {
  const client = documentClient();
  const send = client.send.bind(client);
  vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
    if (!stepsOf(command).includes(step)) return send(command as never);
    if (when === 'after') await send(command as never);
    throw new Error(`crash ${when} ${step}`);
  }) as never);
}

const alertsOf = (id: string) => alertsWithThirdpartyId(acme, id);
const logEvents = async (alertId: string) => ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string }[]).map((l) => l.event);
const count = (events: string[], name: string) => events.filter((e) => e === name).length;
const logOf = (message: IngestMessage) => findSourceLogItem(acme.accountId, logIdsOf(message).id);

describe('a request with several events', () => {
  it('applies them in order, once each, however often it is delivered', async () => {
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const message = messageOf([
      { event: 'create', id: a, title: 'A down' },
      { event: 'create', id: b, title: 'B down' },
      { event: 'acknowledge', id: a },
      { event: 'resolve', id: b },
    ]);
    const body = JSON.stringify(message);
    await processIngestBody(body, readers);
    await processIngestBody(body, readers);

    const [alertA] = await alertsOf(a);
    const [alertB] = await alertsOf(b);
    expect([alertA.status, alertA.dedup_count, alertB.status, alertB.dedup_count]).toEqual(['acknowledged', 0, 'resolved', 0]);
    expect((await alertsOf(a)).length + (await alertsOf(b)).length).toBe(2);
    for (const alert of [alertA, alertB]) expect(count(await logEvents(alert.id), 'paged')).toBe(1);
    const log = await logOf(message);
    expect([...log!.noteSteps!].sort()).toEqual(['applied', 'apply', 'apply#1', 'apply#2', 'apply#3']);
    expect(log!.notes.map((n) => n.message)).toEqual([
      'a batch',
      'event 0',
      `Created alert ${alertA.prefix_id} (open)`,
      'event 1',
      `Created alert ${alertB.prefix_id} (open)`,
      'event 2',
      `Acknowledged alert ${alertA.prefix_id}`,
      'event 3',
      `Resolved alert ${alertB.prefix_id}`,
    ]);
  });

  it('cut short after an event’s write landed, a redelivery applies the rest and nothing twice', async () => {
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const message = messageOf([
      { event: 'create', id: a, title: 'A down' },
      { event: 'create', title: 'No Id' },
      { event: 'acknowledge', id: a },
      { event: 'create', id: b, title: 'B down' },
      { event: 'resolve', id: a },
    ]);
    const body = JSON.stringify(message);
    crashAt('apply#2', 'after');
    await expect(processIngestBody(body, readers)).rejects.toThrow('crash after apply#2');
    vi.restoreAllMocks();
    expect((await alertsOf(a))[0].status).toBe('acknowledged');
    expect([...(await logOf(message))!.noteSteps!].sort()).toEqual(['apply', 'apply#1', 'apply#2']);

    await processIngestBody(body, readers);
    await processIngestBody(body, readers);
    const alertsA = await alertsOf(a);
    expect(alertsA.map((x) => [x.status, x.dedup_count])).toEqual([['resolved', 0]]);
    const events = await logEvents(alertsA[0].id);
    expect([count(events, 'created'), count(events, 'paged'), count(events, 'acknowledged'), count(events, 'resolved')]).toEqual([1, 1, 1, 1]);
    expect((await alertsOf(b)).map((x) => x.status)).toEqual(['open']);

    // The event without an Id got the same generated Id on every delivery: one alert.
    const notes = (await logOf(message))!.notes.map((n) => n.message);
    const generated = notes.find((n) => n.startsWith('Created alert') && notes.indexOf(n) === notes.indexOf('event 1') + 1);
    expect(generated).toBeDefined();
    expect(notes.filter((n) => n.startsWith('event '))).toEqual(['event 0', 'event 1', 'event 2', 'event 3', 'event 4']);
    expect(notes.filter((n) => n.startsWith('Created alert'))).toHaveLength(3);
  });

  it('cut short before an event’s write, a redelivery applies that event and the rest once', async () => {
    const a = `a-${randomUUID()}`;
    const message = messageOf([
      { event: 'create', id: a, title: 'A down' },
      { event: 'create', id: a, title: 'A down again' },
      { event: 'resolve', id: a },
    ]);
    const body = JSON.stringify(message);
    crashAt('apply#1', 'before');
    await expect(processIngestBody(body, readers)).rejects.toThrow('crash before apply#1');
    vi.restoreAllMocks();
    expect((await alertsOf(a))[0].dedup_count).toBe(0);

    await processIngestBody(body, readers);
    await processIngestBody(body, readers);
    const alerts = await alertsOf(a);
    // The second create found the first one's alert active: one duplicate, counted once.
    expect(alerts.map((x) => [x.status, x.dedup_count])).toEqual([['resolved', 1]]);
    const events = await logEvents(alerts[0].id);
    expect([count(events, 'paged'), count(events, 'deduplicated'), count(events, 'resolved')]).toEqual([1, 1, 1]);
    expect([...(await logOf(message))!.noteSteps!].sort()).toEqual(['applied', 'apply', 'apply#1', 'apply#2']);
  });
});
