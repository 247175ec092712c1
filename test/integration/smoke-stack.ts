// A stack of the smoke test's own on the shared DynamoDB Local and SQS emulator (a table and queues of its own, no
// second emulator to start): the gateway, the ingest worker, the timers poller, the sweeper and the webhooks poller
// in this test process, as `npm start` wires them (lib/local/stack.ts), with push published to `ntfyUrl`.
import type { Server } from 'node:http';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { inject } from 'vitest';
import { ensureTable } from '#lib/local/dynamo.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { sourceBackground, startHosts } from '#lib/local/background.ts';
import type { StackTarget } from './helpers.ts';

export interface SmokeStack extends StackTarget {
  /** The ingest worker's receive loops: paused, webhooks are queued and nothing becomes an alert. */
  ingestWorker: { pause(): Promise<void>; resume(): void };
  stop(): Promise<void>;
}

export async function startSmokeStack(name: string, ntfyUrl: string): Promise<SmokeStack> {
  const unique = `${name}-${process.pid}-${Date.now()}`;
  const dynamoEndpoint = inject('dynamoEndpoint');
  await ensureTable(dynamoEndpoint, unique);
  const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = async (queueName: string, attributes: Record<string, string> = {}) =>
    (await sqs.send(new CreateQueueCommand({ QueueName: queueName, Attributes: { VisibilityTimeout: '1', ...attributes } }))).QueueUrl!;
  const ingest = await queue(`${unique}-ingest.fifo`, { FifoQueue: 'true' });
  const timers = await queue(`${unique}-timers`);
  const webhooks = await queue(`${unique}-webhooks`);
  Object.assign(process.env, {
    HARK_DYNAMODB_ENDPOINT: dynamoEndpoint,
    HARK_TABLE_NAME: unique,
    HARK_SQS_ENDPOINT: inject('sqsEndpoint'),
    HARK_INGEST_QUEUE_URL: ingest,
    HARK_TIMERS_QUEUE_URL: timers,
    HARK_WEBHOOKS_QUEUE_URL: webhooks,
    HARK_LINK_SECRET: `${name}-links-test-secret-0123456789abcdef`,
    HARK_NTFY_URL: ntfyUrl,
    AWS_REGION: 'us-east-1',
  });
  const server: Server = await startGateway(0);
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  process.env.HARK_PUBLIC_URL = baseUrl;
  // On this thread (no isolation), as the test stacks run them: the same functions, batch sizes and receive loops.
  const background = await startHosts(sourceBackground({ ingestQueueUrl: ingest, timersQueueUrl: timers, webhooksQueueUrl: webhooks }), 'none');
  const worker = { pause: () => background.pause(ingest), resume: () => background.resume(ingest) };
  const stops = [background.stop];
  return {
    baseUrl,
    dynamoEndpoint,
    tableName: unique,
    ingestWorker: worker,
    stop: async () => {
      for (const stop of stops) await stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
