// An ntfy server of the test's own, the two calls Hark and its smoke check use: the JSON publish (`POST /` with
// {topic, title, message, actions, …}, answered with the message and its id) and the poll of a topic
// (`GET /<topic>/json?poll=1&since=<unix seconds>`, one JSON message a line), as ntfy documents them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface NtfyMessage {
  id: string;
  time: number;
  event: 'message';
  topic: string;
  title?: string;
  message?: string;
  actions?: { action: string; label: string; url: string; method?: string }[];
}

export interface NtfyServer {
  url: string;
  /** Every message published, by topic. */
  messages(topic: string): NtfyMessage[];
  /** How many polls were answered (the smoke check reads the topic by polling). */
  polls(): number;
  close(): Promise<void>;
}

export async function startNtfyServer(): Promise<NtfyServer> {
  const topics = new Map<string, NtfyMessage[]>();
  let polls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://ntfy.test');
      if (req.method === 'POST' && url.pathname === '/') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<NtfyMessage, 'id' | 'time' | 'event'>;
        const message: NtfyMessage = { ...body, id: randomBytes(6).toString('hex'), time: Math.floor(Date.now() / 1000), event: 'message' };
        topics.set(body.topic, [...(topics.get(body.topic) ?? []), message]);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      const poll = /^\/([\w-]+)\/json$/.exec(url.pathname);
      if (req.method === 'GET' && poll && url.searchParams.get('poll') === '1') {
        polls += 1;
        const since = Number(url.searchParams.get('since') ?? 0);
        const lines = (topics.get(poll[1]!) ?? []).filter((m) => m.time >= since).map((m) => `${JSON.stringify(m)}\n`);
        res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(lines.join(''));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":40401,"error":"page not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages: (topic) => topics.get(topic) ?? [],
    polls: () => polls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
