// A node:http stand-in for Slack's Web API: checks the bot token and JSON bodies as Slack does, knows a few users
// by email, and keeps every call it answered.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackStub {
  readonly url: string;
  readonly calls: { method: string; body: any }[];
  /** Makes the next calls of `method` answer `answer` (an HTTP status, or Slack's `{ok:false,error}`). */
  fail(method: string, answer: number | string): void;
  close(): Promise<void>;
}

export async function startSlackStub(options: { token: string; users: Record<string, string> }): Promise<SlackStub> {
  const calls: { method: string; body: any }[] = [];
  const failures = new Map<string, number | string>();
  const emailOf = (id: string) => Object.entries(options.users).find(([, u]) => u === id)?.[0];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '');
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${options.token}`) return reply(200, { ok: false, error: 'invalid_auth' });
      if (!String(req.headers['content-type']).startsWith('application/json')) return reply(200, { ok: false, error: 'invalid_form_data' });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      calls.push({ method, body });
      const failure = failures.get(method);
      if (typeof failure === 'number') return reply(failure, { ok: false });
      if (typeof failure === 'string') return reply(200, { ok: false, error: failure });
      switch (method) {
        case 'users.lookupByEmail': {
          const id = options.users[body.email];
          return reply(200, id ? { ok: true, user: { id } } : { ok: false, error: 'users_not_found' });
        }
        case 'users.info': {
          const email = emailOf(body.user);
          return reply(200, email ? { ok: true, user: { id: body.user, profile: { email } } } : { ok: false, error: 'user_not_found' });
        }
        case 'chat.postMessage':
          return reply(200, { ok: true, channel: `D${body.channel}`, ts: '1700000000.000100', message: { text: body.text } });
        case 'chat.update':
          return reply(200, { ok: true, channel: body.channel, ts: body.ts });
        case 'chat.postEphemeral':
          return reply(200, { ok: true, message_ts: '1700000000.000200' });
        default:
          return reply(200, { ok: false, error: 'unknown_method' });
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    calls,
    fail: (method, answer) => void failures.set(method, answer),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
