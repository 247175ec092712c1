// Feeds the ingest queue to the worker handler as Lambda's SQS event source mapping does: batches of up
// to 10, messages reported in batchItemFailures stay on the queue (and reach the DLQ after maxReceiveCount).

import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../logger.ts';
import { sqsClient } from '../queue/client.ts';
import { lambdaContext, loadHandler } from './gateway.ts';

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = (message.Attributes ?? {}) as Record<string, string>;
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(attributes.MessageGroupId ? { MessageGroupId: attributes.MessageGroupId } : {}),
      ...(attributes.MessageDeduplicationId ? { MessageDeduplicationId: attributes.MessageDeduplicationId } : {}),
      ...(attributes.SequenceNumber ? { SequenceNumber: attributes.SequenceNumber } : {}),
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  };
}

export interface Poller {
  stop(): Promise<void>;
}

export function startPoller(queueUrl: string, options: { waitSeconds?: number } = {}): Poller {
  let running = true;
  const queueArn = `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`;
  const loop = (async () => {
    const handler = await loadHandler('worker');
    while (running) {
      try {
        const received = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: options.waitSeconds ?? 1,
            MessageSystemAttributeNames: ['All'],
          }),
        );
        const messages = received.Messages ?? [];
        if (messages.length === 0) continue;
        const event: SQSEvent = { Records: messages.map((m) => toRecord(m, queueArn)) };
        let failed = new Set<string>();
        try {
          const result = (await handler(event as never, lambdaContext('worker'))) as { batchItemFailures?: { itemIdentifier: string }[] };
          failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (error) {
          logger.error('Worker invocation failed; the whole batch will be retried', { error: error as Error });
          failed = new Set(messages.map((m) => m.MessageId!));
        }
        const done = messages.filter((m) => !failed.has(m.MessageId!));
        if (done.length) {
          await sqsClient().send(
            new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }),
          );
        }
      } catch (error) {
        if (running) {
          logger.error('Polling the ingest queue failed', { error: error as Error });
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
