// Durable timers on AWS (docs/timers.md): a standard SQS queue of delayed wake-up messages with a dead-letter
// queue, and an EventBridge Scheduler schedule that runs the sweeper every minute. Standard, not FIFO: FIFO
// queues refuse per-message delays, and a duplicated wake-up is harmless (the firing is a conditional write).

import { Duration } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression, type IScheduleTarget } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { QUEUES } from '../lib/queue/settings.ts';
import { WorkQueues } from './queues.ts';

/** How often the sweeper runs: a lost wake-up delays a firing by at most this much (plus the grace). */
export const SWEEP_RATE = Duration.minutes(1);

export interface TimerQueuesProps {
  /** At least six times the timers function's timeout, as AWS advises for Lambda event sources. */
  readonly visibilityTimeout: Duration;
}

export class TimerQueues extends WorkQueues {
  constructor(scope: Construct, id: string, props: TimerQueuesProps) {
    super(scope, id, { visibilityTimeout: props.visibilityTimeout, maxReceiveCount: QUEUES.timers.maxReceiveCount });
  }
}

export interface SweepScheduleProps {
  readonly sweeper: IFunction;
}

/**
 * EventBridge Scheduler invokes the sweeper every minute; a missed run is not retried (the next one sweeps). The
 * schedule's own role may invoke exactly that function — aws-scheduler-targets' LambdaInvoke would also grant
 * its versions and aliases (`<arn>:*`), which the sweeper does not have.
 */
export class SweepSchedule extends Construct {
  readonly schedule: Schedule;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: SweepScheduleProps) {
    super(scope, id);
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('scheduler.amazonaws.com'), description: 'Hark sweep schedule: invokes the sweeper' });
    this.role.addToPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.sweeper.functionArn] }));
    const target: IScheduleTarget = {
      bind: () => ({ arn: props.sweeper.functionArn, role: this.role, retryPolicy: { maximumRetryAttempts: 0, maximumEventAgeInSeconds: SWEEP_RATE.toSeconds() } }),
    };
    this.schedule = new Schedule(this, 'Schedule', {
      description: 'Hark: fire durable timers whose wake-up message is late or lost',
      schedule: ScheduleExpression.rate(SWEEP_RATE),
      target,
    });
  }
}
