import siftModule from 'sift';

// sift is CommonJS: Node gives ES modules only its module.exports (the tester function, which also carries
// `default`), so named imports fail at run time and TypeScript types the default import as the namespace.
const createDefaultTester = siftModule.default;

export type SiftQuery = Parameters<typeof createDefaultTester>[0];
export type SiftOptions = NonNullable<Parameters<typeof createDefaultTester>[1]>;
export type OperationCreator = NonNullable<SiftOptions['operations']>[string];

/** A tester for `query` with sift's default operators plus `extraOperations`. */
export function siftTester(query: unknown, extraOperations: Record<string, OperationCreator> = {}) {
  return createDefaultTester(query as SiftQuery, { operations: extraOperations });
}
