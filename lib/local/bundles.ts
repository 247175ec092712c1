// Bundle mode (`npm start -- --bundles`, docs/architecture.md "Bundle mode"): the functions of the synthesized stack in
// cdk.out — the esbuild bundles `cdk deploy` uploads — each with the environment the template gives it, its references
// resolved to the local stand-ins (the table, the queues, the API's URL, the inbound mail bucket). A reference with no
// local stand-in stops the start naming the function and variable: what is missing fails here, not in AWS.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_CONCURRENCY } from './background.ts';
import { scheduledEvent } from './events.ts';
import type { HostedFunction, QueueSource, ScheduleSource } from './function-host.ts';
import type { FunctionSpec } from './invoker.ts';
import { referenced, type Resolved, type SynthesizedStack, type TemplateResource } from './template.ts';

export const LOCAL_ACCOUNT = '000000000000';

/** The local stand-ins of the stack's resources, and what every local function needs to reach them. */
export interface LocalResources {
  region: string;
  tableName: string;
  /** By queue: `ingest`, `ingestDlq`, `timers`, `timersDlq`, `webhooks`, `webhooksDlq`. */
  queueUrls: Record<QueueKind, string>;
  /** The gateway's URL: the API's URL in every link. */
  publicUrl: string;
  /** The bucket standing in for the inbound mail bucket (in the emulator's S3). */
  mailBucket: string;
  /** Endpoints and credentials of the local parts (HARK_DYNAMODB_ENDPOINT, HARK_SQS_ENDPOINT, AWS_ENDPOINT_URL_S3, …). */
  wiring: Record<string, string>;
  /**
   * What the provider secret holds on AWS (HARK_LINK_SECRET, HARK_SMTP_URL, …), taken from this process's environment:
   * given only to the functions the template gives the secret's ARN.
   */
  secretVariables: Record<string, string>;
  /** HARK_SWEEP_INTERVAL_MS: schedules of a minute or less run this often locally. */
  shortScheduleMs: number;
}

export type QueueKind = 'ingest' | 'ingestDlq' | 'timers' | 'timersDlq' | 'webhooks' | 'webhooksDlq';
const CONCURRENCY: Partial<Record<QueueKind, number>> = { ingest: LOCAL_CONCURRENCY.ingest, timers: LOCAL_CONCURRENCY.timers, webhooks: LOCAL_CONCURRENCY.webhooks };

export interface BundleFunction extends HostedFunction {
  arn: string;
}

export interface BundlePlan {
  functions: BundleFunction[];
  /** Route key → the function's name. */
  routes: { routeKey: string; functionName: string }[];
  /** The SES receipt rule: mail for its recipients is stored in the bucket under the prefix, then the function invoked. */
  mail: { recipients: string[]; prefix: string; functionName: string; functionArn: string } | undefined;
}

const cdkPath = (resource: TemplateResource) => (typeof resource.metadata['aws:cdk:path'] === 'string' ? resource.metadata['aws:cdk:path'] : resource.id);

/** Which local queue a template queue is, from its construct path (infra/ingest.ts, timers.ts, webhooks.ts). */
export function queueKindOf(resource: TemplateResource): QueueKind {
  const path = cdkPath(resource);
  const base = /\/Ingest\//.test(path) ? 'ingest' : /\/Timers\//.test(path) ? 'timers' : /\/Webhooks\//.test(path) ? 'webhooks' : undefined;
  if (!base) throw new Error(`The queue ${path} has no local stand-in (lib/local/bundles.ts knows the ingest, timers and webhooks queues)`);
  return (/DeadLetter/.test(path) ? `${base}Dlq` : base) as QueueKind;
}

/** A function's name: its construct's id (`TimersLambda`), as its log group would show it. */
function functionNameOf(resource: TemplateResource): string {
  const parts = cdkPath(resource).split('/');
  return parts.length >= 3 && parts.at(-2) === 'Function' ? parts.slice(1, -2).join('/') : resource.id;
}

const arnOf = (local: LocalResources, name: string) => `arn:aws:lambda:${local.region}:${LOCAL_ACCOUNT}:function:${name}`;

/** A template value as its local stand-in (a string), or an error saying what has none. */
export function localValue(value: Resolved, local: LocalResources, names: Map<TemplateResource, string>): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && 'pseudo' in value && typeof value.pseudo === 'string') {
    const pseudo: Record<string, string> = { 'AWS::Region': local.region, 'AWS::AccountId': LOCAL_ACCOUNT, 'AWS::Partition': 'aws', 'AWS::URLSuffix': 'amazonaws.com' };
    if (value.pseudo in pseudo) return pseudo[value.pseudo]!;
    throw new Error(`${value.pseudo} has no local stand-in`);
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && 'join' in value && Array.isArray(value.parts)) {
    const { join: separator, parts } = value as { join: string; parts: Resolved[] };
    // The API's URL (https://<api id>.execute-api.<region>.<suffix>/) is the gateway's.
    if (parts.some((p) => referenced(p)?.ref.type === 'AWS::ApiGatewayV2::Api')) return `${local.publicUrl}/`;
    return parts.map((p) => localValue(p, local, names)).join(separator);
  }
  const reference = referenced(value);
  if (reference) {
    const { ref, attribute } = reference;
    const arn = attribute === 'Arn';
    switch (ref.type) {
      case 'AWS::DynamoDB::Table':
        return arn ? `arn:aws:dynamodb:${local.region}:${LOCAL_ACCOUNT}:table/${local.tableName}` : local.tableName;
      case 'AWS::SQS::Queue': {
        const url = local.queueUrls[queueKindOf(ref)];
        if (arn) return `arn:aws:sqs:${local.region}:${LOCAL_ACCOUNT}:${url.split('/').pop()}`;
        return attribute === 'QueueName' ? url.split('/').pop()! : url;
      }
      case 'AWS::S3::Bucket':
        if (!arn && /\/Messages\//.test(cdkPath(ref))) return local.mailBucket;
        break;
      case 'AWS::Lambda::Function':
        if (arn && names.has(ref)) return arnOf(local, names.get(ref)!);
        break;
    }
    throw new Error(`${attribute ? `${ref.id}.${attribute}` : ref.id} (${ref.type}) has no local stand-in`);
  }
  throw new Error(`${JSON.stringify(value)} has no local stand-in`);
}

/** The first resource of `type` a value refers to, anywhere inside it. */
function findReference(value: Resolved | undefined, type: string): TemplateResource | undefined {
  const direct = referenced(value);
  if (direct) return direct.ref.type === type ? direct.ref : undefined;
  if (Array.isArray(value)) return value.map((v) => findReference(v, type)).find(Boolean);
  if (value && typeof value === 'object') return Object.values(value).map((v) => findReference(v as Resolved, type)).find(Boolean);
  return undefined;
}

/** `rate(5 minutes)` in milliseconds; schedules of a minute or less run every `shortMs` locally. */
export function scheduleEveryMs(expression: string, shortMs: number): number {
  const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!rate) throw new Error(`The schedule expression ${expression} is not run locally (only rate(...) is)`);
  const unit = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[rate[2]!.replace(/s$/, '') as 'minute' | 'hour' | 'day'];
  const ms = Number(rate[1]) * unit;
  return ms <= 60_000 ? shortMs : ms;
}

/** The environment a function gets locally: the template's variables resolved, the secret's variables, the wiring. */
function environmentOf(resource: TemplateResource, name: string, local: LocalResources, names: Map<TemplateResource, string>, logLevel: string): Record<string, string> {
  const variables = ((resource.properties.Environment as { Variables?: Record<string, Resolved> } | undefined)?.Variables ?? {}) as Record<string, Resolved>;
  const environment: Record<string, string> = {};
  let secret: Record<string, string> = {};
  for (const [variable, value] of Object.entries(variables)) {
    // The secret's ARN: locally the variables it holds are given instead (there is no Secrets Manager); as on AWS,
    // one the function's environment sets wins (lib/channel-adapters/secrets.ts).
    if (referenced(value)?.ref.type === 'AWS::SecretsManager::Secret') {
      secret = local.secretVariables;
      continue;
    }
    try {
      environment[variable] = localValue(value, local, names);
    } catch (error) {
      throw new Error(`The function ${name}'s ${variable}: ${(error as Error).message}`, { cause: error });
    }
  }
  delete environment.NODE_OPTIONS;
  return {
    ...secret,
    ...environment,
    ...local.wiring,
    AWS_REGION: local.region,
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(resource.properties.MemorySize ?? 128),
    POWERTOOLS_LOG_LEVEL: logLevel,
  };
}

/** The bundle file of a function: `<asset folder>/<module>.mjs` (or .js) for the handler `<module>.<export>`. */
function codeOf(stack: SynthesizedStack, resource: TemplateResource, name: string): FunctionSpec['code'] {
  const asset = resource.metadata['aws:asset:path'];
  const handler = String(resource.properties.Handler ?? 'index.handler');
  if (typeof asset !== 'string') throw new Error(`The function ${name} has no bundle in ${stack.directory} (no aws:asset:path)`);
  const dot = handler.lastIndexOf('.');
  const module = handler.slice(0, dot);
  const file = ['.mjs', '.js'].map((ext) => join(stack.directory, asset, `${module}${ext}`)).find((f) => existsSync(f));
  if (!file) throw new Error(`The function ${name}'s bundle ${join(stack.directory, asset, module)}.mjs does not exist: run \`npm run synth\``);
  return { kind: 'bundle', file, exportName: handler.slice(dot + 1) };
}

/** Everything bundle mode runs, read from the synthesized stack. */
export function bundlePlan(stack: SynthesizedStack, local: LocalResources, logLevel: string): BundlePlan {
  const lambdas = stack.resources.filter((r) => r.type === 'AWS::Lambda::Function');
  const names = new Map(lambdas.map((r) => [r, functionNameOf(r)]));
  const functions = new Map<TemplateResource, BundleFunction>();
  for (const resource of lambdas) {
    const name = names.get(resource)!;
    functions.set(resource, {
      spec: {
        name,
        code: codeOf(stack, resource, name),
        timeoutMs: Number(resource.properties.Timeout ?? 3) * 1000,
        memoryMb: Number(resource.properties.MemorySize ?? 128),
        environment: environmentOf(resource, name, local, names, logLevel),
      },
      arn: arnOf(local, name),
      queues: [],
      schedules: [],
    });
  }
  const functionOf = (value: Resolved | undefined, what: string): BundleFunction => {
    const target = findReference(value, 'AWS::Lambda::Function');
    const found = target && functions.get(target);
    if (!found) throw new Error(`${what} names no function of the stack`);
    return found;
  };
  for (const mapping of stack.resources.filter((r) => r.type === 'AWS::Lambda::EventSourceMapping')) {
    if (mapping.properties.Enabled === false) continue;
    const queue = findReference(mapping.properties.EventSourceArn, 'AWS::SQS::Queue');
    if (!queue) throw new Error(`The event source ${mapping.id} is not a queue the local runtime has`);
    const kind = queueKindOf(queue);
    const source: QueueSource = {
      queueUrl: local.queueUrls[kind],
      batchSize: Number(mapping.properties.BatchSize ?? 10),
      reportBatchItemFailures: Array.isArray(mapping.properties.FunctionResponseTypes) && mapping.properties.FunctionResponseTypes.includes('ReportBatchItemFailures'),
      concurrency: CONCURRENCY[kind] ?? 1,
    };
    functionOf(mapping.properties.FunctionName, `The event source ${mapping.id}`).queues.push(source);
  }
  for (const schedule of stack.resources.filter((r) => r.type === 'AWS::Scheduler::Schedule')) {
    if (schedule.properties.State === 'DISABLED') continue;
    const target = schedule.properties.Target as Record<string, Resolved>;
    const fn = functionOf(target.Arn, `The schedule ${schedule.id}`);
    const entry: ScheduleSource = { everyMs: scheduleEveryMs(String(schedule.properties.ScheduleExpression), local.shortScheduleMs), event: scheduledEvent(schedule.id, local.region) };
    fn.schedules.push(entry);
  }
  const integrations = new Map(stack.resources.filter((r) => r.type === 'AWS::ApiGatewayV2::Integration').map((r) => [r, functionOf(r.properties.IntegrationUri, `The integration ${r.id}`)]));
  const routes = stack.resources
    .filter((r) => r.type === 'AWS::ApiGatewayV2::Route')
    .map((route) => {
      const integration = findReference(route.properties.Target, 'AWS::ApiGatewayV2::Integration');
      const fn = integration && integrations.get(integration);
      if (!fn) throw new Error(`The route ${String(route.properties.RouteKey)} has no Lambda integration`);
      return { routeKey: String(route.properties.RouteKey), functionName: fn.spec.name };
    });
  const rules = stack.resources.filter((r) => r.type === 'AWS::SES::ReceiptRule');
  let mail: BundlePlan['mail'];
  for (const rule of rules) {
    const body = rule.properties.Rule as { Recipients?: string[]; Actions?: Record<string, Record<string, Resolved>>[] };
    const store = body.Actions?.find((a) => a.S3Action)?.S3Action;
    const invoke = body.Actions?.find((a) => a.LambdaAction)?.LambdaAction;
    if (!store || !invoke) throw new Error(`The receipt rule ${rule.id} must store the mail in S3, then invoke a function`);
    const fn = functionOf(invoke.FunctionArn, `The receipt rule ${rule.id}`);
    mail = { recipients: (body.Recipients ?? []).map(String), prefix: String(store.ObjectKeyPrefix ?? ''), functionName: fn.spec.name, functionArn: fn.arn };
  }
  return { functions: [...functions.values()], routes, mail };
}
