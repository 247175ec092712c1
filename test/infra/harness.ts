// Shared helpers for the infra tests: synthesize the stack once, then query the template.

import { App, Validations, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/lambda.ts';
import type { HarkSettings } from '../../infra/settings.ts';
import { HarkStack, type FunctionName } from '../../infra/stack.ts';

export interface Synthesized {
  readonly app: App;
  readonly stack: HarkStack;
  readonly assembly: CloudAssembly;
  readonly template: Template;
  readonly json: TemplateJson;
  /** The nested stack of the API's routes (infra/api-routes.ts). */
  readonly routesTemplate: Template;
  readonly routesJson: TemplateJson;
  readonly outdir: string;
}

export interface TemplateJson {
  Parameters?: Record<string, unknown>;
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown>; [k: string]: unknown }>;
  Outputs?: Record<string, { Value: unknown; Description?: string }>;
}

export interface SynthOptions {
  /** Bundle the functions with esbuild (slow); otherwise bundling is skipped. */
  readonly bundle?: boolean;
  /** Apply cdk-nag's AwsSolutions checks, as infra/app.ts does. */
  readonly nag?: boolean;
  readonly settings?: Partial<HarkSettings>;
  /** Context values, as `cdk deploy -c key=value` gives them (those the stack reads itself: `hark:canaryMinutes`). */
  readonly context?: Record<string, unknown>;
}

/**
 * Synthesizes a HarkStack. The cloud assembly goes under cdk.out/ (ignored by git) so that bundles there
 * resolve the project's node_modules, as the Lambda runtime resolves its own AWS SDK. Validation failures
 * (cdk-nag findings) do not throw: they land in the assembly's validation report, which a test reads.
 */
/** A fresh folder under cdk.out/, which a clean clone does not have yet. */
export function testOutdir(prefix: string): string {
  const parent = join(PROJECT_ROOT, 'cdk.out');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, prefix));
}

export function synthHark(options: SynthOptions = {}): Synthesized {
  const outdir = testOutdir('test-');
  const app = new App({
    outdir,
    context: {
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      'aws:cdk:enable-asset-metadata': true,
      '@aws-cdk/core:failSynthOnValidationErrors': false,
      ...options.context,
    },
  });
  const stack = new HarkStack(app, 'HarkStack', options.settings ? { settings: options.settings } : {});
  if (options.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  const assembly = app.synth();
  const template = Template.fromStack(stack);
  const routesTemplate = Template.fromStack(stack.api.routes);
  return { app, stack, assembly, template, json: template.toJSON() as TemplateJson, routesTemplate, routesJson: routesTemplate.toJSON() as TemplateJson, outdir };
}

export function logicalIdOf(stack: Stack, construct: { node: { defaultChild?: unknown } }): string {
  return stack.getLogicalId(construct.node.defaultChild as CfnFunction);
}

export function functionLogicalId(stack: HarkStack, name: FunctionName): string {
  return logicalIdOf(stack, stack.functions[name].function);
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource?: unknown;
  Principal?: unknown;
  Condition?: unknown;
}

export const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);
export const resourcesOf = (s: Statement): unknown[] => (s.Resource === undefined ? [] : Array.isArray(s.Resource) ? s.Resource : [s.Resource]);

/** Every identity-policy statement that applies to a function's role (inline policies and attached AWS::IAM::Policy). */
export function roleStatements(synth: Synthesized, name: FunctionName): Statement[] {
  const fn = synth.json.Resources[functionLogicalId(synth.stack, name)]!;
  const roleRef = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const role = synth.json.Resources[roleRef]!;
  const statements: Statement[] = [];
  for (const policy of (role.Properties?.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ?? []) {
    statements.push(...policy.PolicyDocument.Statement);
  }
  for (const resource of Object.values(synth.json.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const roles = resource.Properties!.Roles as { Ref: string }[];
    if (roles.some((r) => r.Ref === roleRef)) {
      statements.push(...(resource.Properties!.PolicyDocument as { Statement: Statement[] }).Statement);
    }
  }
  return statements;
}

/** Allowed actions of a role, by service prefix. */
export function allowedActions(synth: Synthesized, name: FunctionName, service: string): string[] {
  return roleStatements(synth, name)
    .filter((s) => s.Effect === 'Allow')
    .flatMap(actionsOf)
    .filter((a) => a.startsWith(`${service}:`));
}

export const getAtt = (logicalId: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [logicalId, attribute] });
