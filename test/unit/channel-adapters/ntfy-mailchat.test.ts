// The push adapter against a node:http stand-in for an ntfy server that checks what ntfy checks: the access
// token, a JSON publication to the server root, and a topic name ntfy accepts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnvironment } from '#lib/config.ts';
import { ntfyAdapter, ntfyAdapterOf, pushSubscriptionOf, pushTopic } from '#lib/channel-adapters/ntfy.ts';
import { ALERT_ACTIONS, outgoingMessage } from '../../support/outgoing-message.ts';

const TOPIC_KEY = 'n'.repeat(40);
const TOKEN = 'tk_hark0000000000000000000000000';

const message = outgoingMessage({ channel: 'push', subject: 'Alert #12: Disk full on db-1 — ünïcode', actions: ALERT_ACTIONS });

describe('ntfy push', () => {
  let server: Server;
  let url: string;
  const published: { path: string; body: any }[] = [];
  let status = 200;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.headers.authorization !== `Bearer ${TOKEN}`) {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":40101,"http":401,"error":"unauthorized"}');
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        published.push({ path: `${req.method} ${req.url} ${req.headers['content-type']}`, body });
        if (req.url !== '/' || !/^[-_A-Za-z0-9]{1,64}$/.test(body.topic)) {
          res.writeHead(400).end('{"error":"invalid topic"}');
          return;
        }
        if (status !== 200) {
          res.writeHead(status).end('{"error":"try later"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'hwQ2YpKdmg', time: 1, event: 'message', topic: body.topic }));
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('publishes to the person’s topic with the token, the title, priority and the links as http action buttons', async () => {
    status = 200;
    const result = await ntfyAdapterOf({ url: `${url}/`, token: TOKEN, topicKey: TOPIC_KEY }).send(message);
    expect(result).toEqual({ status: 'sent', providerMessageId: 'hwQ2YpKdmg' });
    const { path, body } = published.at(-1)!;
    expect(path).toBe('POST / application/json');
    expect(body).toEqual({
      topic: pushTopic(TOPIC_KEY, '01JACCOUNT', '01JPERSON'),
      title: 'Alert #12: Disk full on db-1 — ünïcode',
      message: 'Urgency: high',
      priority: 4,
      tags: ['rotating_light'],
      click: 'https://hark.example.com/actions/ack.token',
      actions: [
        { action: 'http', label: 'Acknowledge', url: 'https://hark.example.com/actions/ack.token', method: 'POST', clear: true },
        { action: 'http', label: 'Resolve', url: 'https://hark.example.com/actions/res.token', method: 'POST', clear: true },
      ],
    });
  });

  it('reports a refused token as permanent, 429 and 5xx as retryable, an unreachable server as retryable', async () => {
    status = 200;
    expect(await ntfyAdapterOf({ url, token: 'tk_wrong', topicKey: TOPIC_KEY }).send(message)).toMatchObject({ status: 'failed', retryable: false, error: expect.stringContaining('ntfy 401') });
    status = 429;
    expect(await ntfyAdapterOf({ url, token: TOKEN, topicKey: TOPIC_KEY }).send(message)).toMatchObject({ status: 'failed', retryable: true });
    status = 503;
    expect(await ntfyAdapterOf({ url, token: TOKEN, topicKey: TOPIC_KEY }).send(message)).toMatchObject({ status: 'failed', retryable: true });
    expect(await ntfyAdapterOf({ url: 'http://127.0.0.1:1', token: TOKEN, topicKey: TOPIC_KEY }).send(message)).toMatchObject({ status: 'failed', retryable: true });
  });
});

describe('push topics', () => {
  it('are per person, stable, valid ntfy topic names, and differ with the key', () => {
    const topic = pushTopic(TOPIC_KEY, 'A', 'P1');
    expect(topic).toMatch(/^hark_[-_A-Za-z0-9]{24}$/);
    expect(pushTopic(TOPIC_KEY, 'A', 'P1')).toBe(topic);
    expect(pushTopic(TOPIC_KEY, 'A', 'P2')).not.toBe(topic);
    expect(pushTopic(TOPIC_KEY, 'B', 'P1')).not.toBe(topic);
    expect(pushTopic('m'.repeat(40), 'A', 'P1')).not.toBe(topic);
  });

  it('come from HARK_NTFY_TOPIC_KEY, else the link key; no server or no key → push is not configured', () => {
    const env = { HARK_NTFY_URL: 'https://ntfy.example.com/', HARK_LINK_SECRET: 'l'.repeat(40) };
    expect(pushSubscriptionOf(parseEnvironment(env), 'A', 'P1')).toEqual({
      provider: 'ntfy',
      server: 'https://ntfy.example.com',
      topic: pushTopic('l'.repeat(40), 'A', 'P1'),
      subscribe_url: `https://ntfy.example.com/${pushTopic('l'.repeat(40), 'A', 'P1')}`,
    });
    expect(pushSubscriptionOf(parseEnvironment({ ...env, HARK_NTFY_TOPIC_KEY: TOPIC_KEY }), 'A', 'P1').topic).toBe(pushTopic(TOPIC_KEY, 'A', 'P1'));
    expect(ntfyAdapter(parseEnvironment(env))?.provider).toBe('ntfy');
    expect(ntfyAdapter(parseEnvironment({ HARK_LINK_SECRET: 'l'.repeat(40) }))).toBeUndefined();
    expect(ntfyAdapter(parseEnvironment({ HARK_NTFY_URL: 'https://ntfy.example.com' }))).toBeUndefined();
    expect(pushSubscriptionOf(parseEnvironment({}), 'A', 'P1').provider).toBeNull();
  });
});
