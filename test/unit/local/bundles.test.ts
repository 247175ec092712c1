// Bundle mode's reading of a synthesized stack (lib/local/template.ts, bundles.ts): each function's environment with
// its references resolved to the local stand-ins, its event sources, schedules, routes and the receipt rule — and a
// reference with no stand-in refused, naming the function and the variable.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundlePlan, type LocalResources } from '#lib/local/bundles.ts';
import { readSynthesizedStack } from '#lib/local/template.ts';

const local: LocalResources = {
  region: 'us-east-1',
  tableName: 'hark-local',
  queueUrls: { ingest: 'http://q/ingest.fifo', ingestDlq: 'http://q/ingest-dlq.fifo', timers: 'http://q/timers', timersDlq: 'http://q/timers-dlq', webhooks: 'http://q/webhooks', webhooksDlq: 'http://q/webhooks-dlq' },
  publicUrl: 'http://127.0.0.1:3000',
  mailBucket: 'local-mail',
  wiring: { HARK_DYNAMODB_ENDPOINT: 'http://db' },
  secretVariables: { HARK_SMTP_URL: 'smtp://mail', HARK_LINK_SECRET: 'k'.repeat(40) },
  shortScheduleMs: 5000,
};

const fn = (path: string, env: Record<string, unknown>) => ({
  Type: 'AWS::Lambda::Function',
  Properties: { Handler: 'index.handler', Timeout: 30, MemorySize: 512, Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps', ...env } } },
  Metadata: { 'aws:cdk:path': `Stack/${path}/Function/Resource`, 'aws:asset:path': `asset.${path}` },
});

function synthesized(resources: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hark-plan-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ artifacts: { Stack: { type: 'aws:cloudformation:stack', properties: { templateFile: 'Stack.template.json' } } } }));
  writeFileSync(join(dir, 'Stack.template.json'), JSON.stringify({ Resources: resources }));
  for (const [, r] of Object.entries(resources) as [string, { Metadata?: Record<string, string> }][]) {
    const asset = r.Metadata?.['aws:asset:path'];
    if (asset) {
      mkdirSync(join(dir, asset));
      writeFileSync(join(dir, asset, 'index.mjs'), 'export const handler = async () => ({});');
    }
  }
  return dir;
}

const base = {
  Table: { Type: 'AWS::DynamoDB::Table', Metadata: { 'aws:cdk:path': 'Stack/Data/Table/Resource' } },
  TimersQ: { Type: 'AWS::SQS::Queue', Metadata: { 'aws:cdk:path': 'Stack/Timers/Queue/Resource' } },
  Secret: { Type: 'AWS::SecretsManager::Secret', Metadata: { 'aws:cdk:path': 'Stack/Delivery/ProviderSecret/Resource' } },
  Api: { Type: 'AWS::ApiGatewayV2::Api', Metadata: {} },
  Bucket: { Type: 'AWS::S3::Bucket', Metadata: { 'aws:cdk:path': 'Stack/InboundEmail/Messages/Resource' } },
};

describe('the bundle plan', () => {
  it('gives each function its template variables as local stand-ins, the secret as its variables, and its sources', () => {
    const dir = synthesized({
      ...base,
      TimersFn: fn('TimersLambda', {
        HARK_TABLE_NAME: { Ref: 'Table' },
        HARK_TIMERS_QUEUE_URL: { Ref: 'TimersQ' },
        HARK_PUBLIC_URL: { 'Fn::Join': ['', ['https://', { Ref: 'Api' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/']] },
        HARK_SECRETS_ARN: { Ref: 'Secret' },
        HARK_MAIL_FROM: 'pages@example.com',
      }),
      Mapping: { Type: 'AWS::Lambda::EventSourceMapping', Properties: { BatchSize: 7, EventSourceArn: { 'Fn::GetAtt': ['TimersQ', 'Arn'] }, FunctionName: { Ref: 'TimersFn' }, FunctionResponseTypes: ['ReportBatchItemFailures'] } },
      Sweep: { Type: 'AWS::Scheduler::Schedule', Properties: { ScheduleExpression: 'rate(1 minute)', Target: { Arn: { 'Fn::GetAtt': ['TimersFn', 'Arn'] } } } },
      Integration: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { IntegrationUri: { 'Fn::GetAtt': ['TimersFn', 'Arn'] } } },
      Route: { Type: 'AWS::ApiGatewayV2::Route', Properties: { RouteKey: 'GET /x/{id}', Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'Integration' }]] } } },
      EmailFn: fn('EmailLambda', { HARK_INBOUND_EMAIL_BUCKET: { Ref: 'Bucket' } }),
      Rule: {
        Type: 'AWS::SES::ReceiptRule',
        Properties: { Rule: { Recipients: ['in.example.com'], Actions: [{ S3Action: { BucketName: { Ref: 'Bucket' }, ObjectKeyPrefix: 'inbound/' } }, { LambdaAction: { FunctionArn: { 'Fn::GetAtt': ['EmailFn', 'Arn'] } } }] } },
      },
    });
    const plan = bundlePlan(readSynthesizedStack(dir), local, 'WARN');
    const timers = plan.functions.find((f) => f.spec.name === 'TimersLambda')!;
    expect(timers.spec.environment).toMatchObject({
      HARK_TABLE_NAME: 'hark-local',
      HARK_TIMERS_QUEUE_URL: 'http://q/timers',
      HARK_PUBLIC_URL: 'http://127.0.0.1:3000/',
      HARK_SMTP_URL: 'smtp://mail',
      HARK_MAIL_FROM: 'pages@example.com',
      HARK_DYNAMODB_ENDPOINT: 'http://db',
      AWS_LAMBDA_FUNCTION_NAME: 'TimersLambda',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    });
    expect(timers.spec.environment).not.toHaveProperty('HARK_SECRETS_ARN');
    expect(timers.spec.code).toMatchObject({ kind: 'bundle', exportName: 'handler', file: join(dir, 'asset.TimersLambda', 'index.mjs') });
    expect(timers.queues).toEqual([{ queueUrl: 'http://q/timers', batchSize: 7, reportBatchItemFailures: true, concurrency: 32 }]);
    expect(timers.schedules.map((s) => s.everyMs)).toEqual([5000]);
    expect(timers.schedules[0]!.event).toMatchObject({ source: 'aws.scheduler', 'detail-type': 'Scheduled Event' });
    expect(plan.routes).toEqual([{ routeKey: 'GET /x/{id}', functionName: 'TimersLambda' }]);
    expect(plan.mail).toMatchObject({ recipients: ['in.example.com'], prefix: 'inbound/', functionName: 'EmailLambda' });
    const email = plan.functions.find((f) => f.spec.name === 'EmailLambda')!;
    // Only the functions the template gives the secret get its variables.
    expect(email.spec.environment).toMatchObject({ HARK_INBOUND_EMAIL_BUCKET: 'local-mail' });
    expect(email.spec.environment).not.toHaveProperty('HARK_SMTP_URL');
  });

  it('refuses a variable with no local stand-in, naming the function and the variable', () => {
    const dir = synthesized({ Topic: { Type: 'AWS::SNS::Topic', Metadata: {} }, AlarmFn: fn('AlarmLambda', { HARK_TOPIC: { Ref: 'Topic' } }) });
    expect(() => bundlePlan(readSynthesizedStack(dir), local, 'INFO')).toThrow("The function AlarmLambda's HARK_TOPIC: Topic (AWS::SNS::Topic) has no local stand-in");
  });

  it('says to synthesize first when the folder holds no app', () => {
    expect(() => readSynthesizedStack(mkdtempSync(join(tmpdir(), 'hark-empty-')))).toThrow('holds no synthesized app: run `npm run synth` first');
  });
});
