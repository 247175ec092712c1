// The CDK app entry as `cdk synth` runs it (cdk.json: `node infra/app.ts`): Node 24 strips the types, the
// context settings apply, and cdk-nag passes (a finding makes the app exit non-zero).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/lambda.ts';
import { testOutdir } from './harness.ts';

describe('infra/app.ts', () => {
  it('synthesizes the stack named by context, offline, with cdk-nag passing', () => {
    const outdir = testOutdir('test-app-');
    try {
      execFileSync(process.execPath, [join(PROJECT_ROOT, 'infra', 'app.ts')], {
        cwd: PROJECT_ROOT,
        env: {
          PATH: process.env.PATH,
          CDK_OUTDIR: outdir,
          CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], 'hark:stackName': 'HarkAppTest', 'hark:throttleRateLimit': '25' }),
        },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const template = JSON.parse(readFileSync(join(outdir, 'HarkAppTest.template.json'), 'utf8')) as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
      const stage = Object.values(template.Resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Stage')!;
      expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 25 });
      const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, { type: string }> };
      expect(Object.entries(manifest.artifacts).filter(([, a]) => a.type === 'aws:cloudformation:stack').map(([id]) => id)).toEqual(['HarkAppTest']);
      // Written only when a validation plugin ran; it must hold no finding.
      const reportFile = join(outdir, 'validation-report.json');
      expect(existsSync(reportFile)).toBe(true);
      expect((JSON.parse(readFileSync(reportFile, 'utf8')) as { pluginReports: unknown[] }).pluginReports).toEqual([]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
