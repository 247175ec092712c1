// Hark in one stack: the table, one Lambda per endpoint group behind an HTTP API, the ingest queues and
// worker, and the operator alarms. Each Lambda's role holds only what its code needs:
//   fallback          logs only
//   openapi           logs only (serves the API description built from code)
//   management groups read/write the table (alerts and phone also send timer wake-ups)
//   webhook           read the table, send to the ingest queue
//   worker            read/write the table, consume the ingest queue, send timer wake-ups
//   timers            read/write the table, consume and send timer wake-ups
//   sweeper           read/write the table (Query the timers index), send timer wake-ups
//   (timers and sweeper also forward webhook timers to the webhooks queue)
//   webhooks          read/write the table, consume and send to the webhooks queue, send timer wake-ups,
//                     POST to receivers on the internet (outgoing webhooks)

import { CfnOutput, Duration, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { HarkAlarms } from './alarms.ts';
import { canaryFromContext } from './canary.ts';
import { DeliveryResources } from './delivery.ts';
import { HarkApi } from './api.ts';
import { HarkTable } from './data.ts';
import { IngestQueues } from './ingest.ts';
import { HarkFunction } from './lambda.ts';
import { InboundEmail } from './inbound-email.ts';
import { SweepSchedule, TimerQueues } from './timers.ts';
import { WebhookQueues } from './webhooks.ts';
import { GROUPS, type Group } from '../lib/http/routes.ts';
import { DEFAULT_SETTINGS, type HarkSettings } from './settings.ts';

export type FunctionName = Group | 'fallback' | 'worker' | 'timers' | 'sweeper' | 'webhooks';
export const FUNCTION_NAMES: readonly FunctionName[] = [...GROUPS, 'fallback', 'worker', 'timers', 'sweeper', 'webhooks'];

/** Endpoint groups that manage configuration and alerts: read/write table access, nothing else. */
export const MANAGEMENT_GROUPS: readonly Group[] = GROUPS.filter((g) => g !== 'webhook' && g !== 'openapi');

/** API Lambdas answer well inside API Gateway's 30 s integration limit. */
export const API_TIMEOUT = Duration.seconds(10);
export const FALLBACK_TIMEOUT = Duration.seconds(3);
export const WORKER_TIMEOUT = Duration.seconds(30);
/** AWS advises a queue visibility timeout of at least six times the consuming function's timeout. */
export const INGEST_VISIBILITY_TIMEOUT = Duration.seconds(WORKER_TIMEOUT.toSeconds() * 6);
export const WORKER_BATCH_SIZE = 10;
export const TIMERS_TIMEOUT = Duration.seconds(30);
export const TIMERS_VISIBILITY_TIMEOUT = Duration.seconds(TIMERS_TIMEOUT.toSeconds() * 6);
export const TIMERS_BATCH_SIZE = 10;
/** A sweep stops starting firings 10 s before this (functions/timers.ts); the next sweep a minute later goes on. */
export const SWEEPER_TIMEOUT = Duration.seconds(60);
/** The longest receiver timeout (30 s) plus signing, the outcome's writes and the lane hand-on. */
export const WEBHOOKS_TIMEOUT = Duration.seconds(60);
export const WEBHOOKS_VISIBILITY_TIMEOUT = Duration.seconds(WEBHOOKS_TIMEOUT.toSeconds() * 6);
export const WEBHOOKS_BATCH_SIZE = 10;
/**
 * Functions that put work on the webhooks queue: those that change alerts or comment (a fan-out due now), the
 * outgoing webhooks API (replay, test, resume), the timers worker and sweeper (forwarding), the webhooks worker.
 */
export const WEBHOOK_SENDERS: readonly FunctionName[] = ['alerts', 'worker', 'comments', 'outgoing_webhooks', 'timers', 'sweeper', 'webhooks', 'console'];
/**
 * Functions that put the API's URL in messages (signed links, Twilio's gather and status callbacks) or check it
 * (Twilio's signatures cover the URL): they get HARK_PUBLIC_URL (docs/deploy.md), and read the delivery secret.
 */
export const PUBLIC_URL_READERS: readonly FunctionName[] = ['timers', 'sweeper', 'actions', 'phone', 'console'];
/** Functions that name the console's sign-in page in the welcome and invitation messages: the URL only, no secret. */
export const SIGN_IN_URL_WRITERS: readonly FunctionName[] = ['users', 'account_users'];
/**
 * Functions that run escalations and so schedule timers: they send wake-ups to the timers queue (the alerts API
 * creates and acts on alerts, as do actions from messages; the worker will when webhooks create alerts; firings schedule
 * the next wait; phone acts on alerts from SMS replies and key presses).
 */
export const TIMER_SENDERS: readonly FunctionName[] = ['alerts', 'actions', 'broadcasts', 'worker', 'timers', 'sweeper', 'phone', 'comments', 'outgoing_webhooks', 'webhooks', 'console', 'webhook'];

export interface HarkStackProps extends StackProps {
  readonly settings?: Partial<HarkSettings>;
  /** Where the handler modules live (default: the repository's functions/). */
  readonly functionsDir?: string;
}

export class HarkStack extends Stack {
  readonly settings: HarkSettings;
  readonly table: HarkTable;
  readonly ingest: IngestQueues;
  readonly timers: TimerQueues;
  readonly webhooks: WebhookQueues;
  readonly sweepSchedule: SweepSchedule;
  readonly functions: Readonly<Record<FunctionName, HarkFunction>>;
  readonly api: HarkApi;
  readonly alarms: HarkAlarms;
  readonly delivery: DeliveryResources;
  /** SES receiving for email integrations, with `hark:inboundEmailDomain` only. */
  readonly inboundEmail: InboundEmail | undefined;

  constructor(scope: Construct, id: string, props: HarkStackProps = {}) {
    const { settings: given, functionsDir, ...stackProps } = props;
    super(scope, id, { description: 'Hark: alerting and on-call management', ...stackProps });
    const settings: HarkSettings = { ...DEFAULT_SETTINGS, ...given };
    this.settings = settings;
    Tags.of(this).add('app', 'hark');

    const warm = {
      ...(settings.tableWarmWriteUnits !== undefined ? { writeUnitsPerSecond: settings.tableWarmWriteUnits } : {}),
      ...(settings.tableWarmReadUnits !== undefined ? { readUnitsPerSecond: settings.tableWarmReadUnits } : {}),
    };
    this.table = new HarkTable(this, 'Data', { deletionProtection: settings.tableDeletionProtection, warmThroughput: Object.keys(warm).length > 0 ? warm : undefined });
    this.ingest = new IngestQueues(this, 'Ingest', { visibilityTimeout: INGEST_VISIBILITY_TIMEOUT });
    this.timers = new TimerQueues(this, 'Timers', { visibilityTimeout: TIMERS_VISIBILITY_TIMEOUT });
    this.webhooks = new WebhookQueues(this, 'Webhooks', { visibilityTimeout: WEBHOOKS_VISIBILITY_TIMEOUT });

    const baseEnvironment: Record<string, string> = {
      HARK_TABLE_NAME: this.table.tableName,
      ...(settings.maxBodyBytes !== undefined ? { HARK_MAX_BODY_BYTES: String(settings.maxBodyBytes) } : {}),
    };
    const make = (name: FunctionName | 'email', options: { description: string; timeout: Duration; memoryMb?: number; environment?: Record<string, string> }) =>
      new HarkFunction(this, `${pascal(name)}Lambda`, {
        name,
        description: options.description,
        timeout: options.timeout,
        memoryMb: options.memoryMb ?? settings.lambdaMemoryMb,
        logRetention: settings.logRetentionDays,
        environment: { ...baseEnvironment, ...options.environment },
        ...(functionsDir ? { functionsDir } : {}),
      });

    const functions = {} as Record<FunctionName, HarkFunction>;
    for (const group of MANAGEMENT_GROUPS) {
      functions[group] = make(group, { description: `Hark API: ${group}`, timeout: API_TIMEOUT });
      this.table.grantReadWriteItems(functions[group].function);
    }

    functions.webhook = make('webhook', {
      description: 'Hark inbound webhook: validates and queues alert events',
      timeout: API_TIMEOUT,
      environment: { HARK_INGEST_QUEUE_URL: this.ingest.queue.queueUrl },
    });
    // Writes too: a heartbeat's ping arms its timer and an SNS confirmation records its subscription at intake
    // (docs/monitors.md); it is a timer sender below.
    this.table.grantReadWriteItems(functions.webhook.function);
    this.ingest.queue.grantSendMessages(functions.webhook.function);

    // GET /api/v4/openapi.json: the API description, built from the route table and schemas; no data access.
    functions.openapi = make('openapi', { description: 'Hark API: the OpenAPI description', timeout: API_TIMEOUT });

    // Serves API Gateway's `$default` route: a JSON 404/405 from the route table alone, no data access.
    functions.fallback = make('fallback', {
      description: 'Hark API: JSON 404/405 for unmatched routes',
      timeout: FALLBACK_TIMEOUT,
      memoryMb: 256,
      environment: {},
    });

    functions.worker = make('worker', { description: 'Hark ingest worker: applies queued alert events', timeout: WORKER_TIMEOUT });
    this.table.grantReadWriteItems(functions.worker.function);
    // Grants the worker receive/delete/change-visibility on the ingest queue.
    functions.worker.function.addEventSource(
      new SqsEventSource(this.ingest.queue, { batchSize: WORKER_BATCH_SIZE, reportBatchItemFailures: true }),
    );

    functions.timers = make('timers', { description: 'Hark timers: fires durable timers on their wake-up messages', timeout: TIMERS_TIMEOUT });
    this.table.grantReadWriteItems(functions.timers.function);
    functions.timers.function.addEventSource(
      new SqsEventSource(this.timers.queue, { batchSize: TIMERS_BATCH_SIZE, reportBatchItemFailures: true }),
    );
    functions.sweeper = make('sweeper', { description: 'Hark timer sweeper: fires timers whose wake-up is late or lost', timeout: SWEEPER_TIMEOUT });
    this.table.grantReadWriteItems(functions.sweeper.function);
    this.sweepSchedule = new SweepSchedule(this, 'Sweep', { sweeper: functions.sweeper.function });
    functions.webhooks = make('webhooks', {
      description: 'Hark outgoing webhooks: fans out events and sends signed deliveries',
      timeout: WEBHOOKS_TIMEOUT,
      environment: settings.webhookAllowedHosts ? { HARK_WEBHOOK_ALLOWED_HOSTS: settings.webhookAllowedHosts } : {},
    });
    this.table.grantReadWriteItems(functions.webhooks.function);
    functions.webhooks.function.addEventSource(
      new SqsEventSource(this.webhooks.queue, { batchSize: WEBHOOKS_BATCH_SIZE, reportBatchItemFailures: true }),
    );
    for (const name of WEBHOOK_SENDERS) {
      functions[name].function.addEnvironment('HARK_WEBHOOKS_QUEUE_URL', this.webhooks.queue.queueUrl);
      this.webhooks.queue.grantSendMessages(functions[name].function);
    }
    for (const name of TIMER_SENDERS) {
      functions[name].function.addEnvironment('HARK_TIMERS_QUEUE_URL', this.timers.queue.queueUrl);
      this.timers.queue.grantSendMessages(functions[name].function);
    }
    this.functions = functions;

    // Email integrations: their addresses are shown by the integrations API; SES receiving feeds the email Lambda.
    if (settings.inboundEmailDomain) {
      const domain = { HARK_INBOUND_EMAIL_DOMAIN: settings.inboundEmailDomain };
      functions.integrations.function.addEnvironment('HARK_INBOUND_EMAIL_DOMAIN', settings.inboundEmailDomain);
      const email = make('email', {
        description: 'Hark inbound email: queues mail SES received for email integrations',
        timeout: API_TIMEOUT,
        environment: { ...domain, HARK_INGEST_QUEUE_URL: this.ingest.queue.queueUrl },
      });
      this.table.grantReadItems(email.function);
      this.ingest.queue.grantSendMessages(email.function);
      this.inboundEmail = new InboundEmail(this, 'InboundEmail', { domain: settings.inboundEmailDomain, handler: email });
    } else this.inboundEmail = undefined;

    this.api = new HarkApi(this, 'Api', {
      groups: Object.fromEntries(GROUPS.map((g) => [g, functions[g].function])) as Record<Group, HarkFunction['function']>,
      fallback: functions.fallback.function,
      throttleRateLimit: settings.throttleRateLimit,
      throttleBurstLimit: settings.throttleBurstLimit,
      webhookThrottleRateLimit: settings.webhookThrottleRateLimit,
      webhookThrottleBurstLimit: settings.webhookThrottleBurstLimit,
      logRetention: settings.logRetentionDays,
    });

    // The API's URL (or the operator's custom domain): the functions reference only the API resource (its id), which
    // references no function (routes and integrations are resources of their own), so this makes no cycle.
    const publicUrl = settings.publicUrl ?? this.api.url;
    for (const name of [...PUBLIC_URL_READERS, ...SIGN_IN_URL_WRITERS]) functions[name].function.addEnvironment('HARK_PUBLIC_URL', publicUrl);

    this.alarms = new HarkAlarms(this, 'Alarms', {
      ingestQueue: this.ingest.queue,
      ingestDeadLetterQueue: this.ingest.deadLetterQueue,
      timersDeadLetterQueue: this.timers.deadLetterQueue,
      webhooksDeadLetterQueue: this.webhooks.deadLetterQueue,
      apiServerErrors: this.api.httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      alarmEmail: settings.alarmEmail,
    });

    // Deliveries are sent by the timers function (and the sweeper for late wake-ups) from the timers queue; links and
    // provider signatures are verified by actions and phone.
    this.delivery = new DeliveryResources(this, 'Delivery', {
      // Sign-in links too: the console queues the request on the timers queue, the timers function mails the link (docs/console.md).
      senders: [functions.timers, functions.sweeper],
      secretReaders: PUBLIC_URL_READERS.map((name) => functions[name].function),
      mailFrom: settings.mailFrom,
      smsOriginationIdentityArn: settings.smsOriginationIdentityArn,
      alarmTopic: this.alarms.topic,
    });

    // The scheduled smoke check, with `hark:canaryMinutes` only (docs/deploy.md, "Check it pages").
    canaryFromContext(this, { url: publicUrl, alarmTopic: this.alarms.topic, logRetention: settings.logRetentionDays, functionsDir });

    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the Hark API (append api/v4/...)', value: this.api.url });
    new CfnOutput(this, 'TableName', { description: 'DynamoDB table (npm run admin -- --aws --table <name> ...)', value: this.table.tableName });
    new CfnOutput(this, 'Region', { description: 'Region of the deployment (npm run admin -- --region <region>)', value: this.region });
    new CfnOutput(this, 'AlarmTopicArn', { description: 'SNS topic of the operator alarms: subscribe to it', value: this.alarms.topic.topicArn });
    new CfnOutput(this, 'IngestQueueUrl', { description: 'FIFO queue between the webhook and the worker', value: this.ingest.queue.queueUrl });
    new CfnOutput(this, 'IngestDeadLetterQueueUrl', {
      description: 'Dead-letter queue of failed webhook requests (alarmed; redrive after fixing the cause)',
      value: this.ingest.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'ProviderSecretArn', {
      description: 'Secrets Manager secret of message provider credentials: add HARK_SMTP_URL, HARK_TWILIO_AUTH_TOKEN, … as JSON keys',
      value: this.delivery.secret.secretArn,
    });
    new CfnOutput(this, 'TimersDeadLetterQueueUrl', {
      description: 'Dead-letter queue of timer wake-ups that kept failing (alarmed; their timers are still fired by the sweeper)',
      value: this.timers.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'WebhooksDeadLetterQueueUrl', {
      description: 'Dead-letter queue of outgoing webhook work that kept failing (alarmed; the timers are still swept)',
      value: this.webhooks.deadLetterQueue.queueUrl,
    });
  }
}

function pascal(name: string): string {
  return name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
