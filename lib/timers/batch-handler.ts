// The Lambda handler of a queue of timer wake-ups (the timers queue, the webhooks queue): each record fired through
// its owner's handler, failures reported per record so only they are retried (docs/timers.md).
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { isUnavailable } from '../db/retry.ts';
import { lambdaLogging, logger } from '../logger.ts';
import { processWakeUp } from './consumer.ts';
import type { TimerHandlers } from './types.ts';

/** Messages of other kinds the queue carries (a sign-in request on the timers queue), by their `kind`. */
export type OtherKinds = Readonly<Record<string, (body: string) => Promise<unknown>>>;

/** The `kind` of a message body without parsing it whole: the first field Hark writes. */
const kindOf = (body: string): string | undefined => /^\{"kind":"([a-z_]+)"/.exec(body)?.[1];

/**
 * `failureMessage` is logged (with the message id) for a record that failed and goes back to the queue; `others`
 * handle the records whose kind is not `timer`.
 */
export function wakeUpBatchHandler(handlers: Partial<TimerHandlers>, failureMessage: string, others: OtherKinds = {}) {
  async function processRecord(record: SQSRecord): Promise<void> {
    try {
      const kind = kindOf(record.body);
      const other = kind !== undefined && Object.hasOwn(others, kind) ? others[kind] : undefined;
      if (other) await other(record.body);
      else await processWakeUp(record.body, handlers);
    } catch (error) {
      // Reported as this record's failure: SQS delivers it again, the batch's other records go on. Storage failing
      // under load is expected now and then (a warning); anything else is a fault to look at.
      (isUnavailable(error) ? logger.warn : logger.error).call(logger, failureMessage, { messageId: record.messageId, error: error as Error });
      throw error;
    }
  }
  return middy<SQSEvent, SQSBatchResponse, Error, Context>()
    .use(lambdaLogging())
    .handler(async (event, context) => processPartialResponse(event, processRecord, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false }));
}
