// Outgoing webhooks on AWS (docs/outgoing-webhooks.md): a standard SQS queue of webhook work (forwarded wake-ups of
// webhook timers) with a dead-letter queue, consumed by the webhooks Lambda. Standard, not FIFO: the order per
// alert and endpoint is kept by the lanes in DynamoDB, and a slot-busy attempt comes back with a per-message delay.
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES } from '../lib/queue/settings.ts';

export interface WebhookQueuesProps {
  /** At least six times the webhooks function's timeout, as AWS advises for Lambda event sources. */
  readonly visibilityTimeout: Duration;
}

export class WebhookQueues extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WebhookQueuesProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: QUEUES.webhooks.maxReceiveCount },
    });
  }
}
