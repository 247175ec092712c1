// The import cycle check of `npm run lint` (.dependency-cruiser.cjs, docs/architecture.md "No import cycles"): the
// tree has none, and the same rules refuse a cycle, type-only imports included, in a throwaway tree.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as IConfiguration;

async function cycles(baseDir: string, folders: string[]): Promise<string[]> {
  const { options = {}, forbidden = [] } = config;
  const result = await cruise(folders, { ...options, tsConfig: undefined, baseDir, ruleSet: { forbidden }, validate: true } as never);
  const output = result.output as ICruiseResult;
  return output.summary.violations.filter((v) => v.rule.name === 'no-cycle').map((v) => v.from);
}

describe('import cycles', () => {
  it('finds none in lib/, functions/ and infra/', async () => {
    expect(await cycles(process.cwd(), ['lib', 'functions', 'infra'])).toEqual([]);
  }, 60_000);

  it('refuses a cycle, even when one side imports only a type', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-cycles-'));
    try {
      mkdirSync(join(dir, 'lib', 'delivery'), { recursive: true });
      mkdirSync(join(dir, 'lib', 'alerts'), { recursive: true });
      writeFileSync(join(dir, 'lib', 'delivery', 'act.ts'), "import { applyToAlert } from '../alerts/runner.ts';\nexport const act = () => applyToAlert();\n");
      writeFileSync(join(dir, 'lib', 'alerts', 'runner.ts'), "import type { act } from '../delivery/act.ts';\nexport const applyToAlert = (): ReturnType<typeof act> | void => undefined;\n");
      writeFileSync(join(dir, 'lib', 'alerts', 'alone.ts'), 'export const alone = 1;\n');
      const found = await cycles(dir, ['lib']);
      expect(found.length).toBeGreaterThan(0);
      for (const from of found) expect(['lib/alerts/runner.ts', 'lib/delivery/act.ts']).toContain(from);
      // Without the type-only import there is no cycle: that import alone made it.
      writeFileSync(join(dir, 'lib', 'alerts', 'runner.ts'), 'export const applyToAlert = (): void => undefined;\n');
      expect(await cycles(dir, ['lib'])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
