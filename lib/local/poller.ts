// Feeds a queue to its function as Lambda's SQS event source mapping does: batches of up to the mapping's batch size,
// and with ReportBatchItemFailures the messages a result names in batchItemFailures stay on the queue (and reach the
// DLQ after maxReceiveCount); without it only a thrown invocation keeps the batch. The ingest queue feeds the worker,
// the timers queue the timers function, the webhooks queue the webhooks function (lib/local/background.ts).

import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../logger.ts';
import { sqsClient } from '../queue/client.ts';

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

/**
 * Receive loops per queue in the local runtime, as Lambda runs several batches of a queue side by side (on a FIFO
 * queue for different message groups): a slow batch does not hold the next one.
 */
export const LOCAL_RECEIVE_LOOPS = 4;

export interface Poller {
  stop(): Promise<void>;
  /**
   * Stops taking batches and resolves once every batch in hand is finished; messages sent meanwhile wait on the queue
   * (as they do while a Lambda's event source mapping is disabled). The local benchmarks measure the webhook's
   * accept this way without the worker sharing its event loop.
   */
  pause(): Promise<void>;
  resume(): void;
}

export interface PollerOptions {
  waitSeconds?: number;
  /** Calls the function fed with the queue's messages (an Invoker's invoke, lib/local/invoker.ts). */
  invoke: (event: SQSEvent) => Promise<unknown>;
  /** The function's name in log lines. */
  name: string;
  /** The event source mapping's BatchSize (infra/stack.ts; the template in bundle mode). Default 10. */
  batchSize?: number;
  /** The mapping's FunctionResponseTypes has ReportBatchItemFailures (every Hark mapping has). Default true. */
  reportBatchItemFailures?: boolean;
  /**
   * Receive loops run side by side, as Lambda runs several batches of one queue at once (on a FIFO queue the
   * emulator, like SQS, hands a message group to one receiver at a time, so a group's order holds). Default 1.
   */
  concurrency?: number;
}

export function startPoller(queueUrl: string, options: PollerOptions): Poller {
  let running = true;
  const { name, invoke } = options;
  const queueArn = `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`;
  const batchSize = Math.min(10, Math.max(1, options.batchSize ?? 10));
  const reportsFailures = options.reportBatchItemFailures ?? true;
  const loopCount = Math.max(1, options.concurrency ?? 1);
  // While paused, every loop waits at `gate` before receiving; the pause is complete once all loops are there.
  let gate: { waiting: number; opened: Promise<void>; open: () => void; allWaiting: Promise<void>; allArrived: () => void } | undefined;
  const waitWhilePaused = async () => {
    const current = gate;
    if (!current) return;
    if (++current.waiting === loopCount) current.allArrived();
    await current.opened;
  };
  const receiveLoop = async () => {
    while (running) {
      await waitWhilePaused();
      if (!running) break;
      try {
        const received = await sqsClient().send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: options.waitSeconds ?? 1,
            MessageSystemAttributeNames: ['All'],
          }),
        );
        const messages = received.Messages ?? [];
        if (messages.length === 0) continue;
        const event: SQSEvent = { Records: messages.map((m) => toRecord(m, queueArn)) };
        let failed = new Set<string>();
        try {
          const result = (await invoke(event)) as { batchItemFailures?: { itemIdentifier: string }[] } | undefined;
          if (reportsFailures) failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (error) {
          logger.error('Queue handler invocation failed; the whole batch will be retried', { queue: name, error: error as Error });
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
          logger.error('Polling a queue failed', { queue: name, error: error as Error });
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
  };
  const loops = Array.from({ length: loopCount }, receiveLoop);
  const resume = () => {
    const current = gate;
    gate = undefined;
    current?.open();
  };
  return {
    stop: async () => {
      running = false;
      resume();
      await Promise.all(loops);
    },
    pause: () => {
      if (!gate) {
        let open!: () => void;
        let allArrived!: () => void;
        const opened = new Promise<void>((r) => (open = r));
        const allWaiting = new Promise<void>((r) => (allArrived = r));
        gate = { waiting: 0, opened, open, allWaiting, allArrived };
      }
      return gate.allWaiting;
    },
    resume,
  };
}
