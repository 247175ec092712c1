// Worker Lambda: consumes the ingest FIFO queue. The records of one message group (one alert of one integration)
// are applied in order, and a failure returns it and the group's later records to the queue; different groups of
// a batch are applied side by side (docs/ingest.md, "The worker").
import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { isUnavailable } from '#lib/db/retry.ts';
import { processIngestBody } from '#lib/ingest/worker.ts';
import { lambdaLogging, logger } from '#lib/logger.ts';

/** One record; a failure is logged with the message id (SQS retries it, then parks it in the dead-letter queue). */
async function processRecord(record: SQSRecord): Promise<void> {
  try {
    // A first receive writes the request's log with its first change; a later one reads what an earlier one did.
    await processIngestBody(record.body, undefined, (record.attributes?.ApproximateReceiveCount ?? '1') === '1');
  } catch (error) {
    // Storage failing under load heals itself on a later delivery (a warning); anything else is a fault to look at.
    (isUnavailable(error) ? logger.warn : logger.error).call(logger, 'Ingest message failed', { messageId: record.messageId, error: error as Error });
    throw error;
  }
}

/** The batch's records by message group, each group in the order SQS delivered it. */
export function recordsByGroup(records: readonly SQSRecord[]): SQSRecord[][] {
  const groups = new Map<string, SQSRecord[]>();
  for (const record of records) {
    const group = record.attributes?.MessageGroupId ?? '';
    const list = groups.get(group);
    if (list) list.push(record);
    else groups.set(group, [record]);
  }
  return [...groups.values()];
}

/**
 * Powertools' FIFO processor keeps a group's order and skips the rest of a group after a failure, but applies
 * the whole batch one record at a time; one processor per group, run concurrently, keeps both rules and lets
 * ten alerts of a batch be applied at once.
 */
async function processBatch(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const responses = await Promise.all(
    recordsByGroup(event.Records).map((Records) =>
      processPartialResponse({ Records }, processRecord, new SqsFifoPartialProcessorAsync(), { context, skipGroupOnError: true, throwOnFullBatchFailure: false }),
    ),
  );
  const batchItemFailures: SQSBatchItemFailure[] = responses.flatMap((response) => response.batchItemFailures);
  return { batchItemFailures };
}

export const handler = middy<SQSEvent, SQSBatchResponse, Error, Context>().use(lambdaLogging()).handler(processBatch);
