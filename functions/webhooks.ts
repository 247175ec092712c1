// The outgoing webhooks worker: consumes the webhooks queue (forwarded wake-ups of webhook timers) and runs
// fan-outs and delivery attempts, each record of a batch concurrently. docs/outgoing-webhooks.md.
import { wakeUpBatchHandler } from '#lib/timers/batch-handler.ts';
import { onWebhookTimer } from '#lib/webhooks/worker.ts';

export const handler = wakeUpBatchHandler({ webhook: onWebhookTimer }, 'Webhook work failed; it will be retried');
