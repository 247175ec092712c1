// The scheduled smoke check (docs/deploy.md, "Check it pages"), only with the context `hark:canaryMinutes`: EventBridge
// Scheduler runs the canary Lambda (functions/canary.ts) that often; its one log line per check becomes three
// metrics (checks, failures, end-to-end latency) whose alarms go to the operators' topic, outside Hark, since a Hark
// that is down cannot page about itself. The admin key it checks with lives in a secret of its own, which only the
// canary may read.
import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { FilterPattern, MetricFilter, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Schedule, ScheduleExpression, type IScheduleTarget } from 'aws-cdk-lib/aws-scheduler';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct, type Node } from 'constructs';
import { CHECK_FINISHED_LOG_MESSAGE } from '../lib/smoke-check/report.ts';
import { HarkFunction } from './lambda.ts';

export const CANARY_CONTEXT = { minutes: 'hark:canaryMinutes', maxSeconds: 'hark:canaryMaxSeconds' } as const;
export const CANARY_METRIC_NAMESPACE = 'Hark';
export const CANARY_METRICS = { checks: 'CanaryChecks', failures: 'CanaryFailures', latency: 'CanaryLatency' } as const;
/** Four waits of 30 s (functions/canary.ts) and the requests between them. */
export const CANARY_TIMEOUT = Duration.minutes(3);
const DEFAULT_MAX_SECONDS = 60;

export interface CanarySettings {
  /** Minutes between two checks (1 to 1440). */
  readonly minutes: number;
  /** A check slower than this, from the webhook to the resolved alert, raises the latency alarm (5 to 600 s). */
  readonly maxSeconds: number;
}

function wholeNumber(key: string, raw: unknown, min: number, max: number): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`Context ${key} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The canary's settings from the context, or undefined when `hark:canaryMinutes` is not set (no canary). */
export function canarySettings(node: Node): CanarySettings | undefined {
  const minutes = node.tryGetContext(CANARY_CONTEXT.minutes) as unknown;
  const maxSeconds = node.tryGetContext(CANARY_CONTEXT.maxSeconds) as unknown;
  if (minutes === undefined) {
    if (maxSeconds !== undefined) throw new Error(`Context ${CANARY_CONTEXT.maxSeconds} needs ${CANARY_CONTEXT.minutes}: there is no canary without it`);
    return undefined;
  }
  return {
    minutes: wholeNumber(CANARY_CONTEXT.minutes, minutes, 1, 1440),
    maxSeconds: maxSeconds === undefined ? DEFAULT_MAX_SECONDS : wholeNumber(CANARY_CONTEXT.maxSeconds, maxSeconds, 5, 600),
  };
}

export interface CanaryProps {
  readonly settings: CanarySettings;
  /** The URL the check calls: the one people and monitors reach (`hark:publicUrl`, else the API's). */
  readonly url: string;
  readonly alarmTopic: ITopic;
  readonly logRetention: RetentionDays;
  readonly functionsDir?: string | undefined;
}

export class CanaryCheck extends Construct {
  readonly handler: HarkFunction;
  readonly secret: Secret;
  readonly schedule: Schedule;
  readonly alarms: { failed: Alarm; silent: Alarm; slow: Alarm };

  constructor(scope: Construct, id: string, props: CanaryProps) {
    super(scope, id);
    const { minutes, maxSeconds } = props.settings;
    // Made with a placeholder only: the operator puts {"HARK_API_KEY": "<admin key>"} in it (docs/deploy.md).
    this.secret = new Secret(this, 'Secret', {
      description: 'Hark canary: {"HARK_API_KEY": an admin API key of the account the smoke check runs in, "HARK_NTFY_TOKEN": optional}',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'placeholder', passwordLength: 16, excludePunctuation: true },
    });
    Validations.of(this.secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'It holds a Hark API key, which only Hark issues: rotate it with npm run admin -- create-api-key and revoke-api-key (docs/deploy.md).' });

    this.handler = new HarkFunction(this, 'Lambda', {
      name: 'canary',
      description: 'Hark canary: the smoke check, paging its canary and acknowledging through the link',
      timeout: CANARY_TIMEOUT,
      memoryMb: 256,
      logRetention: props.logRetention,
      environment: { HARK_URL: props.url, HARK_CANARY_SECRET_ARN: this.secret.secretArn },
      ...(props.functionsDir ? { functionsDir: props.functionsDir } : {}),
    });
    this.secret.grantRead(this.handler.function);

    const role = new Role(this, 'ScheduleRole', { assumedBy: new ServicePrincipal('scheduler.amazonaws.com'), description: 'Hark canary schedule: invokes the canary' });
    role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.handler.function.functionArn] }));
    const target: IScheduleTarget = {
      // No retry: the next check comes on schedule, and a missed one shows in the checks metric.
      bind: () => ({ arn: this.handler.function.functionArn, role, retryPolicy: { maximumRetryAttempts: 0, maximumEventAgeInSeconds: 60 } }),
    };
    this.schedule = new Schedule(this, 'Schedule', {
      description: `Hark: the smoke check every ${minutes} minute${minutes === 1 ? '' : 's'} (docs/deploy.md)`,
      schedule: ScheduleExpression.rate(Duration.minutes(minutes)),
      target,
    });

    const finished = FilterPattern.stringValue('$.message', '=', CHECK_FINISHED_LOG_MESSAGE);
    const filter = (id: string, metricName: string, pattern: ReturnType<typeof FilterPattern.all>, metricValue: string) =>
      new MetricFilter(this, id, { logGroup: this.handler.logGroup, filterPattern: pattern, metricNamespace: CANARY_METRIC_NAMESPACE, metricName, metricValue });
    filter('Checks', CANARY_METRICS.checks, FilterPattern.all(finished), '1');
    filter('Failures', CANARY_METRICS.failures, FilterPattern.all(finished, FilterPattern.booleanValue('$.ok', false)), '1');
    filter('Latency', CANARY_METRICS.latency, FilterPattern.all(finished, FilterPattern.booleanValue('$.ok', true)), '$.end_to_end_ms');

    const period = Duration.minutes(minutes);
    const metric = (metricName: string, statistic: string, over = period) => new Metric({ namespace: CANARY_METRIC_NAMESPACE, metricName, statistic, period: over });
    const action = new SnsAction(props.alarmTopic);
    const alarm = (alarmId: string, description: string, options: Omit<ConstructorParameters<typeof Alarm>[2], 'alarmDescription' | 'evaluationPeriods'>) => {
      const made = new Alarm(this, alarmId, { alarmDescription: description, evaluationPeriods: 1, ...options });
      made.addAlarmAction(action);
      made.addOkAction(action);
      return made;
    };
    this.alarms = {
      failed: alarm('FailedAlarm', 'Hark canary: the smoke check failed. Its log names the step (alert created, page sent, page received, …) and why; a page may not be reaching people (docs/deploy.md).', {
        metric: metric(CANARY_METRICS.failures, 'Sum'),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      // Two intervals without a finished check: the canary crashed, timed out, or is not being run at all.
      silent: alarm('SilentAlarm', 'Hark canary: no smoke check finished in two intervals: the canary Lambda crashes or times out, or its schedule does not run (docs/deploy.md).', {
        metric: metric(CANARY_METRICS.checks, 'Sum', Duration.minutes(minutes * 2)),
        threshold: 1,
        comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.BREACHING,
      }),
      slow: alarm('SlowAlarm', `Hark canary: a smoke check took over ${maxSeconds} s from its webhook to the resolved alert: pages are slow (docs/deploy.md).`, {
        metric: metric(CANARY_METRICS.latency, 'Maximum'),
        threshold: maxSeconds * 1000,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    };
    new CfnOutput(Stack.of(this), 'CanarySecretArn', {
      description: 'Secret of the canary: put {"HARK_API_KEY": "<admin API key>"} in it (docs/deploy.md, "Check it pages")',
      value: this.secret.secretArn,
    });
  }
}

/** infra/stack.ts's one line: the canary when the context asks for one, else nothing. */
export function canaryFromContext(scope: Construct, props: Omit<CanaryProps, 'settings'>): CanaryCheck | undefined {
  const settings = canarySettings(scope.node);
  return settings ? new CanaryCheck(scope, 'Canary', { ...props, settings }) : undefined;
}
