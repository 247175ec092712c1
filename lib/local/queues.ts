// The SQS emulator (npm `fauxqs`) in-process, with the same queues the CDK stack creates.

import { startFauxqs } from 'fauxqs';
import { mkdirSync } from 'node:fs';
import { QUEUES } from '../queue/settings.ts';

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

export async function startQueues(options: { dataDir: string | undefined; port: number; visibilityTimeoutSeconds: number }): Promise<LocalQueues> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const server = await startFauxqs({ port: options.port, logger: false, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
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
