// `npm run lint:cfn`: synthesizes the app as `cdk synth` does (infra/app.ts, cdk-nag included) with every optional
// setting, bundling skipped (the templates differ only in asset hashes), prints the resources of each template by type,
// and runs cfn-lint on them where it is installed; where it is not, one line says the lint was skipped.
// Exits non-zero on a cfn-lint finding, a cdk-nag finding, or a root stack over ROOT_RESOURCE_LIMIT (docs/deploy.md).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './lambda.ts';
import { CFN_LINT_SKIPPED, countResources, EVERY_OPTION_CONTEXT, formatCount, ROOT_RESOURCE_LIMIT, runCfnLint, templateFiles } from './template-lint.ts';

const STACK = 'HarkLintStack';
mkdirSync(join(PROJECT_ROOT, 'cdk.out'), { recursive: true });
const outdir = mkdtempSync(join(PROJECT_ROOT, 'cdk.out', 'lint-'));
let failed = false;
try {
  execFileSync(process.execPath, [join(PROJECT_ROOT, 'infra', 'app.ts')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify({ ...EVERY_OPTION_CONTEXT, 'aws:cdk:bundling-stacks': [], 'hark:stackName': STACK }) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const files = templateFiles(outdir, STACK);
  files.forEach((file, i) => {
    const count = countResources(file);
    console.log(formatCount(i === 0 ? 'root stack' : `nested stack ${file.slice(outdir.length + 1)}`, count));
    if (i === 0 && count.total > ROOT_RESOURCE_LIMIT) {
      console.error(`The root stack has ${count.total} resources, over ${ROOT_RESOURCE_LIMIT}: CloudFormation refuses 500 (docs/decisions/0031-api-routes-in-a-nested-stack.md).`);
      failed = true;
    }
  });
  const lint = runCfnLint(files);
  if (!lint.ran) console.log(CFN_LINT_SKIPPED);
  else if (lint.findings.length === 0) console.log(`${lint.version}: no errors or warnings in ${files.length} templates`);
  else {
    console.error(`${lint.version}: ${lint.findings.length} findings\n${lint.findings.join('\n')}`);
    failed = true;
  }
} catch (error) {
  // infra/app.ts has printed its own failure (a cdk-nag finding, a bad setting).
  console.error(error instanceof Error ? error.message : error);
  failed = true;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
