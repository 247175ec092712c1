// Worker Lambda: consumes the ingest FIFO queue, reporting partial batch failures so only failed
// messages (and the later ones of the same message group) are retried.
import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { processIngestBody } from '#lib/ingest/worker.ts';

export const handler = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, (record: SQSRecord) => processIngestBody(record.body), new SqsFifoPartialProcessorAsync(), {
    context,
    skipGroupOnError: true,
    throwOnFullBatchFailure: false,
  });
