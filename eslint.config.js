import { posix, relative, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { rankOf, roomOf } from './folder-order.js';

// Dependencies point one way (docs/architecture.md, "Layers and the import rule"), bottom to top: the lib/*.ts
// basics; pure cores and adapters; domain folders; the composition module lib/wiring; transport (functions/,
// lib/http, lib/console); the runtimes (lib/local, lib/admin) and infra/. Each group of files below gets one
// `no-restricted-imports` setting holding every ban that applies to it (a later setting of the same rule
// replaces an earlier one for a file, it does not add to it). Above the bans, one rule for every file:
// `hark/one-direction`, a room (a first-level folder of lib/, a lib/*.ts file, functions/, infra/) imports only rooms
// below it in folder-order.js (decision 0034). Import cycles are checked by dependency-cruiser (.dependency-cruiser.cjs,
// `npm run lint:cycles`), which also holds one rule per room built from the same list.

/** Adapter folders, the local runtime and the operator CLI: the only code that speaks AWS SDKs. */
const SDK_FOLDERS = ['lib/db/**', 'lib/queue/**', 'lib/channel-adapters/**', 'lib/local/**', 'lib/admin/**'];
const ADAPTERS = ['lib/db/**', 'lib/queue/**', 'lib/channel-adapters/**'];
const RUNTIME = ['lib/local/**', 'lib/admin/**'];
/** Pure cores: rules over plain values, the time an argument. */
const CORES = ['lib/time/**', 'lib/schedule-engine/**', 'lib/rule-engine/**', 'lib/escalation-engine/**', 'lib/routing-engine/**', 'lib/list-engine/**'];
/** Transport besides functions/: the handler machinery and the web console's pages. */
const TRANSPORT = ['lib/http/**', 'lib/console/**'];

/**
 * Imports that run up the layer order and are kept, each with its reason. `npm run lint` counts them; the bans
 * below let exactly these through (test/unit/lint/import-direction.test.ts checks each one still exists).
 */
export const UPWARD_EXCEPTIONS = [];
/** A ban that lets one file's listed exceptions through (gitignore-style negations). */
const except = (ban, file) => {
  const allowed = UPWARD_EXCEPTIONS.filter((e) => e.file === file).map((e) => `!${e.imports}`);
  return { ...ban, group: [...ban.group, ...allowed] };
};

const BANS = {
  sdk: { group: ['@aws-sdk/*'], message: 'Only lib/db, lib/queue, lib/channel-adapters, lib/local and lib/admin use AWS SDKs: call a lib/db or lib/queue function.' },
  outward: {
    group: ['**/infra/**', '\\#infra/*', '**/functions/**', '\\#functions/*'],
    message: 'lib/ does not import infra/ or functions/: what both need lives under lib/.',
  },
  transport: {
    group: [
      '**/http-errors.ts',
      '\\#lib/api-shapes/http-errors.ts',
      '**/http/responses.ts',
      '\\#lib/http/responses.ts',
      '**/http/handler.ts',
      '\\#lib/http/handler.ts',
      '**/http/routes.ts',
      '\\#lib/http/routes.ts',
      '**/http/list*.ts',
      '\\#lib/http/list*.ts',
      '**/api-shapes/body.ts',
      '\\#lib/api-shapes/body.ts',
    ],
    message: 'Domain code raises lib/errors.ts errors and does not use the HTTP machinery (nor the status error and body reader of lib/api-shapes); lib/http/responses.ts maps errors to statuses.',
  },
  impure: {
    group: ['../db/**', '../http/**', '../queue/**', '../clock.ts', '../config.ts', '\\#lib/db/**', '\\#lib/http/**', '\\#lib/queue/**', '\\#lib/clock.ts', '\\#lib/config.ts'],
    message: 'Pure cores (schedule, rule and escalation engines, the routing resolver) use neither storage, queues, transport, configuration nor the clock: the time is an argument.',
  },
  upward: {
    group: ['../*/**', '\\#lib/*/**', '\\#functions/*', '\\#infra/*'],
    message: 'Adapters (lib/db, lib/queue, lib/channel-adapters) import only their own folder and lib/*.ts basics (config, clock, ids, errors), never lib/http or a domain folder.',
  },  basics: {
    group: ['./*/**', '\\#lib/*/**', '\\#functions/*', '\\#infra/*'],
    message: 'The lib/*.ts basics (config, clock, ids, errors, limits, logger) import only each other: every folder may use them, so they use no folder.',
  },
  cores: {
    group: [
      '../*/**',
      '!../time/**',
      '!../schedule-engine/**',
      '!../rule-engine/**',
      '!../escalation-engine/**',
      '!../routing-engine/**',
      '!../list-engine/**',
      '\\#lib/*/**',
      '!\\#lib/time/**',
      '!\\#lib/schedule-engine/**',
      '!\\#lib/rule-engine/**',
      '!\\#lib/escalation-engine/**',
      '!\\#lib/routing-engine/**',
      '!\\#lib/list-engine/**',
    ],
    message: 'Pure cores (lib/time, the schedule, rule and escalation engines, the routing resolver, the list engine) import only lib/*.ts basics and other pure cores, never a domain folder.',
  },
  wiring: {
    group: ['**/wiring/**', '\\#lib/wiring/**'],
    message: 'lib/wiring is the composition module: only functions/ and the runtimes import it; the code it wires gets what it needs as a parameter.',
  },
  runtime: {
    group: ['**/local/**', '\\#lib/local/**', '**/admin/**', '\\#lib/admin/**'],
    message: 'lib/local (npm start) and lib/admin (the operator CLI) are the top layer: nothing else imports them.',
  },
  owners: {
    group: ['**/alerts/**', '\\#lib/alerts/**', '**/broadcasts/**', '\\#lib/broadcasts/**'],
    message: 'Delivery (lib/delivery, lib/channel-adapters) knows no owner of a message: an owner implements DeliveryOwner (lib/delivery/port.ts), registered in lib/wiring/delivery-owners.ts.',
  },
  readers: {
    group: [
      ...['db/**', 'queue/**', 'clock.ts', 'alerts/**'].flatMap((p) => [`../${p}`, `../../${p}`]),
      ...['db/**', 'queue/**', 'clock.ts', 'alerts/**'].map((p) => `\\#lib/${p}`),
    ],
    message: 'A monitor reader turns a request into a reading: no storage, queue, clock or alert (lib/ingest/apply.ts does those).',
  },
};
const ALIASES = [['#lib/', 'lib/'], ['#functions/', 'functions/'], ['#infra/', 'infra/']];
/** The repo-relative path an import specifier of `file` names; undefined for a package. */
function importedPath(file, specifier) {
  for (const [alias, folder] of ALIASES) if (specifier.startsWith(alias)) return folder + specifier.slice(alias.length);
  if (specifier.startsWith('./') || specifier.startsWith('../')) return posix.normalize(posix.join(posix.dirname(file), specifier));
  return undefined;
}

/** `hark/one-direction`: an import from a room to a room above it in folder-order.js fails, and so does a room the list does not name. */
const oneDirection = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      upward: '{{from}} may not import {{to}}, which is above it in folder-order.js: move what both need below both, or pass it through a port (docs/architecture.md, "Layers and the import rule").',
      unlisted: '{{room}} is not in folder-order.js: give the room its place in ROOMS (and its line in docs/architecture.md).',
    },
  },
  create(context) {
    const file = relative(context.cwd, context.filename).split(sep).join('/');
    const from = roomOf(file);
    if (from === undefined) return {};
    const check = (node) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
      const path = importedPath(file, node.value);
      const to = path === undefined ? undefined : roomOf(path);
      if (to === undefined || to === from) return;
      for (const room of [from, to]) if (rankOf(room) < 0) return context.report({ node, messageId: 'unlisted', data: { room } });
      if (rankOf(to) < rankOf(from)) context.report({ node, messageId: 'upward', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
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
  // Domain folders (every lib/ folder not named below, new ones included).
  { files: ['lib/**/*.ts'], ignores: [...SDK_FOLDERS, ...TRANSPORT, 'lib/wiring/**'], rules: restrict(BANS.sdk, BANS.outward, BANS.transport, BANS.wiring, BANS.runtime) },
  { files: ['lib/*.ts'], rules: restrict(BANS.sdk, BANS.outward, BANS.transport, BANS.basics) },
  { files: CORES.map((f) => `${f}/*.ts`), rules: restrict(BANS.sdk, BANS.outward, BANS.transport, BANS.impure, BANS.cores) },
  { files: ['lib/delivery/**/*.ts'], rules: restrict(BANS.sdk, BANS.outward, BANS.transport, BANS.wiring, BANS.runtime, BANS.owners) },
  { files: ['lib/monitor-readers/**/*.ts'], rules: restrict(BANS.sdk, BANS.outward, BANS.transport, BANS.wiring, BANS.runtime, BANS.readers) },
  // The webhook's intakes answer HTTP themselves (405 for a disabled integration, 413, 503 with Retry-After; PagerDuty's
  // 400s). The body reader sits beside the status error it raises (both below the domains, for those intakes).
  { files: ['lib/ingest/intake.ts', 'lib/ingest/pagerduty-intake.ts', 'lib/ingest/opsgenie/intake.ts', 'lib/api-shapes/body.ts'], rules: restrict(BANS.sdk, BANS.outward, BANS.wiring, BANS.runtime) },
  // The composition module: domain and below, never transport or the runtimes.
  { files: ['lib/wiring/**/*.ts'], rules: restrict(BANS.sdk, BANS.outward, BANS.transport, BANS.runtime) },
  { files: TRANSPORT.map((f) => `${f}/*.ts`), rules: restrict(BANS.sdk, BANS.outward, BANS.wiring, BANS.runtime) },
  { files: ADAPTERS.map((f) => `${f}/*.ts`), rules: restrict(BANS.upward) },
  { files: ['lib/channel-adapters/**/*.ts'], rules: restrict(BANS.upward, BANS.owners) },
  { files: RUNTIME.map((f) => `${f}/*.ts`), rules: restrict(BANS.outward) },
  { files: ['functions/**/*.ts'], rules: restrict(BANS.sdk, BANS.runtime) },
  { files: ['infra/**/*.ts'], rules: restrict(BANS.runtime) },
  // The upward imports kept (UPWARD_EXCEPTIONS, none today) would get a setting here: the same bans as the file's
  // group, with its exceptions let through by `except`.
  ...UPWARD_EXCEPTIONS.map(({ file }) => ({ files: [file], rules: restrict(BANS.sdk, BANS.outward, BANS.transport, except(BANS.basics, file)) })),
  // One direction between rooms (folder-order.js), for every import of lib/, functions/ and infra/, type-only ones included.
  { files: ['lib/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts'], plugins: { hark: { rules: { 'one-direction': oneDirection } } }, rules: { 'hark/one-direction': 'error' } },
);
