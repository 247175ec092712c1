// One direction between rooms (folder-order.js, docs/architecture.md "Layers and the import rule", decision 0034): the
// list names every room of the tree once; the tree has no import up the list; and both checks that read the list,
// eslint's `hark/one-direction` and dependency-cruiser's rules, refuse a planted upward import.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

interface Room {
  readonly room: string;
  readonly layer: string;
}
// folder-order.js is plain JavaScript (eslint.config.js and .dependency-cruiser.cjs read it too): its list is read as data.
const { ROOMS, LAYERS, roomOf } = (await import(new URL('../../../folder-order.js', import.meta.url).href)) as {
  ROOMS: readonly Room[];
  LAYERS: readonly string[];
  roomOf: (path: string) => string | undefined;
};
const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as IConfiguration;

async function violations(baseDir: string, folders: string[]): Promise<{ rule: string; from: string; to: string }[]> {
  const { options = {}, forbidden = [] } = config;
  const result = await cruise(folders, { ...options, tsConfig: undefined, baseDir, ruleSet: { forbidden }, validate: true } as never);
  return (result.output as ICruiseResult).summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

/** The rooms of a checkout: each first-level folder of lib/ with files, each lib/*.ts file, functions and infra. */
function treeRooms(root: string): string[] {
  const lib = readdirSync(join(root, 'lib')).filter((name) => !name.startsWith('.'));
  return [
    ...lib.filter((name) => statSync(join(root, 'lib', name)).isDirectory()).map((name) => `lib/${name}`),
    ...lib.filter((name) => name.endsWith('.ts')).map((name) => `lib/${name}`),
    'functions',
    'infra',
  ].sort();
}

describe('the order of rooms (folder-order.js)', () => {
  it('names every room of the tree once, and only those', () => {
    const listed = ROOMS.map((r) => r.room);
    expect([...listed].sort()).toEqual(treeRooms(process.cwd()));
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('keeps the layers in their order, top first', () => {
    const ranks = ROOMS.map((r) => LAYERS.indexOf(r.layer));
    expect(ranks.every((rank) => rank >= 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('maps a path to its room: nested folders belong to their first-level folder', () => {
    expect(roomOf('lib/ingest/heartbeat/state.ts')).toBe('lib/ingest');
    expect(roomOf('lib/ids.ts')).toBe('lib/ids.ts');
    expect(roomOf('functions/alerts.ts')).toBe('functions');
    expect(roomOf('infra/stack.ts')).toBe('infra');
    expect(roomOf('test/unit/x.test.ts')).toBeUndefined();
  });

  it('finds no import up the list and no cycle in lib/, functions/ and infra/', async () => {
    expect(await violations(process.cwd(), ['lib', 'functions', 'infra'])).toEqual([]);
  }, 120_000);

  it('refuses a planted upward import, even a type-only one, where the downward one passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-rooms-'));
    try {
      mkdirSync(join(dir, 'lib', 'people'), { recursive: true });
      mkdirSync(join(dir, 'lib', 'alerts'), { recursive: true });
      writeFileSync(join(dir, 'lib', 'alerts', 'store.ts'), "import { person } from '../people/read.ts';\nexport const alert = person;\n");
      writeFileSync(join(dir, 'lib', 'people', 'read.ts'), 'export const person = 1;\n');
      expect(await violations(dir, ['lib'])).toEqual([]);
      // people sits below alerts: an import back up is refused by the rule of its room, even for a type.
      writeFileSync(join(dir, 'lib', 'people', 'read.ts'), "import type { alert } from '../alerts/other.ts';\nexport const person: typeof alert | 1 = 1;\n");
      writeFileSync(join(dir, 'lib', 'alerts', 'other.ts'), 'export const alert = 2;\n');
      expect(await violations(dir, ['lib'])).toEqual([{ rule: 'one-direction:lib/people', from: 'lib/people/read.ts', to: 'lib/alerts/other.ts' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('hark/one-direction (eslint)', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const messages = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
    return result!.messages.filter((m) => m.ruleId === 'hark/one-direction').map((m) => m.message);
  };
  // Loading the config and the TypeScript parser takes a while on a busy machine; do it once, up front.
  beforeAll(() => messages('lib/probe.ts', 'const x = 1;'), 60_000);

  it.each([
    ['a domain folder importing one above it', 'lib/people/probe.ts', "import { x } from '../alerts/store.ts';", 'lib/people may not import lib/alerts'],
    ['the same through the #lib alias, type only', 'lib/people/probe.ts', "import type { x } from '#lib/alerts/store.ts';", 'lib/people may not import lib/alerts'],
    ['a dynamic import', 'lib/comments/probe.ts', "const { x } = await import('../alerts/comments.ts');", 'lib/comments may not import lib/alerts'],
    ['a re-export', 'lib/webhooks/probe.ts', "export { x } from '../alerts/webhook-events.ts';", 'lib/webhooks may not import lib/alerts'],
    ['a domain folder importing the transport', 'lib/teams/probe.ts', "import { x } from '../http/handler.ts';", 'lib/teams may not import lib/http'],
    ['the resource importing ingest', 'lib/integrations/probe.ts', "import { x } from '../ingest/monitor-state.ts';", 'lib/integrations may not import lib/ingest'],
    ['a nested folder, as its parent', 'lib/ingest/heartbeat/probe.ts', "import { x } from '../../gap-check/check.ts';", 'lib/ingest may not import lib/gap-check'],
    ['a basic importing storage', 'lib/ids.ts', "import type { x } from './db/keys.ts';", 'lib/ids.ts may not import lib/db'],
    ['a folder the list does not name', 'lib/newroom/probe.ts', "import { x } from '../people/read.ts';", 'lib/newroom is not in folder-order.js'],
  ])('refuses %s', async (_what, filePath, code, message) => {
    const found = await messages(filePath, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(message);
  });

  it.each([
    ['a domain folder importing one below it', 'lib/alerts/probe.ts', "import { x } from '../people/read.ts';"],
    ['the transport importing a domain folder', 'lib/http/probe.ts', "import { x } from '../alerts/schema.ts';"],
    ['ingest importing the resource', 'lib/ingest/probe.ts', "import { x } from '../integrations/type-state.ts';"],
    ['a file of the same room', 'lib/alerts/probe.ts', "import { x } from './store.ts';"],
    ['a package', 'lib/alerts/probe.ts', "import { x } from 'zod';"],
  ])('allows %s', async (_what, filePath, code) => {
    expect(await messages(filePath, code)).toEqual([]);
  });
});
