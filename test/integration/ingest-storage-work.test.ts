// What the worker asks of storage per request (docs/ingest.md, "Exactly-once effects" and "Applying a request"): on a
// first delivery the request's log, its counters and the event's change are one transaction; the alert an Id names is
// found by key; a first delivery that fails still keeps the log, and a log already kept makes it apply as a redelivery.
// The worker runs in this process against the test stack's DynamoDB Local (as the queue would call it), with every
// storage command recorded; alerts and logs are read back through the gateway.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '#lib/db/client.ts';
import { findSourceLogItem, logIdsOf, recordSourceLog } from '#lib/ingest/source-log.ts';
import { processIngestBody } from '#lib/ingest/worker.ts';
import type { IngestMessage } from '#lib/queue/ingest.ts';
import { addAccountUser, alertsWithThirdpartyId, newAccount, useTestStack, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let hook: { id: string; prefix_id: string };

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Ingest storage work');
  const bob = await addAccountUser(acme);
  const reply = await acme.api('POST', '/integrations', { name: 'Storm monitor', account_user_ids: [bob.id] });
  expect(reply.status).toBe(201);
  hook = reply.body;
});

afterEach(() => {
  vi.restoreAllMocks();
});

const messageOf = (body: Record<string, unknown>): IngestMessage => ({
  kind: 'webhook',
  requestId: randomUUID(),
  accountId: acme.accountId,
  integrationId: hook.id,
  receivedAt: new Date().toISOString(),
  ...(typeof body.id === 'string' ? { alertKey: body.id } : {}),
  headers: { 'content-type': 'application/json' },
  query: {},
  body,
});

interface Sent {
  command: string;
  input: Record<string, any>;
}

/** Records every storage command the worker sends; `fail` may throw instead of sending one (a failure storage gave). */
function recordStorage(fail?: (sent: Sent) => Error | undefined): Sent[] {
  const sent: Sent[] = [];
  const client = documentClient();
  const send = client.send.bind(client);
  vi.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string }; input: Record<string, any> }) => {
    // The document client's names: TransactWrite, Get, BatchGet, Query, Update, …
    const entry = { command: command.constructor.name.replace(/Command$/, ''), input: command.input };
    sent.push(entry);
    const error = fail?.(entry);
    if (error) throw error;
    return send(command as never);
  }) as never);
  return sent;
}

/** The kinds of item a TransactWriteItems writes: the item's `type`, or the sort key's head for counters and updates. */
const kindsOf = (sent: Sent): string[] =>
  (sent.input.TransactItems ?? []).map((item: any) => {
    const put = item.Put?.Item;
    if (put) return String(put.type ?? put.sk);
    return `update ${String((item.Update ?? item.Delete ?? item.ConditionCheck).Key.sk)}`;
  });

const logCount = async () => (await acme.api('GET', `/logs?owner_id=${hook.id}&limit=1`)).body.total_count as number;
const logOf = (message: IngestMessage) => findSourceLogItem(acme.accountId, logIdsOf(message).id);
const alertsOf = (id: string) => alertsWithThirdpartyId(acme, id);

/** Not a lost race: a failure the worker cannot decide again (DynamoDB refusing a write it does not take). */
const storageRefusal = () => Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException' });

describe('the worker’s storage work per request', () => {
  it('a first delivery writes the log, its counters and the new alert in one transaction, and finds the Id by key', async () => {
    const id = `storm-${randomUUID()}`;
    const message = messageOf({ event_type: 'create', id, title: 'Disk full' });
    const before = await logCount();
    const sent = recordStorage();
    await processIngestBody(JSON.stringify(message));
    vi.restoreAllMocks();

    const transactions = sent.filter((s) => s.command === 'TransactWrite');
    expect(transactions).toHaveLength(1);
    const kinds = kindsOf(transactions[0]!);
    expect(kinds).toEqual(expect.arrayContaining(['SOURCE_LOG', 'ALERT', 'ALERT_THIRDPARTY', 'ALERT_THIRDPARTY_NEWEST', 'update COUNTS', `update COUNTER#LOG#INT#${hook.id}`]));
    // The alert's account-wide counts and the log's are one Update of the account's counter group item.
    expect(kinds.filter((k) => k === 'update COUNTS')).toHaveLength(1);
    // No write of the log or its counters on their own, and no query of an index for the Id.
    expect(sent.filter((s) => s.command === 'Update' && /^(COUNTS$|COUNTER#LOG)/.test(String(s.input.Key.sk)))).toEqual([]);
    expect(sent.filter((s) => s.command === 'Query' && s.input.IndexName === 'gsi2')).toEqual([]);

    const [alert] = await alertsOf(id);
    expect(alert.status).toBe('open');
    const log = await logOf(message);
    expect([...log!.noteSteps!].sort()).toEqual(['applied', 'apply']);
    expect(log!.notes.map((n) => n.message)).toEqual([`Created alert ${alert.prefix_id} (open)`]);
    expect(await logCount()).toBe(before + 1);
  });

  it('an update is its reads and one transaction holding the log and the change', async () => {
    const id = `storm-${randomUUID()}`;
    await processIngestBody(JSON.stringify(messageOf({ event_type: 'create', id, title: 'Disk full' })));
    const [alert] = await alertsOf(id);
    const message = messageOf({ event_type: 'update', id, urgency: 'low' });
    const sent = recordStorage();
    await processIngestBody(JSON.stringify(message));
    vi.restoreAllMocks();

    const writes = sent.filter((s) => ['TransactWrite', 'Put', 'Update', 'Delete', 'BatchWrite'].includes(s.command));
    expect(writes).toHaveLength(1);
    expect(kindsOf(writes[0]!)).toEqual(expect.arrayContaining(['SOURCE_LOG', 'ALERT', 'update COUNTS', `update COUNTER#LOG#INT#${hook.id}`]));
    // The Id's newest alert is read by key (one BatchGetItem of its key item and counter, one GetItem of the alert),
    // once: the change does not read the alert again.
    expect(sent.filter((s) => s.command === 'Get' && s.input.Key.sk === 'ALERT')).toHaveLength(1);
    expect(sent.filter((s) => s.command === 'Query' && s.input.IndexName === 'gsi2')).toEqual([]);
    expect((await acme.api('GET', `/alerts/${alert.id}`)).body.urgency).toBe('low');
    expect((await logOf(message))!.notes.at(-1)!.message).toBe(`Updated alert ${alert.prefix_id}: urgency`);
  });

  it('a first delivery whose change cannot be stored keeps the log, counted once, and its retry applies the request once', async () => {
    const id = `storm-${randomUUID()}`;
    const message = messageOf({ event_type: 'create', id, title: 'Disk full' });
    const body = JSON.stringify(message);
    const before = await logCount();
    recordStorage((s) => (s.command === 'TransactWrite' && kindsOf(s).includes('ALERT') ? storageRefusal() : undefined));
    await expect(processIngestBody(body)).rejects.toThrow('parameter values were invalid');
    vi.restoreAllMocks();

    const kept = await logOf(message);
    expect(kept).toBeDefined();
    expect(kept!.noteSteps).toBeUndefined();
    expect(await logCount()).toBe(before + 1);
    expect((await acme.api('GET', `/alerts?thirdparty_id=${id}`)).body.data).toEqual([]);

    // The queue hands the message over again (receive count 2), and again as if it were new: one alert, one log.
    await processIngestBody(body, undefined, false);
    await processIngestBody(body);
    const alerts = await alertsOf(id);
    expect(alerts).toHaveLength(1);
    const log = await logOf(message);
    expect([...log!.noteSteps!].sort()).toEqual(['applied', 'apply']);
    expect(log!.notes.map((n) => n.message)).toEqual([`Created alert ${alerts[0].prefix_id} (open)`]);
    expect(await logCount()).toBe(before + 1);
  });

  it('a first delivery that finds its log kept already applies the request as a redelivery, once', async () => {
    const id = `storm-${randomUUID()}`;
    const message = messageOf({ event_type: 'create', id, title: 'Disk full' });
    const before = await logCount();
    expect(await recordSourceLog(message)).toBe(true);
    await processIngestBody(JSON.stringify(message));
    await processIngestBody(JSON.stringify(message));
    const alerts = await alertsOf(id);
    expect(alerts).toHaveLength(1);
    expect((await logOf(message))!.notes.map((n) => n.message)).toEqual([`Created alert ${alerts[0].prefix_id} (open)`]);
    expect(await logCount()).toBe(before + 1);
  });

  it('with the newest alert of an Id deleted, the Id names the one before it, as the index orders them', async () => {
    const id = `storm-${randomUUID()}`;
    await processIngestBody(JSON.stringify(messageOf({ event_type: 'create', id, title: 'First' })));
    await processIngestBody(JSON.stringify(messageOf({ event_type: 'resolve', id })));
    await processIngestBody(JSON.stringify(messageOf({ event_type: 'create', id, title: 'Second' })));
    const [second, first] = await alertsWithThirdpartyId(acme, id, (a) => a.length === 2);
    expect([second.title, first.title]).toEqual(['Second', 'First']);
    expect((await acme.api('DELETE', `/alerts/${second.id}`)).status).toBe(204);

    const message = messageOf({ event_type: 'acknowledge', id });
    await processIngestBody(JSON.stringify(message));
    expect((await logOf(message))!.notes.at(-1)!.message).toMatch(new RegExp(`^Ignored: alert ${first.prefix_id} was not acknowledged`));
  });
});
