// The outgoing webhooks queue: the wake-ups of webhook timers (fan-out, attempts), forwarded by the timers
// Lambda, so slow receivers hold the webhooks worker and never the timers worker that pages people.
// docs/outgoing-webhooks.md, "How a delivery runs".
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { MAX_WAKE_UP_DELAY_SECONDS } from '../limits.ts';
import { sqsClient } from './client.ts';
import type { WakeUpMessage } from './timers.ts';

export function webhooksQueueUrl(): string {
  const url = config().webhooksQueueUrl;
  if (!url) throw new Error('HARK_WEBHOOKS_QUEUE_URL is not set');
  return url;
}

/** Puts one webhook timer's wake-up on the webhooks queue, after `delaySeconds` (0..900). Throws when SQS refuses. */
export async function sendWebhookWork(message: WakeUpMessage, delaySeconds = 0): Promise<void> {
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: webhooksQueueUrl(),
      MessageBody: JSON.stringify(message),
      DelaySeconds: Math.min(MAX_WAKE_UP_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))),
    }),
  );
}
