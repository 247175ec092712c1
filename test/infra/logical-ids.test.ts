// A deployed stack must not be replaced by a change of code layout: every resource the stack had keeps its logical
// id and type (CloudFormation replaces a resource whose logical id changes, and a table or queue replaced is data
// lost). test/infra/logical-ids.json lists them as the stack synthesized before the layering work of
// docs/decisions/0014–0018; resources may be added, never renamed or dropped. Run `npm test` after a deliberate
// change and update the list in the same commit, saying why in its message.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { synthHark } from './harness.ts';

const kept: string[] = JSON.parse(readFileSync(new URL('./logical-ids.json', import.meta.url), 'utf8'));

describe('logical ids', () => {
  it('keeps every resource of the earlier stack under the same logical id and type', () => {
    const { json } = synthHark();
    const now = new Set(Object.entries(json.Resources).map(([id, resource]) => `${id} ${resource.Type}`));
    expect(kept.length).toBeGreaterThan(300);
    expect(kept.filter((entry) => !now.has(entry))).toEqual([]);
  });
});
