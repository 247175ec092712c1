// A stack of a test file's own, run in the test process: a gateway and the timers poller with the production
// handlers, on a table and a timers queue of their own, with test delivery adapters (the shared stack has no
// provider, so every message it sends ends `suppressed`). For tests that need messages to be delivered, or to fail.
import type { Server } from 'node:http';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { ensureTable } from '#lib/local/dynamo.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { startTimersPoller } from '#lib/local/timers.ts';
import type { Poller } from '#lib/local/poller.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import type { ChannelAdapter, DeliveryChannel } from '#lib/channel-adapters/port.ts';
import type { StackTarget } from './helpers.ts';

export interface OwnStack extends StackTarget {
  /** The key signed action links use on this stack. */
  linkSecret: string;
  /** The timers poller (it also sends sign-in links): a test pauses it to record only what a request does. */
  timersWorker: Pick<Poller, 'pause' | 'resume'>;
  stop(): Promise<void>;
}

/**
 * Starts the stack and points this test process's own data-layer calls at it (as useTestStack does for the shared
 * one); `adapters` serve the channels (a channel left out has no provider).
 */
export async function startOwnStack(name: string, adapters: Partial<Record<DeliveryChannel, ChannelAdapter>>): Promise<OwnStack> {
  const tableName = `${name}-${process.pid}-${Date.now()}`;
  const dynamoEndpoint = inject('dynamoEndpoint');
  await ensureTable(dynamoEndpoint, tableName);
  const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-timers-${process.pid}-${Date.now()}`, Attributes: { VisibilityTimeout: '1' } }));
  const linkSecret = `${name}-links-test-secret-0123456789abcdef`;
  Object.assign(process.env, {
    HARK_DYNAMODB_ENDPOINT: dynamoEndpoint,
    HARK_TABLE_NAME: tableName,
    HARK_SQS_ENDPOINT: inject('sqsEndpoint'),
    HARK_TIMERS_QUEUE_URL: queue.QueueUrl!,
    HARK_LINK_SECRET: linkSecret,
    HARK_PUBLIC_URL: 'https://hark.example.test',
    AWS_REGION: 'us-east-1',
  });
  useTestAdapters(adapters);
  const server: Server = await startGateway(0);
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const poller: Poller = startTimersPoller(queue.QueueUrl!);
  return {
    baseUrl,
    dynamoEndpoint,
    tableName,
    linkSecret,
    timersWorker: poller,
    stop: async () => {
      useTestAdapters(undefined);
      await poller.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
