// An in-process SMTP server for tests: it speaks real SMTP (smtp-server), checks the login when asked to, refuses
// chosen recipients with a chosen reply code, and keeps every mail it accepts parsed (mailparser).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpInbox {
  /** `smtp://user:password@127.0.0.1:<port>` (or without credentials). */
  readonly url: string;
  readonly mails: ParsedMail[];
  /** Refuses RCPT TO `address` with `code` (e.g. 450 temporary, 550 permanent). */
  refuse(address: string, code: number): void;
  /** The next mail to arrive (or the first already there for `to`). */
  waitFor(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /** Stops listening (connections are refused, as by a server that is down); `start` listens on the same port again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpInbox(options: { user?: string; password?: string } = {}): Promise<SmtpInbox> {
  const mails: ParsedMail[] = [];
  const refusals = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const serve = () => new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: !options.user,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const code = refusals.get(address.address.toLowerCase());
      if (code) callback(Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }));
      else callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  let server = serve();
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  const auth = options.user ? `${encodeURIComponent(options.user)}:${encodeURIComponent(options.password ?? '')}@` : '';
  const addressedTo = (to: string) => mails.find((m) => (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).some((a) => a.value.some((v) => v.address === to)));
  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    mails,
    refuse: (address, code) => void refusals.set(address.toLowerCase(), code),
    async waitFor(to, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = addressedTo(to);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} arrived`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = serve();
      server.listen(port, '127.0.0.1');
      await once(server.server, 'listening');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
