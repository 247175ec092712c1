// Outgoing webhooks on AWS (docs/outgoing-webhooks.md): a standard SQS queue of webhook work (forwarded wake-ups of
// webhook timers) with a dead-letter queue, consumed by the webhooks Lambda. Standard, not FIFO: the order per
// alert and endpoint is kept by the lanes in DynamoDB, and a slot-busy attempt comes back with a per-message delay.
import type { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { QUEUES } from '../lib/queue/settings.ts';
import { WorkQueues } from './queues.ts';

export interface WebhookQueuesProps {
  /** At least six times the webhooks function's timeout, as AWS advises for Lambda event sources. */
  readonly visibilityTimeout: Duration;
}

export class WebhookQueues extends WorkQueues {
  constructor(scope: Construct, id: string, props: WebhookQueuesProps) {
    super(scope, id, { visibilityTimeout: props.visibilityTimeout, maxReceiveCount: QUEUES.webhooks.maxReceiveCount });
  }
}
