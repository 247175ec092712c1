// The outgoing webhooks worker: consumes the webhooks queue (forwarded wake-ups of webhook timers) and runs
// fan-outs and delivery attempts, each record of a batch concurrently. docs/outgoing-webhooks.md.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaLogging, logger } from '#lib/logger.ts';
import { processWakeUp } from '#lib/timers/consumer.ts';
import { onWebhookTimer } from '#lib/webhooks/worker.ts';

async function processRecord(record: SQSRecord): Promise<void> {
  try {
    await processWakeUp(record.body, { webhook: onWebhookTimer });
  } catch (error) {
    logger.error('Webhook work failed; it will be retried', { messageId: record.messageId, error: error as Error });
    throw error;
  }
}

export const handler = middy<SQSEvent, SQSBatchResponse, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event, context) => processPartialResponse(event, processRecord, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false }));
