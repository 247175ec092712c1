// The HTTP API's routes in a nested stack of their own (docs/decisions/0031-api-routes-in-a-nested-stack.md): one
// route per gateway route (lib/http/gateway-routes.ts), one Lambda integration and one invoke permission per function,
// the permission scoped to the API. A route added to the table lands here, so the root stack keeps its headroom under
// CloudFormation's 500 resources; this stack has its own 500.
//
// Logical ids come from the route key and the group's name, never from an order: a route re-created under another
// logical id would be created before its old self is deleted, and API Gateway refuses two routes with one key.

import { NestedStack, Validations } from 'aws-cdk-lib';
import { CfnIntegration, CfnRoute, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnPermission, type IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { GatewayRoute } from '../lib/http/gateway-routes.ts';
import type { Group } from '../lib/http/routes.ts';

/** Why no route has an API Gateway authorizer (cdk-nag AwsSolutions-APIG4), for every route of the API. */
export const NO_AUTHORIZER_REASON =
  'Hark authenticates every request inside its Lambda, as its API specifies: management routes take a bearer API key ' +
  '(found by its SHA-256 hash in the table), the webhook route takes the integration token (checked against its stored ' +
  'hash), and $default only answers 404/405. An API Gateway authorizer would add a Lambda invocation per request for ' +
  'the same lookup.';

export interface ApiRoutesProps {
  readonly httpApi: IHttpApi;
  readonly routes: readonly GatewayRoute[];
  /** The function of each group the routes name. */
  readonly functions: Readonly<Partial<Record<Group, IFunction>>>;
}

/** `ANY /api/v4/alerts/{id}` → `ANY--api--v4--alerts--{id}`: a construct id (no `/`) that names the key. */
const constructIdOf = (key: string): string => key.replace(/ /g, '').replace(/\//g, '--');

const pascal = (group: string): string =>
  group
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

export class ApiRoutes extends NestedStack {
  readonly routes: ReadonlyMap<string, CfnRoute>;
  readonly integrations: ReadonlyMap<Group, CfnIntegration>;
  readonly permissions: ReadonlyMap<Group, CfnPermission>;

  constructor(scope: Construct, id: string, props: ApiRoutesProps) {
    super(scope, id, { description: 'Hark: the HTTP API routes, their Lambda integrations and invoke permissions' });
    const apiId = props.httpApi.apiId;
    // Any stage, method and path of this API: the gateway's route table decides which function a request reaches.
    const sourceArn = this.formatArn({ service: 'execute-api', resource: apiId, resourceName: '*/*' });
    const integrations = new Map<Group, CfnIntegration>();
    const permissions = new Map<Group, CfnPermission>();
    const integrationOf = (group: Group): CfnIntegration => {
      const existing = integrations.get(group);
      if (existing) return existing;
      const fn = props.functions[group];
      if (!fn) throw new Error(`No function for the routes of group ${group}`);
      const integration = new CfnIntegration(this, `${pascal(group)}Integration`, {
        apiId,
        integrationType: 'AWS_PROXY',
        integrationUri: fn.functionArn,
        payloadFormatVersion: '2.0',
      });
      integrations.set(group, integration);
      permissions.set(
        group,
        new CfnPermission(this, `${pascal(group)}Invoke`, { action: 'lambda:InvokeFunction', functionName: fn.functionArn, principal: 'apigateway.amazonaws.com', sourceArn }),
      );
      return integration;
    };
    const routes = new Map<string, CfnRoute>();
    for (const route of props.routes) {
      routes.set(
        route.key,
        new CfnRoute(this, constructIdOf(route.key), { apiId, routeKey: route.key, authorizationType: 'NONE', target: `integrations/${integrationOf(route.group).ref}` }),
      );
    }
    this.routes = routes;
    this.integrations = integrations;
    this.permissions = permissions;
    Validations.of(this).acknowledge({ id: 'AwsSolutions-APIG4', reason: NO_AUTHORIZER_REASON });
  }
}
