// Bundle mode resolves a bundle's imports from outside itself as the Lambda runtime does (lib/local/runtime-modules.ts).
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
