// The synthesized template, asserted resource by resource (bundling skipped; see bundle.test.ts), and
// cdk-nag's AwsSolutions report.

import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS, ROOT_ROUTE_KEYS } from '../../infra/api.ts';
import { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS } from '../../infra/data.ts';
import { QUEUES } from '../../lib/queue/settings.ts';
import { isIntake, ROUTES } from '../../lib/http/routes.ts';
import { GATEWAY_ROUTES } from '../../lib/http/gateway-routes.ts';
import { DEFAULT_SETTINGS } from '../../infra/settings.ts';
import { FUNCTION_NAMES, MANAGEMENT_GROUPS, PUBLIC_URL_READERS, SIGN_IN_URL_WRITERS, TIMER_SENDERS, TIMERS_BATCH_SIZE, WEBHOOK_SENDERS, WEBHOOKS_BATCH_SIZE, WORKER_BATCH_SIZE, type FunctionName } from '../../infra/stack.ts';
import { GSIS, KEY, TTL_ATTRIBUTE } from '../../lib/db/table.ts';
import {
  actionsOf,
  allowedActions,
  functionLogicalId,
  getAtt,
  logicalIdOf,
  resourcesOf,
  roleStatements,
  synthHark,
  testOutdir,
  type Statement,
  type Synthesized,
} from './harness.ts';

let synth: Synthesized;

beforeAll(() => {
  synth = synthHark({ nag: true });
}, 300_000);

afterAll(() => {
  if (synth) rmSync(synth.outdir, { recursive: true, force: true });
});

const resourcesOfType = (type: string) => Object.entries(synth.json.Resources).filter(([, r]) => r.Type === type);
const tableId = () => logicalIdOf(synth.stack, synth.stack.table.table);
const queueId = () => logicalIdOf(synth.stack, synth.stack.ingest.queue);
const dlqId = () => logicalIdOf(synth.stack, synth.stack.ingest.deadLetterQueue);
const timersQueueId = () => logicalIdOf(synth.stack, synth.stack.timers.queue);
const timersDlqId = () => logicalIdOf(synth.stack, synth.stack.timers.deadLetterQueue);
const webhooksQueueId = () => logicalIdOf(synth.stack, synth.stack.webhooks.queue);
const webhooksDlqId = () => logicalIdOf(synth.stack, synth.stack.webhooks.deadLetterQueue);

describe('DynamoDB table', () => {
  it('is the one table, with the key schema and indexes of lib/db/table.ts', () => {
    synth.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    synth.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: KEY.pk, KeyType: 'HASH' },
        { AttributeName: KEY.sk, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: KEY.pk, AttributeType: 'S' },
        { AttributeName: KEY.sk, AttributeType: 'S' },
        ...GSIS.flatMap((g) => [
          { AttributeName: g.pk, AttributeType: 'S' },
          { AttributeName: g.sk, AttributeType: 'S' },
        ]),
      ]),
      GlobalSecondaryIndexes: GSIS.map((g) => ({
        IndexName: g.name,
        KeySchema: [
          { AttributeName: g.pk, KeyType: 'HASH' },
          { AttributeName: g.sk, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  it('bills on demand, with point-in-time recovery, TTL, AWS-managed encryption and deletion protection', () => {
    synth.template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      // SSEEnabled without a customer key: the AWS-managed key aws/dynamodb.
      SSESpecification: { SSEEnabled: true, KMSMasterKeyId: Match.absent() },
      DeletionProtectionEnabled: true,
      // Pre-warming is the operator's choice (hark:tableWarmWriteUnits, docs/capacity.md).
      WarmThroughput: Match.absent(),
    });
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    synth.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('has its name as a stack output', () => {
    synth.template.hasOutput('TableName', { Value: { Ref: tableId() } });
  });
});

describe('Lambda functions', () => {
  it('has one function per route group, plus the fallback and the worker', () => {
    const groups = [...new Set(ROUTES.map((r) => r.group))];
    for (const group of groups) expect(FUNCTION_NAMES).toContain(group);
    synth.template.resourceCountIs('AWS::Lambda::Function', FUNCTION_NAMES.length);
    expect(new Set(FUNCTION_NAMES.map((n) => functionLogicalId(synth.stack, n))).size).toBe(FUNCTION_NAMES.length);
  });

  it.each(FUNCTION_NAMES)('%s runs on nodejs24.x, arm64, from a bundled index.mjs', (name) => {
    const fn = synth.json.Resources[functionLogicalId(synth.stack, name)]!;
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
  });

  it.each(FUNCTION_NAMES)('%s reads the table name and logs as service "hark" to its own log group', (name) => {
    const fn = synth.json.Resources[functionLogicalId(synth.stack, name)]!;
    const logGroupId = logicalIdOf(synth.stack, synth.stack.functions[name].logGroup);
    expect(fn.Properties).toMatchObject({
      Environment: { Variables: { HARK_TABLE_NAME: { Ref: tableId() }, POWERTOOLS_SERVICE_NAME: 'hark' } },
      LoggingConfig: { LogGroup: { Ref: logGroupId }, LogFormat: 'JSON' },
    });
    expect(synth.json.Resources[logGroupId]!.Properties).toMatchObject({ RetentionInDays: DEFAULT_SETTINGS.logRetentionDays });
  });

  it('gives only the webhook the ingest queue URL', () => {
    for (const name of FUNCTION_NAMES) {
      const variables = (synth.json.Resources[functionLogicalId(synth.stack, name)]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      if (name === 'webhook') expect(variables.HARK_INGEST_QUEUE_URL).toEqual({ Ref: queueId() });
      else expect(variables).not.toHaveProperty('HARK_INGEST_QUEUE_URL');
    }
  });

  it('sizes memory and timeouts: API functions within API Gateway’s 30 s, the worker at 30 s', () => {
    const props = (name: FunctionName) => synth.json.Resources[functionLogicalId(synth.stack, name)]!.Properties!;
    for (const name of [...MANAGEMENT_GROUPS, 'webhook', 'openapi'] as const) {
      expect(props(name)).toMatchObject({ MemorySize: DEFAULT_SETTINGS.lambdaMemoryMb, Timeout: 10 });
    }
    expect(props('fallback')).toMatchObject({ MemorySize: 256, Timeout: 3 });
    expect(props('worker')).toMatchObject({ MemorySize: DEFAULT_SETTINGS.lambdaMemoryMb, Timeout: 30 });
  });
});

describe('HTTP API', () => {
  const routesStackId = () => synth.stack.getLogicalId(synth.stack.api.routes.nestedStackResource!);
  /** The function logical id an integration invokes: by Fn::GetAtt in the root, by a parameter the root passes in the nested stack. */
  const functionOf = (integration: { Properties?: Record<string, unknown> }, nested: boolean): string => {
    expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    const uri = integration.Properties!.IntegrationUri as { 'Fn::GetAtt'?: [string, string]; Ref?: string };
    if (!nested) return uri['Fn::GetAtt']![0];
    const passed = (synth.json.Resources[routesStackId()]!.Properties!.Parameters as Record<string, { 'Fn::GetAtt': [string, string] }>)[uri.Ref!]!;
    return passed['Fn::GetAtt'][0];
  };
  /** Route key → the function logical id it invokes, over the root and the nested stack. */
  const routeTargets = (): Map<string, string> => {
    const targets = new Map<string, string>();
    for (const [json, nested] of [[synth.json, false], [synth.routesJson, true]] as const) {
      for (const route of Object.values(json.Resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')) {
        const key = route.Properties!.RouteKey as string;
        expect(targets.has(key), key).toBe(false);
        const target = route.Properties!.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
        expect(target['Fn::Join'][1][0]).toBe('integrations/');
        targets.set(key, functionOf(json.Resources[target['Fn::Join'][1][1].Ref]!, nested));
      }
    }
    return targets;
  };
  const routeKeysOf = (json: typeof synth.json) =>
    Object.values(json.Resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties!.RouteKey as string);

  it('has one route per gateway route (ANY per path of the route table, a method route per intake row), plus $default', () => {
    expect([...routeTargets().keys()].sort()).toEqual([...GATEWAY_ROUTES.map((r) => r.key), '$default'].sort());
    expect(GATEWAY_ROUTES.filter((r) => r.method === 'ANY').map((r) => r.path)).toEqual([...new Set(ROUTES.filter((r) => !isIntake(r)).map((r) => r.path))]);
  });

  it('keeps $default and the webhook’s throttled routes in the root stack, every other route in the nested stack', () => {
    expect(routeKeysOf(synth.json).sort()).toEqual(['$default', ...ROOT_ROUTE_KEYS].sort());
    expect(routeKeysOf(synth.routesJson)).toHaveLength(GATEWAY_ROUTES.length - ROOT_ROUTE_KEYS.size);
    synth.template.resourceCountIs('AWS::CloudFormation::Stack', 1);
  });

  it.each(GATEWAY_ROUTES.map((r) => [r.key, r.group] as const))('%s goes to the %s function', (routeKey, group) => {
    expect(routeTargets().get(routeKey)).toBe(functionLogicalId(synth.stack, group));
  });

  it('sends $default (anything unmatched) to the fallback function', () => {
    expect(routeTargets().get('$default')).toBe(functionLogicalId(synth.stack, 'fallback'));
  });

  it('lets API Gateway invoke each API function through one permission scoped to the API (the root’s webhook routes: one per route)', () => {
    /** Each API Gateway permission of a template: the function it opens and what its source ARN says after the API's id. */
    const permissionsOf = (json: typeof synth.json, apiRef: string) =>
      Object.values(json.Resources)
        .filter((r) => r.Type === 'AWS::Lambda::Permission' && r.Properties!.Principal === 'apigateway.amazonaws.com')
        .map((r) => {
          expect(r.Properties).toMatchObject({ Action: 'lambda:InvokeFunction' });
          const parts = (r.Properties!.SourceArn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
          expect(parts.at(-2)).toEqual({ Ref: apiRef });
          const uri = r.Properties!.FunctionName;
          return { fn: functionOf({ Properties: { IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0', IntegrationUri: uri } }, json === synth.routesJson), after: parts.at(-1) };
        });
    const nested = permissionsOf(synth.routesJson, Object.keys(synth.routesJson.Parameters!).find((p) => p.includes('HttpApi'))!);
    const nestedGroups = [...new Set(GATEWAY_ROUTES.filter((r) => !ROOT_ROUTE_KEYS.has(r.key)).map((r) => r.group))];
    expect(nested.map((p) => p.fn).sort()).toEqual(nestedGroups.map((g) => functionLogicalId(synth.stack, g)).sort());
    for (const p of nested) expect(p.after).toBe('/*/*');
    const root = permissionsOf(synth.json, logicalIdOf(synth.stack, synth.stack.api.httpApi));
    expect(root).toEqual(
      expect.arrayContaining([
        { fn: functionLogicalId(synth.stack, 'fallback'), after: '/*/*' },
        ...[...ROOT_ROUTE_KEYS].map((key) => ({ fn: functionLogicalId(synth.stack, 'webhook'), after: `/*/*${key.slice(key.indexOf(' ') + 1)}` })),
      ]),
    );
    expect(root).toHaveLength(1 + ROOT_ROUTE_KEYS.size);
    for (const name of ['worker', 'timers', 'sweeper', 'webhooks'] as const) expect([...nested, ...root].map((p) => p.fn)).not.toContain(functionLogicalId(synth.stack, name));
  });

  it('has one auto-deployed $default stage with default throttling', () => {
    synth.template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
  });

  it('gives the webhook routes their own throttle for alert storms, and creates the stage after those routes', () => {
    const [stageId, stage] = resourcesOfType('AWS::ApiGatewayV2::Stage')[0]!;
    // Every intake row: the webhook's two and the dialects' (PagerDuty's and Opsgenie's calls), each with the webhook's throttle.
    const intakeKeys = GATEWAY_ROUTES.filter((r) => r.intake).map((r) => r.key);
    expect(intakeKeys).toEqual(expect.arrayContaining(['POST /integration/{id}', 'GET /integration/{id}', 'POST /v2/enqueue', 'POST /v2/change/enqueue', 'POST /v2/alerts', 'GET /integration/{id}/v2/heartbeats/{name}/ping']));
    expect(stage.Properties!.RouteSettings).toEqual(Object.fromEntries(intakeKeys.map((key) => [key, { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 }])));
    const routeIds = resourcesOfType('AWS::ApiGatewayV2::Route')
      .filter(([, route]) => String(route.Properties!.RouteKey).endsWith(' /integration/{id}'))
      .map(([id]) => id);
    expect(routeIds).toHaveLength(2);
    expect(synth.json.Resources[stageId]!.DependsOn).toEqual(expect.arrayContaining(routeIds));
  });

  it('writes JSON access logs (no headers, no bodies) to a log group with retention', () => {
    const accessLogsId = logicalIdOf(synth.stack, synth.stack.api.accessLogs);
    const stage = resourcesOfType('AWS::ApiGatewayV2::Stage')[0]![1].Properties!;
    const settings = stage.AccessLogSettings as { DestinationArn: unknown; Format: string };
    expect(settings.DestinationArn).toEqual(getAtt(accessLogsId));
    expect(JSON.parse(settings.Format)).toEqual(ACCESS_LOG_FIELDS);
    expect(settings.Format).not.toMatch(/header|body|authorization/i);
    expect(synth.json.Resources[accessLogsId]!.Properties).toMatchObject({ RetentionInDays: DEFAULT_SETTINGS.logRetentionDays });
  });

  it('outputs the API URL', () => {
    synth.template.hasOutput('ApiUrl', {
      Value: { 'Fn::Join': ['', Match.arrayWith(['https://', { Ref: logicalIdOf(synth.stack, synth.stack.api.httpApi) }])] },
    });
  });
});

describe('ingest queues', () => {
  it('are FIFO, without content-based deduplication, with generated names', () => {
    for (const id of [queueId(), dlqId()]) {
      expect(synth.json.Resources[id]!.Properties).toMatchObject({ FifoQueue: true, ContentBasedDeduplication: false });
      expect(synth.json.Resources[id]!.Properties).not.toHaveProperty('QueueName');
    }
    // Two ingest queues, two timers queues and two webhooks queues (below).
    synth.template.resourceCountIs('AWS::SQS::Queue', 6);
  });

  it('moves a message to the dead-letter queue after QUEUES.ingest.maxReceiveCount receives', () => {
    expect(synth.json.Resources[queueId()]!.Properties!.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(dlqId()),
      maxReceiveCount: QUEUES.ingest.maxReceiveCount,
    });
  });

  it('keeps the ingest queue’s visibility timeout at least six times the worker timeout', () => {
    const workerTimeout = synth.json.Resources[functionLogicalId(synth.stack, 'worker')]!.Properties!.Timeout as number;
    expect(synth.json.Resources[queueId()]!.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(6 * workerTimeout);
  });

  it('encrypt with SQS-managed keys and refuse requests without TLS', () => {
    for (const id of [queueId(), dlqId()]) {
      expect(synth.json.Resources[id]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
      synth.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it('accept messages as large as SQS allows (a 256 KiB webhook body grows when JSON-escaped)', () => {
    for (const id of [queueId(), dlqId()]) expect(synth.json.Resources[id]!.Properties).toMatchObject({ MaximumMessageSize: 1024 * 1024 });
  });

  it('feed the worker in batches of 10 with partial batch failures', () => {
    // The worker's, the timers function's and the webhooks function's (below).
    synth.template.resourceCountIs('AWS::Lambda::EventSourceMapping', 3);
    synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionLogicalId(synth.stack, 'worker') },
      EventSourceArn: getAtt(queueId()),
      BatchSize: WORKER_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(WORKER_BATCH_SIZE).toBe(10);
  });
});

describe('durable timers', () => {
  it('wake up through a standard queue (per-message delays) with a dead-letter queue after QUEUES.timers.maxReceiveCount receives', () => {
    for (const id of [timersQueueId(), timersDlqId()]) {
      expect(synth.json.Resources[id]!.Properties).not.toHaveProperty('FifoQueue');
      expect(synth.json.Resources[id]!.Properties).not.toHaveProperty('QueueName');
      expect(synth.json.Resources[id]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
    }
    expect(synth.json.Resources[timersQueueId()]!.Properties!.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(timersDlqId()),
      maxReceiveCount: QUEUES.timers.maxReceiveCount,
    });
    const timersTimeout = synth.json.Resources[functionLogicalId(synth.stack, 'timers')]!.Properties!.Timeout as number;
    expect(synth.json.Resources[timersQueueId()]!.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timersTimeout);
  });

  it('feed the timers function in batches of 10 with partial batch failures', () => {
    synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionLogicalId(synth.stack, 'timers') },
      EventSourceArn: getAtt(timersQueueId()),
      BatchSize: TIMERS_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('run the sweeper every minute from EventBridge Scheduler, with a role that may invoke only the sweeper', () => {
    const schedules = resourcesOfType('AWS::Scheduler::Schedule');
    expect(schedules).toHaveLength(1);
    const [, schedule] = schedules[0]!;
    const sweeperArn = getAtt(functionLogicalId(synth.stack, 'sweeper'));
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Target: { Arn: sweeperArn, RetryPolicy: { MaximumRetryAttempts: 0 } },
    });
    const roleId = ((schedule.Properties!.Target as { RoleArn: { 'Fn::GetAtt': [string, string] } }).RoleArn)['Fn::GetAtt'][0];
    const policies = resourcesOfType('AWS::IAM::Policy').filter(([, p]) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === roleId));
    const statements = policies.flatMap(([, p]) => (p.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
    expect(statements).toEqual([expect.objectContaining({ Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: sweeperArn })]);
    expect(synth.json.Resources[roleId]!.Properties).toMatchObject({ AssumeRolePolicyDocument: { Statement: [expect.objectContaining({ Principal: { Service: 'scheduler.amazonaws.com' } })] } });
  });

  it('give the functions that schedule timers the queue URL and send permission, and no one else', () => {
    for (const name of FUNCTION_NAMES) {
      const variables = (synth.json.Resources[functionLogicalId(synth.stack, name)]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      const sends = roleStatements(synth, name).filter((st) => JSON.stringify(st.Resource) === JSON.stringify(getAtt(timersQueueId()))).flatMap(actionsOf);
      if (TIMER_SENDERS.includes(name)) {
        expect(variables.HARK_TIMERS_QUEUE_URL, name).toEqual({ Ref: timersQueueId() });
        expect(sends, name).toContain('sqs:SendMessage');
      } else {
        expect(variables, name).not.toHaveProperty('HARK_TIMERS_QUEUE_URL');
        expect(sends, name).toEqual([]);
      }
    }
  });

  it('let the timers function and the sweeper read and write the table, and only the timers function consume the queue', () => {
    for (const name of ['timers', 'sweeper'] as const) {
      expect([...new Set(allowedActions(synth, name, 'dynamodb'))].sort()).toEqual([...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS].sort());
    }
    expect(allowedActions(synth, 'timers', 'sqs')).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage']));
    expect(allowedActions(synth, 'sweeper', 'sqs')).not.toContain('sqs:ReceiveMessage');
  });

  it('alarm as soon as one wake-up sits in the timers dead-letter queue', () => {
    const alarmId = logicalIdOf(synth.stack, synth.stack.alarms.timersDeadLetterAlarm);
    expect(synth.json.Resources[alarmId]!.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(timersDlqId(), 'QueueName') }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

describe('delivery', () => {
  const SECRET_READERS = ['timers', 'sweeper', 'actions', 'phone', 'console'] as const;
  const secretId = () => logicalIdOf(synth.stack, synth.stack.delivery.secret);
  const variablesOf = (of: Synthesized, name: (typeof FUNCTION_NAMES)[number]) =>
    (of.json.Resources[functionLogicalId(of.stack, name)]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;

  it('passes the provider secret by ARN to the functions that send or verify messages, lets only them read it, and holds no secret text', () => {
    const secret = synth.json.Resources[secretId()]!;
    expect(secret.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.Properties).toMatchObject({ GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'HARK_LINK_SECRET' } });
    expect(secret.Properties).not.toHaveProperty('SecretString');
    for (const name of FUNCTION_NAMES) {
      const reads = roleStatements(synth, name).filter((st) => JSON.stringify(st.Resource) === JSON.stringify({ Ref: secretId() })).flatMap(actionsOf);
      if ((SECRET_READERS as readonly string[]).includes(name)) {
        expect(variablesOf(synth, name).HARK_SECRETS_ARN, name).toEqual({ Ref: secretId() });
        expect(reads, name).toContain('secretsmanager:GetSecretValue');
      } else {
        expect(variablesOf(synth, name), name).not.toHaveProperty('HARK_SECRETS_ARN');
        expect(reads, name).toEqual([]);
      }
    }
  });

  it('gives the functions that send or verify messages (and those naming the sign-in page) the HTTP API URL as HARK_PUBLIC_URL, and no one else', () => {
    const apiId = logicalIdOf(synth.stack, synth.stack.api.httpApi);
    expect([...PUBLIC_URL_READERS].sort()).toEqual([...SECRET_READERS].sort());
    for (const name of FUNCTION_NAMES) {
      const value = variablesOf(synth, name).HARK_PUBLIC_URL;
      if (PUBLIC_URL_READERS.includes(name) || SIGN_IN_URL_WRITERS.includes(name)) {
        expect(JSON.stringify(value), name).toContain(JSON.stringify({ Ref: apiId }));
        expect(JSON.stringify(value), name).toContain('.execute-api.');
      } else {
        expect(value, name).toBeUndefined();
      }
    }
  });

  it('has no dependency cycle: the API resource depends on no function', () => {
    // Edges of the template: Ref, Fn::GetAtt and DependsOn. A cycle would fail the deployment.
    const edges = new Map<string, Set<string>>();
    const collect = (node: unknown, into: Set<string>): void => {
      if (Array.isArray(node)) return node.forEach((n) => collect(n, into));
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'Ref' && typeof value === 'string') into.add(value);
        else if (key === 'Fn::GetAtt') into.add(Array.isArray(value) ? String(value[0]) : String(value).split('.')[0]!);
        else collect(value, into);
      }
    };
    for (const [id, resource] of Object.entries(synth.json.Resources)) {
      const into = new Set<string>();
      collect(resource.Properties, into);
      for (const d of ([] as string[]).concat((resource.DependsOn as string | string[] | undefined) ?? [])) into.add(d);
      edges.set(id, into);
    }
    const state = new Map<string, 'open' | 'done'>();
    const cycleFrom = (id: string, path: string[]): string[] | undefined => {
      if (state.get(id) === 'done' || !edges.has(id)) return undefined;
      if (state.get(id) === 'open') return [...path, id];
      state.set(id, 'open');
      for (const next of edges.get(id)!) {
        const found = cycleFrom(next, [...path, id]);
        if (found) return found;
      }
      state.set(id, 'done');
      return undefined;
    };
    for (const id of edges.keys()) expect(cycleFrom(id, [])).toBeUndefined();
  });

  it('uses hark:publicUrl instead of the API URL when set (a custom domain)', () => {
    const custom = synthHark({ settings: { publicUrl: 'https://alerts.example.com' } });
    try {
      for (const name of PUBLIC_URL_READERS) expect(variablesOf(custom, name).HARK_PUBLIC_URL, name).toBe('https://alerts.example.com');
    } finally {
      rmSync(custom.outdir, { recursive: true, force: true });
    }
  });

  it('grants no SES or End User Messaging permission unless the settings name an identity', () => {
    for (const name of FUNCTION_NAMES) {
      expect(allowedActions(synth, name, 'ses'), name).toEqual([]);
      expect(allowedActions(synth, name, 'sms-voice'), name).toEqual([]);
    }
  });

  it('with an SES address and an End User Messaging number, lets only the senders use exactly those', () => {
    const number = 'arn:aws:sms-voice:eu-west-1:123456789012:phone-number/phone-0123456789abcdef';
    const configured = synthHark({ nag: true, settings: { mailFrom: 'Hark <alerts@example.com>', smsOriginationIdentityArn: number } });
    try {
      for (const name of FUNCTION_NAMES) {
        const sends = ['timers', 'sweeper'].includes(name);
        const ses = roleStatements(configured, name).filter((st) => actionsOf(st).some((a) => a.startsWith('ses:')));
        const sms = roleStatements(configured, name).filter((st) => actionsOf(st).some((a) => a.startsWith('sms-voice:')));
        // The console sends nothing itself: sign-in links are mailed by the timers function from the timers queue.
        if (!sends) {
          expect([...ses, ...sms], name).toEqual([]);
          continue;
        }
        expect(ses.flatMap(actionsOf), name).toEqual(['ses:SendEmail']);
        expect(JSON.stringify(ses.flatMap(resourcesOf)), name).toMatch(/identity\/alerts@example\.com.*identity\/example\.com/);
        expect(sms.flatMap(actionsOf).sort(), name).toEqual(['sms-voice:SendTextMessage', 'sms-voice:SendVoiceMessage']);
        expect(sms.flatMap(resourcesOf), name).toEqual([number]);
        expect(variablesOf(configured, name), name).toMatchObject({
          HARK_EMAIL_PROVIDER: 'ses',
          HARK_MAIL_FROM: 'Hark <alerts@example.com>',
          HARK_SMS_PROVIDER: 'end-user-messaging',
          HARK_SMS_ORIGINATION_IDENTITY: number,
        });
      }
      const report = readFileSync(join(configured.assembly.directory, 'validation-report.json'), 'utf8');
      expect(JSON.parse(report).pluginReports.every((p: { conclusion: string }) => p.conclusion === 'success')).toBe(true);
    } finally {
      rmSync(configured.outdir, { recursive: true, force: true });
    }
  });

  it('counts failed deliveries from the senders’ logs and alarms on the first one', () => {
    const filters = resourcesOfType('AWS::Logs::MetricFilter')
      .map(([, r]) => r.Properties as Record<string, any>)
      .filter((f) => f.MetricTransformations[0].MetricName === 'DeliveryFailures');
    expect(filters).toHaveLength(2);
    for (const filter of filters) {
      expect(filter.FilterPattern).toBe('{ $.message = "Notification delivery failed" }');
      expect(filter.MetricTransformations).toEqual([{ MetricNamespace: 'Hark', MetricName: 'DeliveryFailures', MetricValue: '1', DefaultValue: 0 }]);
    }
    expect(filters.map((f) => f.LogGroupName).sort()).toEqual(
      [synth.stack.functions.timers.logGroup, synth.stack.functions.sweeper.logGroup].map((g) => ({ Ref: logicalIdOf(synth.stack, g) })).sort(),
    );
    const alarm = synth.json.Resources[logicalIdOf(synth.stack, synth.stack.delivery.failureAlarm)]!.Properties!;
    expect(alarm).toMatchObject({ Namespace: 'Hark', MetricName: 'DeliveryFailures', Statistic: 'Sum', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(alarm.AlarmActions).toEqual([{ Ref: logicalIdOf(synth.stack, synth.stack.alarms.topic) }]);
  });

  it('alarms when a provider’s breaker has been open for more than five minutes', () => {
    const filters = resourcesOfType('AWS::Logs::MetricFilter')
      .map(([, r]) => r.Properties as Record<string, any>)
      .filter((f) => f.MetricTransformations[0].MetricName === 'ProviderDownOverFiveMinutes');
    expect(filters.map((f) => f.LogGroupName).sort()).toEqual(
      [synth.stack.functions.timers.logGroup, synth.stack.functions.sweeper.logGroup].map((g) => ({ Ref: logicalIdOf(synth.stack, g) })).sort(),
    );
    for (const filter of filters) expect(filter.FilterPattern).toBe('{ ($.message = "Channel provider still down") && ($.down_for_seconds >= 300) }');
    const alarm = synth.json.Resources[logicalIdOf(synth.stack, synth.stack.delivery.providerDownAlarm)]!.Properties!;
    expect(alarm).toMatchObject({ Namespace: 'Hark', MetricName: 'ProviderDownOverFiveMinutes', Statistic: 'Sum', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(alarm.AlarmActions).toEqual([{ Ref: logicalIdOf(synth.stack, synth.stack.alarms.topic) }]);
  });
});

describe('IAM', () => {
  const allStatements = (): Statement[] => {
    const statements: Statement[] = [];
    for (const [, r] of Object.entries(synth.json.Resources)) {
      if (r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy') {
        statements.push(...(r.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
      }
      if (r.Type === 'AWS::IAM::Role') {
        for (const p of (r.Properties!.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ?? []) statements.push(...p.PolicyDocument.Statement);
      }
    }
    return statements;
  };
  const tableArn = () => getAtt(tableId());
  const dynamoActions = (name: FunctionName) => allowedActions(synth, name, 'dynamodb');

  it('grants no wildcard action to anyone (no dynamodb:*, no sqs:*, no *)', () => {
    const actions = allStatements()
      .filter((s) => s.Effect === 'Allow')
      .flatMap(actionsOf);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => a.includes('*'))).toEqual([]);
  });

  it('attaches no managed policy to any role (no AWSLambdaBasicExecutionRole)', () => {
    for (const [, role] of resourcesOfType('AWS::IAM::Role')) expect(role.Properties).not.toHaveProperty('ManagedPolicyArns');
  });

  it('lets each function write only to its own log group', () => {
    for (const name of FUNCTION_NAMES) {
      const logStatements = roleStatements(synth, name).filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      expect(logStatements, name).toHaveLength(1);
      expect(actionsOf(logStatements[0]!).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      expect(logStatements[0]!.Resource).toEqual(getAtt(logicalIdOf(synth.stack, synth.stack.functions[name].logGroup)));
    }
  });

  it.each(['fallback', 'openapi'] as const)('gives the %s function no data access at all', (name) => {
    const services = roleStatements(synth, name).flatMap(actionsOf).map((a) => a.split(':')[0]);
    expect([...new Set(services)]).toEqual(['logs']);
  });

  it('lets the webhook read and write table items (a heartbeat armed, an SNS subscription recorded at intake), send to the ingest queue and send timer wake-ups, nothing more', () => {
    expect([...new Set(dynamoActions('webhook'))].sort()).toEqual([...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS].sort());
    const sqs = roleStatements(synth, 'webhook').filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqs).toHaveLength(2);
    for (const statement of sqs) {
      expect(actionsOf(statement)).toContain('sqs:SendMessage');
      expect(actionsOf(statement).filter((a) => /Receive|Delete|Purge|ChangeMessageVisibility/.test(a))).toEqual([]);
    }
    expect(sqs.map((s) => s.Resource)).toEqual(expect.arrayContaining([getAtt(queueId()), getAtt(timersQueueId())]));
  });

  it.each(MANAGEMENT_GROUPS)('lets the %s function read and write the table items, and touch no queue but sending timer wake-ups', (group) => {
    expect([...new Set(dynamoActions(group))].sort()).toEqual([...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS].sort());
    const sqs = roleStatements(synth, group).filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    if (TIMER_SENDERS.includes(group)) {
      for (const st of sqs) expect([getAtt(timersQueueId()), getAtt(webhooksQueueId())]).toContainEqual(st.Resource);
      expect(sqs.flatMap(actionsOf).filter((a) => /Receive|Delete|Purge/.test(a))).toEqual([]);
    } else {
      expect(sqs).toEqual([]);
    }
  });

  it('lets the worker read and write the table, consume (not send to) the ingest queue and send timer wake-ups', () => {
    expect([...new Set(dynamoActions('worker'))].sort()).toEqual([...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS].sort());
    const sqs = roleStatements(synth, 'worker').filter((st) => actionsOf(st).some((a) => a.startsWith('sqs:')));
    const onIngest = sqs.filter((st) => JSON.stringify(st.Resource) === JSON.stringify(getAtt(queueId()))).flatMap(actionsOf);
    expect(onIngest).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']));
    expect(onIngest).not.toContain('sqs:SendMessage');
    const others = sqs.filter((st) => JSON.stringify(st.Resource) !== JSON.stringify(getAtt(queueId())));
    for (const st of others) expect([getAtt(timersQueueId()), getAtt(webhooksQueueId())]).toContainEqual(st.Resource);
    expect(others.flatMap(actionsOf)).toContain('sqs:SendMessage');
  });

  it('scopes table grants to the table and, for Query only, to each index by name', () => {
    const indexArns = GSIS.map((g) => ({ 'Fn::Join': ['', [tableArn(), `/index/${g.name}`]] }));
    for (const name of FUNCTION_NAMES) {
      for (const s of roleStatements(synth, name).filter((st) => actionsOf(st).some((a) => a.startsWith('dynamodb:')))) {
        const resources = resourcesOf(s);
        if (resources.some((r) => JSON.stringify(r).includes('/index/'))) {
          expect(actionsOf(s)).toEqual(['dynamodb:Query']);
          expect(resources).toEqual(indexArns);
        } else {
          expect(resources).toEqual([tableArn()]);
        }
      }
    }
    expect(JSON.stringify(allStatements())).not.toContain('/index/*');
  });
});

describe('alarms', () => {
  const topicId = () => logicalIdOf(synth.stack, synth.stack.alarms.topic);

  it('alarms as soon as one message sits in the dead-letter queue', () => {
    synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(dlqId(), 'QueueName') }],
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId() }],
      OKActions: [{ Ref: topicId() }],
    });
  });

  it('alarms when the ingest backlog gets old (a stuck worker) and when the API answers 5xx', () => {
    synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(queueId(), 'QueueName') }],
      Threshold: 600,
      AlarmActions: [{ Ref: topicId() }],
    });
    synth.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: logicalIdOf(synth.stack, synth.stack.api.httpApi) } }],
      AlarmActions: [{ Ref: topicId() }],
    });
  });

  it('publishes to a TLS-only topic that CloudWatch may publish to, output for operators', () => {
    synth.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId() }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: Match.objectLike({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } }),
          }),
        ]),
      },
    });
    synth.template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId() } });
    synth.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('is really checking: a non-compliant control stack gets findings in the same report', () => {
    const outdir = testOutdir('test-control-');
    try {
      const app = new App({ outdir, context: { '@aws-cdk/core:failSynthOnValidationErrors': false } });
      const control = new Stack(app, 'Control');
      new Queue(control, 'PlainQueue');
      Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
      const assembly = app.synth();
      const report = readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8');
      expect(report).toContain('AwsSolutions-SQS3');
      expect(report).toContain('AwsSolutions-SQS4');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it('reports no unacknowledged finding (errors or warnings)', () => {
    const report = JSON.parse(readFileSync(join(synth.assembly.directory, 'validation-report.json'), 'utf8')) as {
      pluginReports: { pluginName: string; conclusion: string; violations: { ruleName: string; severity: string; violatingConstructs?: { constructPath: string }[] }[] }[];
    };
    const findings = report.pluginReports.flatMap((p) =>
      p.violations.map((v) => `${p.pluginName} ${v.severity} ${v.ruleName}: ${(v.violatingConstructs ?? []).map((c) => c.constructPath).join(', ')}`),
    );
    expect(findings).toEqual([]);
    for (const p of report.pluginReports) expect(p.conclusion, p.pluginName).toBe('success');
  });

  it('leaves no error or warning annotation on the stack', () => {
    const messages = synth.assembly.getStackArtifact(synth.stack.artifactId).messages;
    expect(messages.filter((m) => m.level === 'error' || m.level === 'warning').map((m) => `${m.id}: ${String(m.entry.data)}`)).toEqual([]);
  });
});

describe('outgoing webhooks', () => {
  it('run on a standard queue with a dead-letter queue after QUEUES.webhooks.maxReceiveCount receives, encrypted, TLS only', () => {
    for (const id of [webhooksQueueId(), webhooksDlqId()]) {
      expect(synth.json.Resources[id]!.Properties).not.toHaveProperty('FifoQueue');
      expect(synth.json.Resources[id]!.Properties).toMatchObject({ SqsManagedSseEnabled: true });
    }
    expect(synth.json.Resources[webhooksQueueId()]!.Properties!.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(webhooksDlqId()),
      maxReceiveCount: QUEUES.webhooks.maxReceiveCount,
    });
    const timeout = synth.json.Resources[functionLogicalId(synth.stack, 'webhooks')]!.Properties!.Timeout as number;
    expect(timeout).toBeGreaterThan(30);
    expect(synth.json.Resources[webhooksQueueId()]!.Properties!.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeout);
  });

  it('feed the webhooks function in batches with partial batch failures', () => {
    synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionLogicalId(synth.stack, 'webhooks') },
      EventSourceArn: getAtt(webhooksQueueId()),
      BatchSize: WEBHOOKS_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('give the queue URL and send permission to the forwarders and the worker only; only the worker consumes', () => {
    for (const name of FUNCTION_NAMES) {
      const variables = (synth.json.Resources[functionLogicalId(synth.stack, name)]!.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      const onQueue = roleStatements(synth, name).filter((st) => JSON.stringify(st.Resource) === JSON.stringify(getAtt(webhooksQueueId()))).flatMap(actionsOf);
      if (WEBHOOK_SENDERS.includes(name)) {
        expect(variables.HARK_WEBHOOKS_QUEUE_URL, name).toEqual({ Ref: webhooksQueueId() });
        expect(onQueue, name).toContain('sqs:SendMessage');
      } else {
        expect(variables, name).not.toHaveProperty('HARK_WEBHOOKS_QUEUE_URL');
        expect(onQueue, name).toEqual([]);
      }
      if (name !== 'webhooks') expect(onQueue, name).not.toContain('sqs:ReceiveMessage');
    }
    expect(allowedActions(synth, 'webhooks', 'sqs')).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage']));
    expect([...new Set(allowedActions(synth, 'webhooks', 'dynamodb'))].sort()).toEqual([...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS].sort());
  });

  it('alarm as soon as one message sits in the webhooks dead-letter queue', () => {
    const alarmId = logicalIdOf(synth.stack, synth.stack.alarms.webhooksDeadLetterAlarm);
    expect(synth.json.Resources[alarmId]!.Properties).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(webhooksDlqId(), 'QueueName') }],
      Threshold: 0,
    });
  });
});
