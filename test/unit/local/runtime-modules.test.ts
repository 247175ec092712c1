// Bundle mode resolves a bundle's imports from outside itself as the Lambda runtime does (lib/local/runtime-modules.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXTERNAL_MODULES } from '../../../infra/lambda.ts';
import { isPackageSpecifier, RUNTIME_PROVIDED_MODULES, runtimeProvides } from '#lib/local/runtime-modules.ts';

describe('the modules a bundle may import from outside itself', () => {
  it('are exactly what the bundling leaves out of every bundle', () => {
    expect(RUNTIME_PROVIDED_MODULES).toEqual(EXTERNAL_MODULES);
  });

  it('the runtime provides the AWS SDK v3 packages and files inside them, nothing else', () => {
    expect(runtimeProvides('@aws-sdk/lib-dynamodb')).toBe(true);
    expect(runtimeProvides('@aws-sdk/client-sqs/dist-es/index.js')).toBe(true);
    expect(runtimeProvides('@aws-sdk')).toBe(false);
    expect(runtimeProvides('@smithy/types')).toBe(false);
    expect(runtimeProvides('aws-sdk')).toBe(false);
  });

  it('a package is a bare name that is no built-in; paths, URLs, # imports and built-ins are not', () => {
    for (const specifier of ['luxon', '@middy/core', 'mailparser/lib/x.js', '@aws-sdk/client-s3']) expect(isPackageSpecifier(specifier), specifier).toBe(true);
    for (const specifier of ['node:fs', 'fs', 'fs/promises', 'crypto', './x.mjs', '../y.js', '/abs/z.js', 'file:///a/b.mjs', '#lib/x.ts', 'data:text/javascript,1']) {
      expect(isPackageSpecifier(specifier), specifier).toBe(false);
    }
  });
});

describe('a bundle loaded with resolveAsLambdaRuntime, from a folder with no node_modules above it', () => {
  it('gets the AWS SDK from the project and does not get any other package, as in Lambda', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-bundle-resolve-'));
    try {
      writeFileSync(join(dir, 'sdk.mjs'), "import { SQSClient } from '@aws-sdk/client-sqs'; import { createHash } from 'crypto'; export const ok = typeof SQSClient + typeof createHash;");
      writeFileSync(join(dir, 'other.mjs'), "import { DateTime } from 'luxon'; export const ok = typeof DateTime;");
      const script = `
        const { resolveAsLambdaRuntime } = await import(${JSON.stringify(join(import.meta.dirname, '..', '..', '..', 'lib', 'local', 'runtime-modules.ts'))});
        resolveAsLambdaRuntime([${JSON.stringify(join(dir, 'sdk.mjs'))}, ${JSON.stringify(join(dir, 'other.mjs'))}]);
        const sdk = (await import(${JSON.stringify(pathToFileURL(join(dir, 'sdk.mjs')).href)})).ok;
        const other = await import(${JSON.stringify(pathToFileURL(join(dir, 'other.mjs')).href)}).then(() => 'loaded', (e) => e.code + ': ' + e.message);
        console.log(JSON.stringify({ sdk, other }));
      `;
      const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n').at(-1)!) as { sdk: string; other: string };
      expect(out.sdk).toBe('functionfunction');
      expect(out.other).toMatch(/^ERR_MODULE_NOT_FOUND: Cannot find package 'luxon' .*the Lambda runtime does not provide it$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
