import siftModule from 'sift';
import { linearRegexTest } from './regex.ts';

// sift is CommonJS: Node gives ES modules only its module.exports (the tester function, which also carries
// `default`), so named imports fail at run time and TypeScript types the default import as the namespace.
const createDefaultTester = siftModule.default;
const { createEqualsOperation } = siftModule;

export type SiftQuery = Parameters<typeof createDefaultTester>[0];
export type SiftOptions = NonNullable<Parameters<typeof createDefaultTester>[1]>;
export type OperationCreator = NonNullable<SiftOptions['operations']>[string];

/**
 * sift's own `$regex` builds a backtracking RegExp, which a pattern such as `^(a+)+$` stalls for minutes on a
 * 30-character title; this one runs on RE2, in time linear in the text (lib/rule-engine/regex.ts). Like sift's,
 * it matches strings only and takes its flags from the sibling `$options`.
 */
const linearRegex: OperationCreator = (pattern, ownerQuery, options) => {
  const test = linearRegexTest(pattern as string, (ownerQuery as Record<string, unknown> | null)?.$options);
  return createEqualsOperation((value: unknown) => typeof value === 'string' && test(value), ownerQuery, options);
};

/** A tester for `query` with sift's default operators (`$regex` on RE2) plus `extraOperations`. */
export function siftTester(query: unknown, extraOperations: Record<string, OperationCreator> = {}) {
  return createDefaultTester(query as SiftQuery, { operations: { $regex: linearRegex, ...extraOperations } });
}
