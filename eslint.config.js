import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Dependencies point one way (docs/architecture.md, "Layers and the import rule"):
// functions/ (transport) → lib/<domain> → lib/db, lib/queue (adapters). Each group of files below gets one
// `no-restricted-imports` setting holding every ban that applies to it (a later setting of the same rule
// replaces an earlier one for a file, it does not add to it).

/** Adapter folders, the local runtime and the operator CLI: the only code that speaks AWS SDKs. */
const SDK_FOLDERS = ['lib/db/**', 'lib/queue/**', 'lib/notify/**', 'lib/local/**', 'lib/admin/**'];
const ADAPTERS = ['lib/db/**', 'lib/queue/**', 'lib/notify/**'];
const RUNTIME = ['lib/local/**', 'lib/admin/**'];

const BANS = {
  sdk: { group: ['@aws-sdk/*'], message: 'Only lib/db, lib/queue, lib/notify, lib/local and lib/admin use AWS SDKs: call a lib/db or lib/queue function.' },
  outward: {
    group: ['**/infra/**', '\\#infra/*', '**/functions/**', '\\#functions/*'],
    message: 'lib/ does not import infra/ or functions/: what both need lives under lib/.',
  },
  transport: {
    group: [
      '**/http/errors.ts',
      '\\#lib/http/errors.ts',
      '**/http/responses.ts',
      '\\#lib/http/responses.ts',
      '**/http/handler.ts',
      '\\#lib/http/handler.ts',
      '**/http/routes.ts',
      '\\#lib/http/routes.ts',
      '**/http/list*.ts',
      '\\#lib/http/list*.ts',
      '**/http/body.ts',
      '\\#lib/http/body.ts',
    ],
    message: 'Domain code raises lib/errors.ts errors and does not use the HTTP machinery; lib/http/responses.ts maps errors to statuses.',
  },
  impure: {
    group: ['../db/**', '../http/**', '../queue/**', '../clock.ts', '../config.ts', '\\#lib/db/**', '\\#lib/http/**', '\\#lib/queue/**', '\\#lib/clock.ts', '\\#lib/config.ts'],
    message: 'Pure cores (schedule, rule and escalation engines, the routing resolver) use neither storage, queues, transport, configuration nor the clock: the time is an argument.',
  },
  upward: {
    group: ['../*/**', '\\#lib/*/**', '\\#functions/*', '\\#infra/*'],
    message: 'Adapters (lib/db, lib/queue, lib/notify) import only their own folder and lib/*.ts basics (config, clock, ids, errors), never lib/http or a domain folder.',
  },
};
const restrict = (...bans) => ({ 'no-restricted-imports': ['error', { patterns: bans }] });

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', '.test-data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Tests read JSON replies of the API; typing every reply body would only restate the assertions.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Domain folders and the lib/*.ts basics.
  { files: ['lib/**/*.ts'], ignores: [...SDK_FOLDERS, 'lib/http/**'], rules: restrict(BANS.sdk, BANS.outward, BANS.transport) },
  // The webhook's intake answers HTTP itself (405 for a disabled integration, 413, 503 with Retry-After).
  { files: ['lib/schedule-engine/**/*.ts', 'lib/rule-engine/**/*.ts', 'lib/escalation-engine/**/*.ts', 'lib/routing/**/*.ts'], rules: restrict(BANS.sdk, BANS.outward, BANS.transport, BANS.impure) },
  { files: ['lib/integrations/intake.ts'], rules: restrict(BANS.sdk, BANS.outward) },
  { files: ['lib/http/**/*.ts'], rules: restrict(BANS.sdk, BANS.outward) },
  { files: ADAPTERS.map((f) => `${f}/*.ts`), rules: restrict(BANS.upward) },
  { files: RUNTIME.map((f) => `${f}/*.ts`), rules: restrict(BANS.outward) },
  { files: ['functions/**/*.ts'], rules: restrict(BANS.sdk) },
);
