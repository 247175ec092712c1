// docs/architecture.md, "Every folder, in layer order", lists every folder of the code with what it holds; this test
// keeps the list equal to the tree, naming each folder missing from either (decision 0018).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// folder-order.js is plain JavaScript (eslint.config.js and .dependency-cruiser.cjs read it too): its list is read as data.
const { ROOMS } = (await import(new URL('../../../folder-order.js', import.meta.url).href)) as { ROOMS: readonly { room: string; layer: string }[] };
const SECTION = 'Every folder, in layer order';
/** Walked at every depth; `lib` itself holds the basics and is not a line of the list, the others are. */
const CODE_ROOTS = ['lib', 'functions', 'infra', 'bench'];
/** Only its groups (first level) are listed: test/unit mirrors lib/. */
const TEST_ROOT = 'test';

/** The folders the section lists: each list item's first code span ending in `/`, with the text after it. */
export function listedFolders(markdown: string, heading: string): { folder: string; holds: string }[] | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#{2,6}\s/.test(line) && line.replace(/^#+\s+/, '').trim() === heading);
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^#{1,6}\s/.test(line));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .flatMap((line) => {
      const [, folder, rest] = /^- `([^`]+\/)`(.*)$/.exec(line) ?? [];
      return folder === undefined ? [] : [{ folder, holds: (rest ?? '').replace(/^\s*[—-]\s*/, '').trim() }];
    });
}

const hasFiles = (dir: string): boolean =>
  readdirSync(dir).some((name) => {
    if (name.startsWith('.') || name === 'node_modules') return false;
    const path = join(dir, name);
    return statSync(path).isDirectory() ? hasFiles(path) : true;
  });

const subfolders = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => !name.startsWith('.') && name !== 'node_modules')
    .filter((name) => statSync(join(dir, name)).isDirectory() && hasFiles(join(dir, name)));

/** The folders of a checkout that the list must name (empty folders, which git does not keep, excepted). */
export function treeFolders(root: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const name of subfolders(join(root, relative))) {
      out.push(`${relative}/${name}/`);
      walk(`${relative}/${name}`);
    }
  };
  for (const top of CODE_ROOTS) {
    try {
      if (!statSync(join(root, top)).isDirectory()) continue;
    } catch {
      continue;
    }
    if (top !== 'lib') out.push(`${top}/`);
    walk(top);
  }
  try {
    for (const name of subfolders(join(root, TEST_ROOT))) out.push(`${TEST_ROOT}/${name}/`);
  } catch {
    // no test folder: nothing to list
  }
  return out.sort();
}

/** Every way the list and the tree differ, one message naming the folder each. */
export function folderListProblems(listed: { folder: string; holds: string }[], tree: string[]): string[] {
  const names = listed.map((entry) => entry.folder);
  const inTree = new Set(tree);
  const inList = new Set(names);
  return [
    ...tree.filter((folder) => !inList.has(folder)).map((folder) => `${folder} is a folder but is not listed`),
    ...names.filter((folder) => !inTree.has(folder)).map((folder) => `${folder} is listed but is not a folder`),
    ...names.filter((folder, i) => names.indexOf(folder) !== i).map((folder) => `${folder} is listed twice`),
    ...listed.filter((entry) => entry.holds === '').map((entry) => `${entry.folder} is listed without what it holds`),
  ];
}

describe('the folder list of docs/architecture.md', () => {
  it('names every folder of the tree, and only those, each with what it holds', () => {
    const listed = listedFolders(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'), SECTION);
    expect(listed, `docs/architecture.md has no section "${SECTION}"`).toBeDefined();
    expect(folderListProblems(listed!, treeFolders(ROOT))).toEqual([]);
  });

  it('lists the folders in layer order: runtimes, transport, composition, domain, cores and adapters', () => {
    const listed = listedFolders(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'), SECTION)!.map((e) => e.folder);
    const at = (folder: string) => listed.indexOf(folder);
    expect(at('lib/local/')).toBeLessThan(at('functions/'));
    expect(at('lib/http/')).toBeLessThan(at('lib/wiring/'));
    expect(at('lib/wiring/')).toBeLessThan(at('lib/alerts/'));
    expect(at('lib/alerts/')).toBeLessThan(at('lib/schedule-engine/'));
    expect(at('lib/schedule-engine/')).toBeLessThan(at('lib/db/'));
  });

  it('lists the rooms in the order of folder-order.js, the domain ordered inside', () => {
    const listed = listedFolders(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'), SECTION)!.map((e) => e.folder.replace(/\/$/, ''));
    const rooms = ROOMS.map((r) => r.room).filter((room) => !room.endsWith('.ts'));
    expect(listed.filter((folder) => rooms.includes(folder))).toEqual(rooms);
  });
});

describe('comparing a list with a tree', () => {
  const root = mkdtempSync(join(tmpdir(), 'hark-folders-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const file = (path: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
  };

  it('walks lib/, functions/, infra/ and bench/ at every depth and test/ one level, skipping empty folders', () => {
    file('lib/config.ts');
    file('lib/alerts/create.ts');
    file('lib/ingest/readers/grafana.ts');
    file('functions/alerts.ts');
    file('test/unit/alerts/create.test.ts');
    file('test/support/sns.ts');
    mkdirSync(join(root, 'lib/escalation'), { recursive: true });
    mkdirSync(join(root, 'lib/.hidden'), { recursive: true });
    file('lib/.hidden/x.ts');
    expect(treeFolders(root)).toEqual(['functions/', 'lib/alerts/', 'lib/ingest/', 'lib/ingest/readers/', 'test/support/', 'test/unit/']);
  });

  it('reads the section only, one item per folder with the text after it', () => {
    const markdown = [
      '## Folders',
      '- `lib/outside/` — not in the section',
      '### Every folder, in layer order',
      'Runtimes:',
      '- `lib/local/` — `npm start`.',
      '- `lib/*.ts` is not a folder',
      '- `lib/bare/`',
      '## Next',
      '- `lib/after/` — after the section',
    ].join('\n');
    expect(listedFolders(markdown, SECTION)).toEqual([
      { folder: 'lib/local/', holds: '`npm start`.' },
      { folder: 'lib/bare/', holds: '' },
    ]);
    expect(listedFolders('## Other\n- `lib/a/` — a', SECTION)).toBeUndefined();
  });

  it('names each folder missing from the list, each listed folder missing from the tree, repeats and bare lines', () => {
    const listed = [
      { folder: 'lib/alerts/', holds: 'the alert resource' },
      { folder: 'lib/routing/', holds: 'the resolver, under its old name' },
      { folder: 'lib/alerts/', holds: 'again' },
      { folder: 'lib/teams/', holds: '' },
    ];
    expect(folderListProblems(listed, ['lib/alerts/', 'lib/routing-engine/', 'lib/teams/'])).toEqual([
      'lib/routing-engine/ is a folder but is not listed',
      'lib/routing/ is listed but is not a folder',
      'lib/alerts/ is listed twice',
      'lib/teams/ is listed without what it holds',
    ]);
  });
});
