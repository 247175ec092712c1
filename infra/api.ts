// The HTTP API: one route per row of the route table (lib/http/routes.ts) to its group's Lambda, and the
// `$default` route (anything no row matches) to the fallback Lambda, which answers the JSON 404/405.
// One `$default` stage with default throttling, its own throttle for the webhook routes (alert storms, docs/capacity.md),
// and JSON access logs.

import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnStage, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination, type HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROUTES, type Group } from '../lib/http/routes.ts';

/** One access log line per request, as JSON. No headers or bodies: they may carry API keys or alert data. */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
};

export interface HarkApiProps {
  /** The Lambda of each endpoint group. */
  readonly groups: Readonly<Record<Group, IFunction>>;
  /** Serves `$default`. */
  readonly fallback: IFunction;
  readonly throttleRateLimit: number;
  readonly throttleBurstLimit: number;
  /** The webhook routes' own throttle (route settings), so a storm of monitors is not held to the API's. */
  readonly webhookThrottleRateLimit: number;
  readonly webhookThrottleBurstLimit: number;
  readonly logRetention: RetentionDays;
}

export class HarkApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: HarkApiProps) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Hark API',
      // The stage is created below, with throttling and access logs.
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', props.fallback),
    });

    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Hark authenticates every request inside its Lambda, as its API specifies: management routes take a bearer API key ' +
        '(found by its SHA-256 hash in the table), the webhook route takes the integration token (checked against its stored ' +
        'hash), and $default only answers 404/405. An API Gateway authorizer would add a Lambda invocation per request for ' +
        'the same lookup.',
    });

    // One integration per group, shared by the group's routes; each route gets its own invoke permission
    // scoped to its path.
    const integrations = new Map<Group, HttpLambdaIntegration>();
    const integrationOf = (group: Group): HttpLambdaIntegration => {
      let integration = integrations.get(group);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${group}Integration`, props.groups[group]);
        integrations.set(group, integration);
      }
      return integration;
    };
    const webhookRoutes: HttpRoute[] = [];
    for (const route of ROUTES) {
      const added = this.httpApi.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration: integrationOf(route.group) });
      if (route.group === 'webhook') webhookRoutes.push(...added);
    }

    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttleRateLimit, burstLimit: props.throttleBurstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    // Route settings name routes by key, so the stage is created after them. The property is plain JSON (CloudFormation's
    // own casing): the L2 stage has no route settings.
    (this.stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      ROUTES.filter((route) => route.group === 'webhook').map((route) => [
        `${route.method} ${route.path}`,
        { ThrottlingRateLimit: props.webhookThrottleRateLimit, ThrottlingBurstLimit: props.webhookThrottleBurstLimit },
      ]),
    );
    for (const route of webhookRoutes) this.stage.node.addDependency(route);
  }

  /** The API's base URL (the `$default` stage has no path prefix), ending in `/`. */
  get url(): string {
    // A `$default` stage always has a URL.
    return this.stage.url;
  }
}
