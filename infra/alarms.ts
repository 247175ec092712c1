// Operator alarms. A page that never arrives is the worst failure of an on-call product, so anything that
// can drop or hold back an alert raises an alarm on an SNS topic operators subscribe to.

import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** An ingest message older than this means the worker is stuck or failing. */
export const INGEST_MAX_AGE = Duration.minutes(10);

export interface HarkAlarmsProps {
  readonly ingestQueue: IQueue;
  readonly ingestDeadLetterQueue: IQueue;
  readonly timersDeadLetterQueue: IQueue;
  readonly webhooksDeadLetterQueue: IQueue;
  /** 5xx answers of the API (any endpoint, including the webhook). */
  readonly apiServerErrors: IMetric;
  readonly alarmEmail: string | undefined;
}

export class HarkAlarms extends Construct {
  readonly topic: Topic;
  readonly deadLetterAlarm: Alarm;
  readonly timersDeadLetterAlarm: Alarm;
  readonly webhooksDeadLetterAlarm: Alarm;
  readonly ingestAgeAlarm: Alarm;
  readonly apiServerErrorAlarm: Alarm;

  constructor(scope: Construct, id: string, props: HarkAlarmsProps) {
    super(scope, id);
    const stack = Stack.of(this);

    // Not KMS-encrypted: notifications carry only alarm metadata, and CloudWatch cannot publish to a topic
    // under the AWS-managed key alias/aws/sns (a customer-managed key would cost a monthly fee for nothing).
    this.topic = new Topic(this, 'Topic', { displayName: 'Hark operator alarms', enforceSSL: true });
    // enforceSSL gives the topic its own policy, which replaces SNS's default one: CloudWatch (the service
    // that publishes alarm notifications) must be allowed explicitly, limited to this account's alarms.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchAlarms',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, description: string, metric: IMetric, threshold: number): Alarm => {
      const created = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        // No data means nothing arrived (SQS stops reporting idle queues; the API reports no 5xx when
        // there is no traffic), which is healthy.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      return created;
    };

    this.deadLetterAlarm = alarm(
      'DeadLetterAlarm',
      'Hark: webhook requests failed processing and moved to the ingest dead-letter queue. Their alerts were NOT created or updated. ' +
        'Inspect the worker logs, fix the cause, then redrive the dead-letter queue (docs/deploy.md).',
      props.ingestDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      0,
    );
    this.timersDeadLetterAlarm = alarm(
      'TimersDeadLetterAlarm',
      'Hark: timer wake-ups failed repeatedly and moved to the timers dead-letter queue. The sweeper keeps retrying those timers every minute, ' +
        'so escalations are late while the cause lasts. Inspect the timers and sweeper Lambda logs (docs/timers.md).',
      props.timersDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      0,
    );
    this.webhooksDeadLetterAlarm = alarm(
      'WebhooksDeadLetterAlarm',
      'Hark: outgoing webhook work failed repeatedly and moved to the webhooks dead-letter queue. The sweeper keeps forwarding those timers, ' +
        'so deliveries are late while the cause lasts. Inspect the webhooks Lambda logs (docs/outgoing-webhooks.md).',
      props.webhooksDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      0,
    );
    this.ingestAgeAlarm = alarm(
      'IngestAgeAlarm',
      `Hark: the oldest webhook request waiting in the ingest queue is older than ${INGEST_MAX_AGE.toMinutes()} minutes: ` +
        'alerts are delayed. Check the worker Lambda (errors, throttling, disabled event source mapping).',
      props.ingestQueue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
      INGEST_MAX_AGE.toSeconds(),
    );
    this.apiServerErrorAlarm = alarm(
      'ApiServerErrorAlarm',
      'Hark: the API answered 5xx in the last 5 minutes (a webhook refused this way may be an alert lost at the sender). ' +
        'Check the access logs and the Lambda logs.',
      props.apiServerErrors,
      0,
    );
  }
}
