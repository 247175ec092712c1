// A browser-less client of the console for integration tests: form posts, cookies kept by hand, redirects not
// followed (tests check them), and sign-in through the link a capturing email adapter received.
import { request as httpRequest } from 'node:http';
import type { ChannelAdapter, OutgoingMessage } from '#lib/channel-adapters/port.ts';

let clients = 0;

export interface Page {
  status: number;
  headers: Headers;
  text: string;
}

/** The sign-in link in a message, if it is a sign-in mail. */
const linkIn = (m: OutgoingMessage): string | undefined =>
  m.subject === 'Your Hark sign-in link' ? m.text.match(/https?:\/\/\S+\/sign-in\/[A-Za-z0-9_-]+/)?.[0] : undefined;

/**
 * An email adapter that keeps every message it is given (the sign-in links among them). A sign-in link is mailed by
 * the timers worker after POST /sign-in answered, so `nextLinkFor` waits for it.
 */
export function capturingEmail(): ChannelAdapter & { messages: OutgoingMessage[]; linkFor(to: string): string; nextLinkFor(to: string, after: number): Promise<string> } {
  const messages: OutgoingMessage[] = [];
  return {
    channel: 'email',
    provider: 'capture',
    messages,
    async send(message) {
      messages.push(message);
      return { status: 'sent', providerMessageId: message.notificationId };
    },
    linkFor(to) {
      const link = [...messages].reverse().filter((m) => m.to === to).map(linkIn).find((l) => l !== undefined);
      if (!link) throw new Error(`no sign-in link for ${to}`);
      return link;
    },
    /** The first sign-in link mailed to `to` among the messages from index `after` on, waiting up to 10 s. */
    async nextLinkFor(to, after) {
      for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((r) => setTimeout(r, 25))) {
        const link = messages.slice(after).filter((m) => m.to === to).map(linkIn).find((l) => l !== undefined);
        if (link) return link;
      }
      throw new Error(`no sign-in link for ${to} within 10 s`);
    },
  };
}

export class ConsoleClient {
  cookie: string | undefined;
  /**
   * Each client speaks from its own loopback address (127.0.0.0/8 is all loopback on Linux), so the per-address
   * sign-in limit counts each test's requests apart, as it would different people's.
   */
  readonly sourceIp: string;
  readonly base: string;
  constructor(base: string, sourceIp?: string) {
    this.base = base;
    clients += 1;
    this.sourceIp = sourceIp ?? `127.${(process.pid >> 8) & 255}.${process.pid & 255}.${(clients % 250) + 2}`;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.send('GET', path, undefined, headers);
  }

  async post(path: string, form: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Page> {
    return this.send('POST', path, new URLSearchParams(form).toString(), { 'content-type': 'application/x-www-form-urlencoded', ...headers });
  }

  private async send(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<Page> {
    const url = new URL(path, this.base);
    const response = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method, localAddress: this.sourceIp, headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const answer = new Headers();
            for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
            resolve({ status: res.statusCode!, headers: answer, text: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const pair = setCookie.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return response;
  }

  /** The CSRF token of the forms on a page. */
  static csrfOf(page: Page): string {
    const token = page.text.match(/name="csrf" value="([^"]+)"/)?.[1];
    if (!token) throw new Error('no CSRF token on the page');
    return token;
  }

  /** Asks for a link, follows the mailed link's button: the client is then signed in. */
  async signIn(email: string, mail: ReturnType<typeof capturingEmail>): Promise<Page> {
    const before = mail.messages.length;
    await this.post('/sign-in', { email });
    const link = new URL(await mail.nextLinkFor(email, before));
    return this.post(link.pathname);
  }
}
