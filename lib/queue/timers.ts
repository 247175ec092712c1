// Wake-up messages of durable timers on the standard timers queue: the body names the timer item; the item in
// DynamoDB is the truth (docs/timers.md).

import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import { config } from '../config.ts';
import { MAX_WAKE_UP_DELAY_SECONDS } from '../limits.ts';
import { sqsClient } from './client.ts';
/** SendMessageBatch's limit of entries per request. */
const BATCH_ENTRIES = 10;

export const wakeUpMessageSchema = z.object({
  kind: z.literal('timer'),
  ownerType: z.string().min(1),
  accountId: z.string().min(1),
  ownerId: z.string().min(1),
  timerId: z.string().min(1),
  /** The due time when sent; informative only (the stored item's dueAt decides). */
  dueAt: z.string().min(1),
});
export type WakeUpMessage = z.infer<typeof wakeUpMessageSchema>;

export interface DelayedMessage {
  message: WakeUpMessage;
  delaySeconds: number;
}

export function timersQueueUrl(): string {
  const url = config().timersQueueUrl;
  if (!url) throw new Error('HARK_TIMERS_QUEUE_URL is not set');
  return url;
}

/** SQS refuses a per-message delay above 900 s; the local emulator does not, so the adapter clamps too. */
const clampDelay = (seconds: number) => Math.min(MAX_WAKE_UP_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));

/**
 * Sends wake-ups in batches of 10 and answers the ones SQS did not accept (a failed request fails its whole
 * batch), so the caller decides what a failure means.
 */
export async function sendWakeUpMessages(messages: readonly DelayedMessage[]): Promise<{ failed: DelayedMessage[] }> {
  const failed: DelayedMessage[] = [];
  const queueUrl = timersQueueUrl();
  for (let start = 0; start < messages.length; start += BATCH_ENTRIES) {
    const batch = messages.slice(start, start + BATCH_ENTRIES);
    try {
      const result = await sqsClient().send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((m, i) => ({ Id: String(i), MessageBody: JSON.stringify(m.message), DelaySeconds: clampDelay(m.delaySeconds) })),
        }),
      );
      for (const f of result.Failed ?? []) failed.push(batch[Number(f.Id)]!);
    } catch {
      failed.push(...batch);
    }
  }
  return { failed };
}
