// Alert storms, part "person": the usual storm — every create pages the ONE person on call, whose default channels are
// push and email — with a healthy SMTP server, then with the server refusing connections until the storm is applied,
// when it comes back. Applied creates/s ÷ raw create-sized transactions/s for each; with the server down nothing may be
// lost, and every held message must be sent within a minute of the server's return. docs/benchmarks.md, "Alert
// storms"; docs/decisions/0032-provider-breaker.md.
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { config, reloadConfig } from '#lib/config.ts';
import type { RunningStack } from '#lib/local/stack.ts';
import { must, type Api } from './api-client.ts';
import { drained, messagesIn, sleep } from './ingest-parts.ts';
import { stormTeam } from './storm-counts.ts';
import { sendStorm } from './storm-parts.ts';

/** The storm's size: the storm reported in issue 32 was 2,000 creates from 16 monitors at once. */
export const PERSON_STORM = { creates: Number(process.env.BENCH_PERSON_CREATES ?? 2000), warmup: 200 };

/** An SMTP server that accepts every mail and counts it (no parsing: the bench measures Hark, not the sink). */
async function smtpSink(port = 0): Promise<{ port: number; mails: () => number; stop: () => Promise<void> }> {
  let mails = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        mails += 1;
        callback();
      });
      stream.resume();
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  return { port: (server.server.address() as AddressInfo).port, mails: () => mails, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on: connecting to it is refused, as a server that is down refuses it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function useSmtp(port: number): void {
  process.env.HARK_SMTP_URL = `smtp://127.0.0.1:${port}`;
  reloadConfig();
}

export interface PersonStormResult {
  smtp: 'healthy' | 'refusing';
  creates: number;
  appliedSeconds: number;
  /** The ingest dead letters the storm left (a create that failed every attempt). */
  deadLetters: number;
  /** Email messages not `sent` once everything drained (none may be left). */
  emailsNotSent: number;
  /** Mails the server received for the storm (the throttle bundles what one person receives). */
  mails: number;
  /** Refusing: from the server's return until no message is held and every email is sent. */
  sentAfterReturnSeconds?: number;
  /** Refusing: the most messages `GET /outbox?status=held` showed at once (sampled). */
  heldAtMost?: number;
}

/** Email outbox messages of the storm's person by status, read page by page. */
async function emailStatuses(api: Api, accountUserId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let offset = 0; ; offset += 100) {
    const page = await must(api, 'GET', `/outbox?account_user_id=${accountUserId}&channel=email&limit=100&offset=${offset}`);
    for (const message of page.data as { status: string }[]) counts.set(message.status, (counts.get(message.status) ?? 0) + 1);
    if (!page.has_more) return counts;
  }
}

/** Part "person": the one-person storm with a healthy SMTP server, then with one refusing connections. */
export async function personStorms(api: Api, stack: RunningStack): Promise<PersonStormResult[]> {
  const before = process.env.HARK_SMTP_URL;
  const results: PersonStormResult[] = [];
  try {
    for (const smtp of ['healthy', 'refusing'] as const) {
      const sink = smtp === 'healthy' ? await smtpSink() : undefined;
      const port = sink?.port ?? (await closedPort());
      useSmtp(port);
      const team = await stormTeam(api, 1, `person-${smtp}`);
      const person = team.accountUserIds[0]!;
      await sendStorm(stack.baseUrl, [team], PERSON_STORM.warmup, 'Warm-up');
      await drained(config().ingestQueueUrl as string, 100);
      const deadBefore = await messagesIn(stack.ingestDlqUrl);
      const t0 = performance.now();
      let heldAtMost = 0;
      await sendStorm(stack.baseUrl, [team], PERSON_STORM.creates, `Person ${smtp}`);
      await drained(config().ingestQueueUrl as string, 100);
      const appliedSeconds = (performance.now() - t0) / 1000;
      let sentAfterReturnSeconds: number | undefined;
      let server = sink;
      if (smtp === 'refusing') {
        heldAtMost = (await emailStatuses(api, person)).get('held') ?? 0;
        server = await smtpSink(port);
        const back = performance.now();
        for (;;) {
          const statuses = await emailStatuses(api, person);
          heldAtMost = Math.max(heldAtMost, statuses.get('held') ?? 0);
          if ((statuses.get('held') ?? 0) === 0 && (statuses.get('queued') ?? 0) === 0) break;
          if (performance.now() - back > 300_000) break;
          await sleep(1000);
        }
        sentAfterReturnSeconds = (performance.now() - back) / 1000;
      }
      await drained(config().timersQueueUrl as string, 100);
      const statuses = await emailStatuses(api, person);
      const notSent = [...statuses].filter(([status]) => status !== 'sent').reduce((n, [, count]) => n + count, 0);
      results.push({
        smtp,
        creates: PERSON_STORM.creates,
        appliedSeconds,
        deadLetters: (await messagesIn(stack.ingestDlqUrl)) - deadBefore,
        emailsNotSent: notSent,
        mails: server?.mails() ?? 0,
        ...(smtp === 'refusing' ? { sentAfterReturnSeconds, heldAtMost } : {}),
      });
      await server?.stop();
    }
  } finally {
    if (before === undefined) delete process.env.HARK_SMTP_URL;
    else process.env.HARK_SMTP_URL = before;
    reloadConfig();
  }
  return results;
}
