// The synthesized templates checked the way an infra engineer would (docs/deploy.md, "Checking the templates"): with
// every optional setting on, the root stack's resources counted by type against CloudFormation's 500 (Hark keeps to
// ROOT_RESOURCE_BUDGET; the infra test fails above ROOT_RESOURCE_LIMIT), and cfn-lint run on the root and nested
// templates where it is installed. Used by `npm run lint:cfn` (infra/lint-cfn.ts) and test/infra/template-lint.test.ts.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RootConstruct } from 'constructs';
import { CANARY_CONTEXT } from './canary.ts';
import { CONTEXT_KEYS, settingsFromContext, type HarkSettings } from './settings.ts';

/** Every optional context value set (docs/deploy.md, "Settings"): the largest stack a deployment can have. */
export const EVERY_OPTION_CONTEXT: Readonly<Record<string, string>> = {
  [CONTEXT_KEYS.inboundEmailDomain]: 'alerts.example.com',
  [CONTEXT_KEYS.alarmEmail]: 'ops@example.com',
  [CONTEXT_KEYS.mailFrom]: 'Hark <alerts@example.com>',
  [CONTEXT_KEYS.smsOriginationIdentityArn]: 'arn:aws:sms-voice:eu-west-1:123456789012:phone-number/phone-0123456789abcdef',
  [CONTEXT_KEYS.tableWarmWriteUnits]: '5000',
  [CONTEXT_KEYS.tableWarmReadUnits]: '15000',
  [CONTEXT_KEYS.webhookAllowedHosts]: 'hooks.internal.example,10.0.0.0/8',
  [CONTEXT_KEYS.publicUrl]: 'https://alerts.example.com',
  [CONTEXT_KEYS.maxBodyBytes]: '131072',
  [CANARY_CONTEXT.minutes]: '5',
};

/** The same, as the settings the stack is built with. */
export const EVERY_OPTION: HarkSettings = (() => {
  const root = new RootConstruct();
  for (const [key, value] of Object.entries(EVERY_OPTION_CONTEXT)) root.node.setContext(key, value);
  return settingsFromContext(root.node);
})();

/** What the root stack may hold with every option: room under CloudFormation's 500 for what later work adds. */
export const ROOT_RESOURCE_BUDGET = 250;
/** Above this the infra test fails, printing the count by type. */
export const ROOT_RESOURCE_LIMIT = 300;

interface TemplateJson {
  Resources?: Record<string, { Type: string }>;
}

/** The templates of a cloud assembly: the stack's own first, then its nested stacks' (`*.nested.template.json`). */
export function templateFiles(assemblyDir: string, stackName: string): string[] {
  const nested = readdirSync(assemblyDir)
    .filter((f) => f.startsWith(stackName) && f.endsWith('.nested.template.json'))
    .sort();
  return [join(assemblyDir, `${stackName}.template.json`), ...nested.map((f) => join(assemblyDir, f))];
}

export interface ResourceCount {
  readonly total: number;
  /** Resource type → count, most first. */
  readonly byType: readonly (readonly [string, number])[];
}

export function countResources(templateFile: string): ResourceCount {
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as TemplateJson;
  const byType = new Map<string, number>();
  for (const resource of Object.values(template.Resources ?? {})) byType.set(resource.Type, (byType.get(resource.Type) ?? 0) + 1);
  return { total: [...byType.values()].reduce((a, b) => a + b, 0), byType: [...byType].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])) };
}

export function formatCount(name: string, count: ResourceCount): string {
  return [`${name}: ${count.total} resources`, ...count.byType.map(([type, n]) => `  ${String(n).padStart(4)}  ${type}`)].join('\n');
}

export const CFN_LINT_SKIPPED = 'cfn-lint is not on the PATH: the CloudFormation template lint was skipped (pip install cfn-lint to run it)';

export type CfnLintResult = { readonly ran: false } | { readonly ran: true; readonly version: string; readonly findings: readonly string[] };

/**
 * Runs cfn-lint on the templates: every error and warning is a finding (none is suppressed; a rule that had to be
 * would be listed in one `.cfnlintrc.yaml` with its reason). Not installed: `ran: false`.
 */
export function runCfnLint(files: readonly string[]): CfnLintResult {
  const version = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  if (version.error) {
    if ((version.error as NodeJS.ErrnoException).code === 'ENOENT') return { ran: false };
    throw version.error;
  }
  const lint = spawnSync('cfn-lint', ['--format', 'parseable', '--', ...files], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (lint.error) throw lint.error;
  // Exit status: 0 clean, else a bit mask (2 errors, 4 warnings, 8 informational); 1 is cfn-lint failing itself.
  if (lint.status === 1) throw new Error(`cfn-lint failed: ${lint.stderr || lint.stdout}`);
  const findings = lint.stdout.split('\n').filter((line) => line.trim() !== '');
  return { ran: true, version: version.stdout.trim(), findings };
}
