// A broadcast end to end on the real local parts: a gateway, the timers poller and the production timer handlers
// run in this test process (so the email adapter is a test adapter recording what it is handed), on a table and a
// timers queue of their own. The send hands each message to delivery, the message carries one signed link per
// option, and posting a link's form records the answer with the message's channel. docs/broadcasts.md.
import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import { promisify } from 'node:util';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { ensureTable } from '#lib/local/dynamo.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { startTimersPoller } from '#lib/local/timers.ts';
import type { Poller } from '#lib/local/poller.ts';
import { useTestAdapters } from '#lib/notify/adapters.ts';
import type { OutgoingMessage } from '#lib/notify/port.ts';

const run = promisify(execFile);

let server: Server;
let poller: Poller;
let baseUrl: string;
let adminKey: string;
const handed: OutgoingMessage[] = [];

async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(`${baseUrl}${path.startsWith('/actions/') ? '' : '/api/v4'}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // an HTML page
  }
  return { status: response.status, body: parsed as T, text };
}

beforeAll(async () => {
  const tableName = `broadcasts-${process.pid}-${Date.now()}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `broadcast-timers-${process.pid}-${Date.now()}`, Attributes: { VisibilityTimeout: '1' } }));
  Object.assign(process.env, {
    HARK_DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    HARK_TABLE_NAME: tableName,
    HARK_SQS_ENDPOINT: inject('sqsEndpoint'),
    HARK_TIMERS_QUEUE_URL: queue.QueueUrl!,
    HARK_LINK_SECRET: 'broadcast-links-test-secret-0123456789abcdef',
    HARK_PUBLIC_URL: 'https://hark.example.test',
    AWS_REGION: 'us-east-1',
  });
  useTestAdapters({
    email: { channel: 'email', provider: 'test-email', send: async (message) => (handed.push(message), { status: 'sent', providerMessageId: `pm-${message.notificationId}` }) },
  });
  server = await startGateway(0);
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  poller = startTimersPoller(queue.QueueUrl!);
  const { stdout } = await run(process.execPath, ['lib/admin/cli.ts', 'create-account', 'Broadcast delivery', '--admin-email', `admin-${process.pid}@example.test`, '--json'], {
    env: { ...process.env },
  });
  adminKey = (JSON.parse(stdout.trim().split('\n').pop()!) as { api_key: string }).api_key;
});

afterAll(async () => {
  useTestAdapters(undefined);
  await poller?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('a broadcast through delivery', () => {
  it('sends each message through the channel adapter with one signed link per option; posting one answers by that channel', { timeout: 60_000 }, async () => {
    const me = (await api('GET', '/account_users')).body.data[0].id as string;
    const created = await api('POST', '/broadcasts', {
      title: 'Standby tonight?',
      description: 'Database maintenance 22:00-23:00 UTC',
      destination_account_user_ids: [me],
      select_specific_channels: true,
      notify_email: true,
      response_requested: true,
      response_requested_by: new Date(Date.now() + 3_600_000).toISOString(),
      broadcast_response_options_attributes: [{ value: 'I can' }, { value: 'I cannot' }],
    });
    expect(created.status, created.text).toBe(201);
    const options = created.body.broadcast_response_options as { id: string; value: string }[];

    await vi.waitFor(() => expect(handed).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const message = handed[0]!;
    expect(message).toMatchObject({ channel: 'email', accountUserId: me, about: { ownerType: 'broadcast', ownerId: created.body.id, prefixId: created.body.prefix_id } });
    expect(message.subject).toBe(`[Broadcast] Standby tonight? (${created.body.prefix_id})`);
    expect(message.text).toContain('Database maintenance 22:00-23:00 UTC');
    expect(message.actions.map((a) => [a.action, a.label])).toEqual(options.map((o) => [o.id, o.value]));
    expect(message.actions.every((a) => a.url.startsWith('https://hark.example.test/actions/'))).toBe(true);
    await vi.waitFor(async () => expect((await api('GET', `/broadcasts/${created.body.id}/notifications`)).body.data.map((r: { status: string }) => r.status)).toEqual(['sent']), {
      timeout: 10_000,
      interval: 100,
    });

    const cannot = new URL(message.actions[1]!.url).pathname;
    const answered = await api('POST', cannot);
    expect(answered.status).toBe(200);
    expect(answered.text).toContain('Your answer &quot;I cannot&quot; is recorded.');
    const after = (await api('GET', `/broadcasts/${created.body.id}`)).body;
    expect(after.broadcast_responses.map((r: Record<string, string>) => [r.account_user_id, r.broadcast_response_option_id, r.channel])).toEqual([[me, options[1]!.id, 'email']]);
    expect(after.broadcast_response_options.map((o: { broadcast_responses_count: number }) => o.broadcast_responses_count)).toEqual([0, 1]);
  });
});
