// The ingest path end to end: webhook POST through the gateway → SQS FIFO → worker → source log; duplicates,
// poison messages (dead-letter queue) and every refusal of the webhook.
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { handler as webhookHandler } from '#functions/webhook.ts';
import { sourceLogsOf, type SourceLog } from '#lib/ingest/source-log.ts';
import { lambdaContext } from '#lib/local/invoker.ts';
import { sqsClient } from '#lib/queue/client.ts';
import { enqueueIngest, type IngestMessage } from '#lib/queue/ingest.ts';
import { errorMessages, newAccount, pollUntil, request, useTestStack, type TestAccount } from './helpers.ts';

const TOKEN = 'whk_9f8e7d6c5b4a39281706';

let acme: TestAccount;
let open: { id: string; prefix_id: string };
let guarded: { id: string; prefix_id: string };

async function integration(body: Record<string, unknown>) {
  const reply = await acme.api('POST', '/integrations', { account_user_ids: [acme.adminAccountUserId], ...body });
  if (reply.status !== 201) throw new Error(`integration: ${reply.status} ${reply.text}`);
  return reply.body as { id: string; prefix_id: string };
}

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Webhook');
  open = await integration({ name: 'Open' });
  guarded = await integration({ name: 'Guarded', options: { token: TOKEN } });
});

const post = (path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) => request('POST', path, options);

const logsOf = (integrationId: string) => sourceLogsOf(acme.accountId, integrationId, 100);

/** Waits for the log of a request whose body holds this marker. */
const logWithMarker = (integrationId: string, marker: string, ms?: number) =>
  pollUntil(async () => (await logsOf(integrationId)).find((log) => JSON.stringify(log.body).includes(marker)), ms);

describe('accepted requests', () => {
  it('answers 200 {"status":"queued","log_id"} and the worker keeps the request as that log, saying what it became', async () => {
    const marker = randomUUID();
    const payload = { Id: `svc-${marker}`, Title: 'Disk full', event_type: 'create', Meta: { Incident: false } };
    const reply = await post(`/integration/${guarded.prefix_id}?env=prod&region=eu`, {
      body: payload,
      headers: { 'service-token': TOKEN, 'x-origin': 'grafana' },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body)).toEqual(['status', 'log_id']);
    expect(reply.body.status).toBe('queued');
    expect(reply.body.log_id).toMatch(/^log_[A-Za-z0-9]{14}$/);
    // The log id leads to the request and to what it became, once the worker has applied it.
    const applied = await pollUntil(async () => {
      const read = await acme.api('GET', `/logs/${reply.body.log_id}`);
      return read.status === 200 && read.body.details.sublogs.length > 0 ? read.body : undefined;
    });
    expect(applied).toMatchObject({ prefix_id: reply.body.log_id, owner_id: guarded.id, details: { body: payload } });
    expect(applied.details.sublogs.at(-1).message).toMatch(/^Created alert alt_\w+ \(\w+\)$/);

    const log: SourceLog = await logWithMarker(guarded.id, marker);
    expect(log).toMatchObject({ accountId: acme.accountId, integrationId: guarded.id, body: payload, query: { env: 'prod', region: 'eu' } });
    expect(log.headers['x-origin']).toBe('grafana');
    expect(log.headers['content-type']).toBe('application/json');
    expect(log.headers['service-token']).toBe('[redacted]');
    expect(JSON.stringify(log)).not.toContain(TOKEN);
    expect(log.sourceIp).toMatch(/127\.0\.0\.1/);
    expect(new Date(log.receivedAt).toISOString()).toBe(log.receivedAt);
  });

  it('serves the path by prefix_id and by plain id; the token header name is case-insensitive', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    expect((await post(`/integration/${open.id}`, { body: { title: a } })).status).toBe(200);
    expect((await post(`/integration/${guarded.id}`, { body: { title: b }, headers: { 'Service-Token': TOKEN } })).status).toBe(200);
    await logWithMarker(open.id, a);
    await logWithMarker(guarded.id, b);
  });

  it('a disabled integration answers 405 until it is enabled again; a new token applies at once', async () => {
    const toggled = await integration({ name: 'Toggled', enabled: false });
    const disabled = await post(`/integration/${toggled.prefix_id}`, { body: { title: 'x' } });
    expect(disabled.status).toBe(405);
    expect(errorMessages(disabled)).toEqual(['Integration is disabled; enable it to accept requests']);
    await acme.api('PUT', `/integrations/${toggled.id}`, { enabled: true });
    expect((await post(`/integration/${toggled.prefix_id}`, { body: { title: 'x' } })).status).toBe(200);

    const newToken = `${TOKEN}-rotated`;
    await acme.api('PUT', `/integrations/${toggled.id}`, { options: { token: newToken } });
    expect((await post(`/integration/${toggled.prefix_id}`, { body: { title: 'x' } })).status).toBe(403);
    expect((await post(`/integration/${toggled.prefix_id}`, { body: { title: 'x' }, headers: { 'service-token': newToken } })).status).toBe(200);
  });

  it('accepts a body just under the limit and keeps it whole', async () => {
    const marker = randomUUID();
    const blob = 'z'.repeat(250 * 1024);
    expect((await post(`/integration/${open.prefix_id}`, { body: { title: marker, blob } })).status).toBe(200);
    const log = await logWithMarker(open.id, marker);
    expect((log.body as { blob: string }).blob).toBe(blob);
  });
});

describe('refused requests change nothing', () => {
  it('404 for an unknown integration, with the JSON error body', async () => {
    for (const id of ['int_abcdefghijkl', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nonsense', 'x'.repeat(200)]) {
      const reply = await post(`/integration/${id}`, { body: { title: 'x' } });
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Integration not found']);
    }
  });

  it('403 for a missing or wrong token, 405 while disabled, 400 for a body that is not a JSON object; only the 403s kept, as a refused log', async () => {
    const quiet = await integration({ name: 'Quiet', options: { token: TOKEN } });
    const path = `/integration/${quiet.prefix_id}`;
    const attempts: Record<string, string>[] = [{}, { 'service-token': 'wrong-token-0123456789' }, { 'service-token': TOKEN.slice(1) }, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of attempts) {
      const reply = await post(path, { body: { title: 'x' }, headers });
      expect(reply.status).toBe(403);
      expect(errorMessages(reply)).toEqual(['Missing or invalid service-token header']);
    }
    const auth = { 'service-token': TOKEN };
    for (const [rawBody, message] of [
      ['[{"title": "x"}]', 'Request body must be a JSON object'],
      ['"title"', 'Request body must be a JSON object'],
      ['null', 'Request body must be a JSON object'],
      ['{"title": ', 'Malformed JSON in request body'],
      ['', 'Request body must be a JSON object; it was empty'],
    ] as const) {
      const reply = await post(path, { rawBody, headers: { ...auth, 'content-type': 'application/json' } });
      expect(reply.status, rawBody).toBe(400);
      expect(errorMessages(reply)).toEqual([message]);
    }
    // Order: disabled (405) is answered before the token (403) is looked at.
    await acme.api('PUT', `/integrations/${quiet.id}`, { enabled: false });
    expect((await post(path, { body: { title: 'x' } })).status).toBe(405);
    await acme.api('PUT', `/integrations/${quiet.id}`, { enabled: true });

    const marker = randomUUID();
    expect((await post(path, { body: { title: marker }, headers: auth })).status).toBe(200);
    await logWithMarker(quiet.id, marker);
    const logs = await logsOf(quiet.id);
    // The accepted request, and the 403s as refused logs (one per minute: two when the attempts straddled one), counted.
    expect(logs.filter((log) => !log.refusedReason)).toHaveLength(1);
    const refused = logs.filter((log) => log.refusedReason);
    expect(refused.every((log) => log.refusedReason === 'invalid_token' && log.body === null)).toBe(true);
    expect(refused.reduce((sum, log) => sum + (log.refusedCount ?? 0), 0)).toBe(attempts.length);
  });

  it('413 for a body over the limit', async () => {
    const reply = await post(`/integration/${open.prefix_id}`, { body: { title: 'x', blob: 'y'.repeat(300 * 1024) } });
    expect(reply.status).toBe(413);
    expect(errorMessages(reply)[0]).toMatch(/larger than|too large/);
  });
});

describe('the queue', () => {
  const message = (requestId: string, alertKey: string, body: unknown): IngestMessage => ({
    kind: 'webhook',
    requestId,
    accountId: acme.accountId,
    integrationId: open.id,
    receivedAt: new Date().toISOString(),
    alertKey,
    headers: {},
    query: {},
    body,
  });

  it('writes one log for a message delivered twice', async () => {
    const requestId = `dup-${randomUUID()}`;
    const group = `${open.id}:dup-${randomUUID()}`;
    const send = (body: IngestMessage, dedup: string) =>
      sqsClient().send(new SendMessageCommand({ QueueUrl: inject('ingestQueueUrl'), MessageBody: JSON.stringify(body), MessageGroupId: group, MessageDeduplicationId: dedup }));
    const original = message(requestId, 'dup', { title: requestId });
    // Redelivery after the FIFO dedup window: SQS sees two messages; the worker must apply one.
    await send(original, randomUUID());
    await send(original, randomUUID());
    // And a retried send within the window (same request id) is dropped by SQS itself.
    await enqueueIngest(original);
    const sentinel = `sentinel-${randomUUID()}`;
    await send(message(sentinel, 'dup', { title: sentinel }), randomUUID());
    // FIFO order within the group: once the sentinel is in, every copy before it has been processed.
    await logWithMarker(open.id, sentinel);
    const copies = (await logsOf(open.id)).filter((log) => log.requestId === requestId);
    expect(copies).toHaveLength(1);
  });

  it('parks a poison message in the dead-letter queue while other groups go on', { timeout: 45_000 }, async () => {
    const marker = `poison-${randomUUID()}`;
    await sqsClient().send(
      new SendMessageCommand({
        QueueUrl: inject('ingestQueueUrl'),
        MessageBody: `not json {${marker}`,
        MessageGroupId: `poison-${randomUUID()}`,
        MessageDeduplicationId: randomUUID(),
      }),
    );
    const good = `good-${randomUUID()}`;
    await enqueueIngest(message(good, good, { title: good }));
    await logWithMarker(open.id, good, 5_000);

    const parked = await pollUntil(async () => {
      const received = await sqsClient().send(
        new ReceiveMessageCommand({ QueueUrl: inject('ingestDlqUrl'), MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 30 }),
      );
      return (received.Messages ?? []).find((m) => m.Body?.includes(marker));
    }, 30_000);
    expect(parked.Body).toBe(`not json {${marker}`);
    await sqsClient().send(new DeleteMessageCommand({ QueueUrl: inject('ingestDlqUrl'), ReceiptHandle: parked.ReceiptHandle! }));
  });

  it('answers 503 when the queue does not take the request, so the sender retries', async () => {
    const event = webhookEvent(randomUUID(), 'lost?');
    const queueUrl = process.env.HARK_INGEST_QUEUE_URL;
    process.env.HARK_INGEST_QUEUE_URL = `${inject('sqsEndpoint')}/000000000000/no-such-queue.fifo`;
    try {
      const result = await webhookHandler(event, lambdaContext('webhook'));
      expect(result.statusCode).toBe(503);
      expect(result.headers['retry-after']).toBe('5');
      expect(JSON.parse(result.body)).toEqual({ errors: [{ message: 'The request could not be queued; retry later' }], code: 503 });
    } finally {
      process.env.HARK_INGEST_QUEUE_URL = queueUrl;
    }
    expect((await webhookHandler(event, lambdaContext('webhook'))).statusCode).toBe(200);
  });
});

describe('log lines', () => {
  it('carry the Lambda context and the request ids (function name, Lambda request id, API Gateway request id)', async () => {
    const requestId = randomUUID();
    const event = webhookEvent(requestId, 'logged');
    const context = lambdaContext('webhook');
    // A queue that does not exist makes the webhook log an error line (and answer 503).
    const queueUrl = process.env.HARK_INGEST_QUEUE_URL;
    process.env.HARK_INGEST_QUEUE_URL = `${inject('sqsEndpoint')}/000000000000/no-such-queue.fifo`;
    // Error lines go to stderr, the others to stdout.
    const written: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)];
    try {
      expect((await webhookHandler(event, context)).statusCode).toBe(503);
    } finally {
      for (const spy of spies) spy.mockRestore();
      process.env.HARK_INGEST_QUEUE_URL = queueUrl;
    }
    const lines = written.flatMap((text) => text.split('\n')).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    const refused = lines.find((line) => line.message === 'Ingest queue refused a webhook request');
    expect(refused).toMatchObject({ function_name: 'webhook', function_request_id: context.awsRequestId, correlation_id: requestId, service: 'hark' });
    expect(refused).toHaveProperty('cold_start');
  });
});

/** The v2 event API Gateway hands the webhook Lambda for a JSON body with this title. */
function webhookEvent(requestId: string, title: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /integration/{id}',
    rawPath: `/integration/${open.prefix_id}`,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    pathParameters: { id: open.prefix_id },
    requestContext: { requestId, http: { method: 'POST', path: `/integration/${open.prefix_id}`, sourceIp: '127.0.0.1' } },
    body: JSON.stringify({ title }),
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}
