// The SQS emulator (npm `fauxqs`) in-process, with the same queues the CDK stack creates, listening on loopback only:
// it has no authentication, so no other machine may reach it (docs/security.md, "Local parts on loopback").

import { startFauxqs } from 'fauxqs';
import { Server } from 'node:net';
import { QUEUES } from '../queue/settings.ts';
import { LOCAL_SERVICE_HOST } from './ports.ts';
import { makePrivateFolder } from './private-data.ts';

export interface LocalQueues {
  endpoint: string;
  ingestQueueUrl: string;
  ingestDlqUrl: string;
  timersQueueUrl: string;
  timersDlqUrl: string;
  webhooksQueueUrl: string;
  webhooksDlqUrl: string;
  stop(): Promise<void>;
}

type Fauxqs = Awaited<ReturnType<typeof startFauxqs>>;

/**
 * The queue as the data folder kept it, or a new one. fauxqs restores persisted queues with their messages when it
 * starts; creating one again would replace it with an empty queue and lose every message accepted before a restart.
 * Lookups are by name (fauxqs ignores the URL's host), so a kept queue's URL only gets this run's address.
 */
function ensureQueue(server: Fauxqs, name: string, attributes: Record<string, string>): { queueUrl: string; queueArn: string } {
  const kept = server.inspectQueue(name);
  if (kept) return { queueUrl: kept.url.replace(/^https?:\/\/[^/]+/, new URL(server.address).origin), queueArn: kept.arn };
  return server.createQueue(name, { attributes });
}

const ANY_ADDRESS = new Set(['0.0.0.0', '::']);

/**
 * Runs `start` with node's listen held to LOCAL_SERVICE_HOST: fauxqs (2.4) listens on 0.0.0.0 whatever it is told (its
 * `host` option only names the host in queue URLs). Only a listen on an any-address is changed, and only meanwhile;
 * the address actually bound is checked afterwards, so a fauxqs that listens another way fails the start.
 */
async function listeningOnLoopback<T>(start: () => Promise<T>): Promise<T> {
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    const [first] = args;
    if (typeof first === 'object' && first !== null && ANY_ADDRESS.has(String((first as { host?: unknown }).host))) {
      args[0] = { ...(first as object), host: LOCAL_SERVICE_HOST };
    }
    return (listen as (...a: unknown[]) => Server).apply(this, args);
  } as typeof listen;
  try {
    return await start();
  } finally {
    Server.prototype.listen = listen;
  }
}

export async function startQueues(options: { dataDir: string | undefined; port: number; visibilityTimeoutSeconds: number }): Promise<LocalQueues> {
  if (options.dataDir) makePrivateFolder(options.dataDir);
  const server = await listeningOnLoopback(() => startFauxqs({ port: options.port, logger: false, ...(options.dataDir ? { dataDir: options.dataDir } : {}) }));
  if (new URL(server.address).hostname !== LOCAL_SERVICE_HOST) {
    await server.stop();
    throw new Error(`The SQS emulator listens on ${server.address}, not on ${LOCAL_SERVICE_HOST} only`);
  }
  const dlq = ensureQueue(server, QUEUES.ingestDlq.name, { FifoQueue: 'true' });
  const ingest = ensureQueue(server, QUEUES.ingest.name, {
    FifoQueue: 'true',
    VisibilityTimeout: String(options.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: String(QUEUES.ingest.maxReceiveCount) }),
  });
  const timersDlq = ensureQueue(server, QUEUES.timersDlq.name, {});
  const timers = ensureQueue(server, QUEUES.timers.name, {
    VisibilityTimeout: String(options.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: timersDlq.queueArn, maxReceiveCount: String(QUEUES.timers.maxReceiveCount) }),
  });
  const webhooksDlq = ensureQueue(server, QUEUES.webhooksDlq.name, {});
  const webhooks = ensureQueue(server, QUEUES.webhooks.name, {
    VisibilityTimeout: String(options.visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: webhooksDlq.queueArn, maxReceiveCount: String(QUEUES.webhooks.maxReceiveCount) }),
  });
  return {
    endpoint: server.address,
    webhooksQueueUrl: webhooks.queueUrl,
    webhooksDlqUrl: webhooksDlq.queueUrl,
    ingestQueueUrl: ingest.queueUrl,
    ingestDlqUrl: dlq.queueUrl,
    timersQueueUrl: timers.queueUrl,
    timersDlqUrl: timersDlq.queueUrl,
    stop: () => server.stop(),
  };
}
