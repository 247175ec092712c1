// The project explains itself: code and tests cite only the repository's own docs, and those docs' links
// lead somewhere (docs/decisions/README.md).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CODE_FOLDERS = ['lib', 'functions', 'infra', 'bench', 'test'];
const TEXT_FILE = /\.(ts|js|mjs|cjs|json|md|ya?ml|sh)$/;

function filesUnder(folder: string, accept: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (accept(path)) out.push(path);
    }
  };
  if (existsSync(folder)) walk(folder);
  return out.sort();
}

/** Names and places of documents that live outside the repository (the patterns are spelled so they do not match themselves). */
const OUTSIDE_DOCUMENTS: readonly RegExp[] = [
  /\bbehaviou?r\.md\b/i,
  /\binterface\.md\b/i,
  /\bdesign\.md\b/i,
  /\bshared\/(spec|reference)\b/i,
  /\/work\//,
  /§\s*\d/,
];

/** A markdown file a text names (`docs/rules.md`, `README.md`), with the section it quotes after it, if any. */
const CITED_MARKDOWN = /(?<![\w./-])((?:[\w-]+\/)*[\w.-]+\.md)\b(?:,\s*"([^"\n]+)")?/g;

const headingsOf = (markdown: string): string[] =>
  markdown
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
    .map((line) => line.replace(/^#{1,6}\s+/, '').replace(/`/g, '').trim());

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headingsOf(markdown)) {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Problems with the documents a code file cites: outside documents, missing docs, missing sections. */
export function citationProblems(text: string, exists: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const pattern of OUTSIDE_DOCUMENTS) {
      const m = pattern.exec(line);
      if (m) problems.push(`line ${i + 1} cites a document outside the repository: ${m[0]}`);
    }
    for (const m of line.matchAll(CITED_MARKDOWN)) {
      const [, path, section] = m as unknown as [string, string, string | undefined];
      if (OUTSIDE_DOCUMENTS.some((p) => p.test(path))) continue;
      const content = exists(path) ?? exists(`docs/${path}`);
      if (content === undefined) {
        problems.push(`line ${i + 1} cites ${path}, which is not in the repository`);
        continue;
      }
      const wanted = section?.toLowerCase();
      const titles = headingsOf(content).map((h) => h.replace(/^\d+(\.\d+)*\.?\s+/, '').toLowerCase());
      if (wanted && !titles.some((title) => title.startsWith(wanted))) {
        problems.push(`line ${i + 1} cites section "${section}" of ${path}, which has no such heading`);
      }
    }
  });
  return problems;
}

/** Relative links of a markdown file (`[text](target)`) whose file or heading does not exist. */
export function brokenLinks(markdown: string, fromDir: string, read: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  for (const m of withoutCode.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = m[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const content = file === '' ? markdown : read(join(fromDir, file).replace(/\/$/, ''));
    if (content === undefined) {
      problems.push(`${target}: no such file`);
      continue;
    }
    if (anchor && content !== '' && !anchorsOf(content).has(anchor)) problems.push(`${target}: no such heading`);
  }
  return problems;
}

/** Contents of a repository file ('' for a folder), or undefined when it does not exist. */
const readInRepo = (path: string): string | undefined => {
  const full = resolve(ROOT, path);
  if (!full.startsWith(ROOT) || !existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
};

describe('code and tests cite only the repository', () => {
  // This file spells bad citations on purpose, to show the check catches them.
  const self = fileURLToPath(import.meta.url);
  const files = CODE_FOLDERS.flatMap((folder) => filesUnder(join(ROOT, folder), (p) => TEXT_FILE.test(p) && p !== self));

  it('finds the files it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map((f) => relative(ROOT, f))).toContain('lib/ids.ts');
  });

  it('has no citation of a document outside the repository, of a missing doc or of a missing section', () => {
    const problems = files.flatMap((file) =>
      citationProblems(readFileSync(file, 'utf8'), readInRepo).map((p) => `${relative(ROOT, file)} ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('the check catches each kind of bad citation', () => {
    const exists = (path: string) => (path === 'docs/rules.md' ? '# Rules\n## Routers and rules\n## 5. Reading\n' : undefined);
    expect(citationProblems('// see docs/rules.md, "Routers"', exists)).toEqual([]);
    expect(citationProblems('// see docs/rules.md, "Reading"', exists)).toEqual([]);
    expect(citationProblems('// see rules.md', exists)).toEqual([]);
    const outside = ['behaviour', 'md'].join('.');
    const section = '\u00a74';
    expect(citationProblems(`// as in ${outside} ${section}`, exists)).toEqual([
      `line 1 cites a document outside the repository: ${outside}`,
      `line 1 cites a document outside the repository: ${section}`,
    ]);
    expect(citationProblems('/** x */\n// docs/alerts.md', exists)).toEqual(['line 2 cites docs/alerts.md, which is not in the repository']);
    expect(citationProblems('// docs/rules.md, "Escalation"', exists)).toEqual([
      'line 1 cites section "Escalation" of docs/rules.md, which has no such heading',
    ]);
  });
});

describe('docs links lead somewhere', () => {
  const pages = [...filesUnder(join(ROOT, 'docs'), (p) => p.endsWith('.md')), join(ROOT, 'README.md')];

  it('every relative link of docs/ and README.md names an existing file and heading', () => {
    const problems = pages.flatMap((page) =>
      brokenLinks(readFileSync(page, 'utf8'), relative(ROOT, dirname(page)), readInRepo).map((p) => `${relative(ROOT, page)}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('the check catches a missing file and a missing heading, and follows anchors', () => {
    const read = (path: string) =>
      ({ 'docs/a.md': '# A\n## The webhook: statuses\n## Two\n## Two\n', 'docs/decisions': '' } as Record<string, string>)[path];
    const page = '[ok](a.md#the-webhook-statuses) [dup](a.md#two-1) [here](#a) [dir](decisions/) [web](https://example.com) `[code](x.md)`\n# A';
    expect(brokenLinks(page, 'docs', read)).toEqual([]);
    expect(brokenLinks('[gone](b.md) [bad](a.md#three)', 'docs', read)).toEqual(['b.md: no such file', 'a.md#three: no such heading']);
  });

  it('every decision record is listed in the decisions index', () => {
    const index = readFileSync(join(ROOT, 'docs/decisions/README.md'), 'utf8');
    const records = readdirSync(join(ROOT, 'docs/decisions')).filter((name) => /^\d{4}-.+\.md$/.test(name));
    expect(records.length).toBeGreaterThanOrEqual(6);
    for (const record of records) expect(index).toContain(`(${record})`);
  });
});
