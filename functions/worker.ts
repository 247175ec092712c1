// Worker Lambda: consumes the ingest FIFO queue, reporting partial batch failures so only failed
// messages (and the later ones of the same message group) are retried.
import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { processIngestBody } from '#lib/ingest/worker.ts';
import { lambdaLogging, logger } from '#lib/logger.ts';

/** One record; a failure is logged with the message id (SQS retries it, then parks it in the dead-letter queue). */
async function processRecord(record: SQSRecord): Promise<void> {
  try {
    await processIngestBody(record.body);
  } catch (error) {
    logger.error('Ingest message failed', { messageId: record.messageId, error: error as Error });
    throw error;
  }
}

export const handler = middy<SQSEvent, SQSBatchResponse, Error, Context>()
  .use(lambdaLogging())
  .handler(async (event, context) =>
    processPartialResponse(event, processRecord, new SqsFifoPartialProcessorAsync(), {
      context,
      skipGroupOnError: true,
      throwOnFullBatchFailure: false,
    }),
  );
