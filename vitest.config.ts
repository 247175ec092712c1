import { defineConfig } from 'vitest/config';

// Coverage covers the pure cores (schedule engine, rule engines, routing resolver, list engine) and is enforced by
// `npm run test:coverage` (unit project only, part of `npm test`). Thresholds sit a little under what the unit
// tests reach, so a change that drops tested behaviour fails the build.
export default defineConfig({
  test: {
    // Two files at once even on two cores (Vitest's default there is one): integration files spend most of their time
    // waiting on DynamoDB Local, queues and scaled timers, so a second file fills the wait (docs/testing.md).
    maxWorkers: 2,
    coverage: {
      provider: 'v8',
      include: ['lib/schedule-engine/**/*.ts', 'lib/rule-engine/**/*.ts', 'lib/routing-engine/**/*.ts', 'lib/list-engine/**/*.ts'],
      // Barrels only re-export.
      exclude: ['**/index.ts'],
      reporter: ['text-summary'],
      thresholds: { statements: 96, branches: 93, functions: 96, lines: 97 },
    },
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 300_000 } },
    ],
  },
});
