// The HTTP API (docs/decisions/0031-api-routes-in-a-nested-stack.md): the API, its `$default` stage and the `$default`
// route (anything no route matches) to the fallback Lambda, which answers the JSON 404/405, stay in the root stack with
// the webhook's routes; every other route of the route table (lib/http/routes.ts, one `ANY` route per path) lives in a
// nested stack with one integration and one invoke permission per function. The stage has default throttling, the
// intake routes' own throttle (alert storms, docs/capacity.md), and JSON access logs.

import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnStage, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination, type HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { gatewayRoutes } from '../lib/http/gateway-routes.ts';
import { ROUTES, type Group, type Route } from '../lib/http/routes.ts';
import { ApiRoutes, NO_AUTHORIZER_REASON } from './api-routes.ts';

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

/**
 * Routes that stay in the root stack under the logical ids they had before the nested stack: the webhook's, whose route
 * settings the stage names. Moving a route re-creates it before its old self is deleted, which API Gateway refuses for
 * one key, and a removed route's settings are not removed with it (docs/decisions/0031-api-routes-in-a-nested-stack.md).
 */
export const ROOT_ROUTE_KEYS: ReadonlySet<string> = new Set(['POST /integration/{id}', 'GET /integration/{id}']);

export interface HarkApiProps {
  /** The route table (default: lib/http/routes.ts). */
  readonly routes?: readonly Route[];
  /** The Lambda of each endpoint group. */
  readonly groups: Readonly<Record<Group, IFunction>>;
  /** Serves `$default`. */
  readonly fallback: IFunction;
  readonly throttleRateLimit: number;
  readonly throttleBurstLimit: number;
  /** The intake routes' own throttle (route settings), so a storm of monitors is not held to the API's. */
  readonly webhookThrottleRateLimit: number;
  readonly webhookThrottleBurstLimit: number;
  readonly logRetention: RetentionDays;
}

export class HarkApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  /** The nested stack of every route but `$default` and the root's (ROOT_ROUTE_KEYS). */
  readonly routes: ApiRoutes;

  constructor(scope: Construct, id: string, props: HarkApiProps) {
    super(scope, id);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Hark API',
      // The stage is created below, with throttling and access logs.
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('FallbackIntegration', props.fallback),
    });

    Validations.of(this.httpApi).acknowledge({ id: 'AwsSolutions-APIG4', reason: NO_AUTHORIZER_REASON });

    const routes = gatewayRoutes(props.routes ?? ROUTES);
    // The root's routes: one integration per group shared by its routes, and an invoke permission per route scoped to
    // its path, as they were created before the nested stack (their logical ids must not change).
    const integrations = new Map<Group, HttpLambdaIntegration>();
    const integrationOf = (group: Group): HttpLambdaIntegration => {
      let integration = integrations.get(group);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${group}Integration`, props.groups[group]);
        integrations.set(group, integration);
      }
      return integration;
    };
    const rootRoutes = new Map<string, HttpRoute>();
    for (const route of routes.filter((r) => ROOT_ROUTE_KEYS.has(r.key))) {
      const [added] = this.httpApi.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration: integrationOf(route.group) });
      rootRoutes.set(route.key, added!);
    }
    this.routes = new ApiRoutes(this, 'Routes', { httpApi: this.httpApi, routes: routes.filter((r) => !ROOT_ROUTE_KEYS.has(r.key)), functions: props.groups });

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
    // Route settings name routes by key, so the stage is created after the routes they name (the root's, and the nested
    // stack when an intake route lives there). The property is plain JSON (CloudFormation's own casing): the L2 stage
    // has no route settings.
    const intake = routes.filter((route) => route.intake);
    (this.stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      intake.map((route) => [route.key, { ThrottlingRateLimit: props.webhookThrottleRateLimit, ThrottlingBurstLimit: props.webhookThrottleBurstLimit }]),
    );
    for (const route of intake) this.stage.node.addDependency(rootRoutes.get(route.key) ?? this.routes);
  }

  /** The API's base URL (the `$default` stage has no path prefix), ending in `/`. */
  get url(): string {
    // A `$default` stage always has a URL.
    return this.stage.url;
  }
}
