// docs/limits.md lists exactly the limits of lib/limits.ts, with the same values, units, scopes and reasons.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#lib/limits.ts';

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'limits.md'), 'utf8');

/** Rows of the page's table: `| name | value | unit | applies to | reason |`, header and rule excluded. */
function tableRows(): string[][] {
  return page
    .split('\n')
    .filter((line) => /^\| [A-Z][A-Z0-9_]+ \|/.test(line))
    .map((line) => line.slice(2, -2).split(' | '));
}

describe('docs/limits.md', () => {
  it('has one row per limit, in the module’s order, with its value, unit, scope and reason', () => {
    const expected = Object.entries(LIMITS).map(([name, limit]) => [name, limit.value.toLocaleString('en-US'), limit.unit, limit.applies, limit.reason]);
    expect(tableRows()).toEqual(expected);
  });

  it('gives every limit a positive value and a reason', () => {
    for (const [name, limit] of Object.entries(LIMITS)) {
      expect(limit.value, name).toBeGreaterThan(0);
      expect(limit.reason.length, name).toBeGreaterThan(10);
    }
  });
});
