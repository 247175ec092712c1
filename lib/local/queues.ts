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

export async function startQueues(options: { dataDir: string | undefined; port: number; visibilityTimeoutSeconds: number }): Promise<LocalQueues> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const server = await startFauxqs({ port: options.port, logger: false, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
  const dlq = server.createQueue(QUEUES.ingestDlq.name, { attributes: { FifoQueue: 'true' } });
  const ingest = server.createQueue(QUEUES.ingest.name, {
    attributes: {
      FifoQueue: 'true',
      VisibilityTimeout: String(options.visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: String(QUEUES.ingest.maxReceiveCount) }),
    },
  });
  const timersDlq = server.createQueue(QUEUES.timersDlq.name);
  const timers = server.createQueue(QUEUES.timers.name, {
    attributes: {
      VisibilityTimeout: String(options.visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: timersDlq.queueArn, maxReceiveCount: String(QUEUES.timers.maxReceiveCount) }),
    },
  });
  const webhooksDlq = server.createQueue(QUEUES.webhooksDlq.name);
  const webhooks = server.createQueue(QUEUES.webhooks.name, {
    attributes: {
      VisibilityTimeout: String(options.visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: webhooksDlq.queueArn, maxReceiveCount: String(QUEUES.webhooks.maxReceiveCount) }),
    },
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
