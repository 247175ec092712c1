// Delivery on AWS (docs/notifications.md, "On AWS"): the secret of provider credentials, passed to the functions
// that send or verify messages by ARN only; the SES and End User Messaging permissions of the senders, limited to
// the identities the settings name; and the failed-deliveries metric and alarm. Deliveries ride the timers queue.
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct, type IConstruct } from 'constructs';
import { DELIVERY_FAILED_LOG_MESSAGE } from '../lib/delivery/records.ts';
import { PROVIDER_STILL_DOWN_LOG_MESSAGE } from '../lib/channel-adapters/breaker.ts';

export const DELIVERY_METRIC_NAMESPACE = 'Hark';
export const DELIVERY_FAILURES_METRIC = 'DeliveryFailures';
/** The alarm's window: any failed delivery in 5 minutes raises it. */
export const FAILED_DELIVERY_PERIOD = Duration.minutes(5);
export const PROVIDER_DOWN_METRIC = 'ProviderDownOverFiveMinutes';
/** A provider's breaker open this long raises the alarm (docs/decisions/0032-provider-breaker.md). */
export const PROVIDER_DOWN_ALARM_AFTER = Duration.minutes(5);

export interface DeliveryProps {
  /** Functions that send messages (the timers function and the sweeper): SES / End User Messaging permissions. */
  readonly senders: readonly { function: NodejsFunction; logGroup: ILogGroup }[];
  /** Functions that read the secret: the senders, and those that verify links and provider signatures. */
  readonly secretReaders: readonly NodejsFunction[];
  /** An address of an SES identity verified in the stack's region (`hark:mailFrom`): email goes through SES. */
  readonly mailFrom: string | undefined;
  /** An End User Messaging origination identity ARN (`hark:smsOriginationIdentityArn`): SMS and calls go through it. */
  readonly smsOriginationIdentityArn: string | undefined;
  /** The operator alarms' topic. */
  readonly alarmTopic: ITopic;
}

export class DeliveryResources extends Construct {
  readonly secret: Secret;
  readonly failureAlarm: Alarm;
  readonly providerDownAlarm: Alarm;

  constructor(scope: Construct, id: string, props: DeliveryProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Generated with the link key; operators add provider credentials (HARK_SMTP_URL, HARK_TWILIO_AUTH_TOKEN, …) as
    // more keys of the same JSON object. The template holds only the secret's ARN.
    this.secret = new Secret(this, 'ProviderSecret', {
      description: 'Hark: message provider credentials and the action-link key, a JSON object of HARK_* variables',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'HARK_LINK_SECRET', passwordLength: 48, excludePunctuation: true },
    });
    acknowledge(this.secret, 'AwsSolutions-SMG4', 'The secret holds third-party credentials (SMTP, Twilio) that only their provider can rotate; the link key is rotated by hand with HARK_LINK_SECRET_PREVIOUS (docs/notifications.md).');
    for (const reader of props.secretReaders) {
      this.secret.grantRead(reader);
      reader.addEnvironment('HARK_SECRETS_ARN', this.secret.secretArn);
    }

    const mailFrom = props.mailFrom;
    const allowMail = (fn: NodejsFunction) => {
      if (!mailFrom) return;
      const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
      const domain = address.split('@')[1] ?? address;
      fn.addEnvironment('HARK_EMAIL_PROVIDER', 'ses');
      fn.addEnvironment('HARK_MAIL_FROM', mailFrom);
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [address, domain].map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
        }),
      );
    };
    for (const sender of props.senders) {
      allowMail(sender.function);
      if (props.smsOriginationIdentityArn) {
        sender.function.addEnvironment('HARK_SMS_PROVIDER', 'end-user-messaging');
        sender.function.addEnvironment('HARK_SMS_ORIGINATION_IDENTITY', props.smsOriginationIdentityArn);
        sender.function.addToRolePolicy(
          new PolicyStatement({ actions: ['sms-voice:SendTextMessage', 'sms-voice:SendVoiceMessage'], resources: [props.smsOriginationIdentityArn] }),
        );
      }
      new MetricFilter(this, `FailedDeliveries${props.senders.indexOf(sender)}`, {
        logGroup: sender.logGroup,
        filterPattern: FilterPattern.stringValue('$.message', '=', DELIVERY_FAILED_LOG_MESSAGE),
        metricNamespace: DELIVERY_METRIC_NAMESPACE,
        metricName: DELIVERY_FAILURES_METRIC,
        metricValue: '1',
        defaultValue: 0,
      });
      // Each probe in vain logs how long the provider has been down: those past five minutes count.
      new MetricFilter(this, `ProviderDown${props.senders.indexOf(sender)}`, {
        logGroup: sender.logGroup,
        filterPattern: FilterPattern.all(
          FilterPattern.stringValue('$.message', '=', PROVIDER_STILL_DOWN_LOG_MESSAGE),
          FilterPattern.numberValue('$.down_for_seconds', '>=', PROVIDER_DOWN_ALARM_AFTER.toSeconds()),
        ),
        metricNamespace: DELIVERY_METRIC_NAMESPACE,
        metricName: PROVIDER_DOWN_METRIC,
        metricValue: '1',
        defaultValue: 0,
      });
    }

    this.failureAlarm = new Alarm(this, 'FailedDeliveriesAlarm', {
      alarmDescription:
        'Hark: a notification failed for good (a permanent provider error, or every retry failed): someone was not reached on that channel. ' +
        'The alert log names the record and the error; check the provider credentials in the secret and the timers Lambda logs (docs/notifications.md).',
      metric: new Metric({ namespace: DELIVERY_METRIC_NAMESPACE, metricName: DELIVERY_FAILURES_METRIC, statistic: 'Sum', period: FAILED_DELIVERY_PERIOD }),
      threshold: 0,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.providerDownAlarm = new Alarm(this, 'ProviderDownAlarm', {
      alarmDescription:
        'Hark: a delivery provider (an SMTP server, SES, Twilio, ntfy, Slack) has not answered for more than 5 minutes: its messages are held, ' +
        'not lost, and go out when it answers. The timers Lambda logs name the provider and its last error (docs/notifications.md, "When a provider is down").',
      metric: new Metric({ namespace: DELIVERY_METRIC_NAMESPACE, metricName: PROVIDER_DOWN_METRIC, statistic: 'Sum', period: Duration.minutes(1) }),
      threshold: 0,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(props.alarmTopic);
    for (const alarm of [this.failureAlarm, this.providerDownAlarm]) {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
    }
  }
}

function acknowledge(construct: IConstruct, ruleId: string, reason: string): void {
  Validations.of(construct).acknowledge({ id: ruleId, reason });
}

