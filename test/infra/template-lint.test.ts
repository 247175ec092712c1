// Headroom and hygiene of the synthesized templates with every optional setting (infra/template-lint.ts, the same
// checks `npm run lint:cfn` makes): the root stack's resources under the limit, printed by type when over; a route
// added to an existing function adds nothing to the root stack; cdk-nag and cfn-lint find nothing (cfn-lint where it
// is installed: elsewhere one line says it was skipped).
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarkApi } from '../../infra/api.ts';
import { CFN_LINT_SKIPPED, countResources, EVERY_OPTION, formatCount, ROOT_RESOURCE_BUDGET, ROOT_RESOURCE_LIMIT, runCfnLint, templateFiles } from '../../infra/template-lint.ts';
import { GROUPS, ROUTES, type Group, type Route } from '../../lib/http/routes.ts';
import { synthHark, type Synthesized } from './harness.ts';

let synth: Synthesized;
let files: string[];

beforeAll(() => {
  synth = synthHark({ nag: true, settings: EVERY_OPTION });
  files = templateFiles(synth.assembly.directory, synth.stack.artifactId);
}, 300_000);

afterAll(() => {
  if (synth) rmSync(synth.outdir, { recursive: true, force: true });
});

describe('with every option set', () => {
  it(`keeps the root stack within ${ROOT_RESOURCE_LIMIT} resources (budget ${ROOT_RESOURCE_BUDGET}), printing the count by type when over`, () => {
    const count = countResources(files[0]!);
    const report = formatCount('root stack', count);
    expect(count.total, report).toBeLessThanOrEqual(ROOT_RESOURCE_LIMIT);
    expect(count.total, report).toBeLessThanOrEqual(ROOT_RESOURCE_BUDGET);
    // The routes live in their own stack, which has a 500 of its own.
    expect(files).toHaveLength(2);
    expect(countResources(files[1]!).total).toBeLessThan(500);
  });

  it('reports no cdk-nag finding', () => {
    const report = JSON.parse(readFileSync(join(synth.assembly.directory, 'validation-report.json'), 'utf8')) as {
      pluginReports: { violations: { ruleName: string; violatingConstructs?: { constructPath: string }[] }[] }[];
    };
    expect(report.pluginReports.flatMap((p) => p.violations.map((v) => `${v.ruleName}: ${(v.violatingConstructs ?? []).map((c) => c.constructPath).join(', ')}`))).toEqual([]);
  });

  it('passes cfn-lint without an error or a warning, root and nested templates (one line where cfn-lint is not installed)', () => {
    const lint = runCfnLint(files);
    if (!lint.ran) {
      console.log(CFN_LINT_SKIPPED);
      return;
    }
    expect(lint.findings).toEqual([]);
  });
});

describe('a route added later', () => {
  /** The API alone in a stack of its own, with a stand-in function per group, and the resources of each of its stacks. */
  function apiWith(routes: readonly Route[]) {
    const stack = new Stack();
    const fn = (id: string) => new LambdaFunction(stack, id, { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('export const handler = async () => ({});') });
    const groups = Object.fromEntries(GROUPS.map((g) => [g, fn(g)])) as Record<Group, LambdaFunction>;
    const api = new HarkApi(stack, 'Api', {
      routes,
      groups,
      fallback: fn('fallback'),
      throttleRateLimit: 50,
      throttleBurstLimit: 100,
      webhookThrottleRateLimit: 1000,
      webhookThrottleBurstLimit: 2000,
      logRetention: RetentionDays.ONE_DAY,
    });
    const root = Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
    const nested = Template.fromStack(api.routes).toJSON() as { Resources: Record<string, unknown> };
    return { root, rootCount: Object.keys(root.Resources).length, nestedCount: Object.keys(nested.Resources).length };
  }

  it('to an existing function adds nothing to the root stack: a method on a path, a new path, an intake route (with its throttle)', () => {
    const before = apiWith(ROUTES);
    const added: Route[] = [
      { method: 'PUT', path: '/api/v4/comments/{id}', group: 'comments', role: 'member' },
      { method: 'GET', path: '/api/v4/alerts/{id}/timeline', group: 'alerts', role: 'member' },
      { method: 'POST', path: '/integration/{id}/batch', group: 'webhook', role: 'public' },
    ];
    const after = apiWith([...ROUTES, ...added]);
    expect(after.rootCount).toBe(before.rootCount);
    // Two routes (the new path's and the intake row's); the webhook's integration and permission are there already, for
    // PagerDuty's and Opsgenie's /v2 rows (docs/monitors.md), so the intake row adds only its route.
    expect(after.nestedCount).toBe(before.nestedCount + 2);
    const [stageId, stage] = Object.entries(after.root.Resources).find(([, r]) => r.Type === 'AWS::ApiGatewayV2::Stage')!;
    expect(stage.Properties!.RouteSettings).toMatchObject({ 'POST /integration/{id}/batch': { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 } });
    // The stage names the new route's key, so it is created after the nested stack that holds it.
    const nestedId = Object.entries(after.root.Resources).find(([, r]) => r.Type === 'AWS::CloudFormation::Stack')![0];
    expect((after.root.Resources[stageId] as { DependsOn?: string[] }).DependsOn).toContain(nestedId);
  });
});
