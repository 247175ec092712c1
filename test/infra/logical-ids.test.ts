// A deployed stack must update in place (docs/deploy.md, "Updating"): CloudFormation replaces a resource whose logical
// id or type changes. test/infra/logical-ids.json lists, by reason, the resources whose replacement would lose data
// (the table, the queues and dead-letter queues, the provider secret, the inbound-mail bucket), break what points at
// them from outside (the HTTP API and its $default stage: every monitor's webhook URL and every signed link; the alarm
// topic's subscriptions; the receipt rule set SES was told to make active), or fail the update (a route re-created
// under another logical id, and the nested stack of routes: docs/decisions/0031-api-routes-in-a-nested-stack.md).
// Entries may be added, never renamed or dropped; a deliberate change updates the list in the same commit, saying why.
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVERY_OPTION } from '../../infra/template-lint.ts';
import { synthHark } from './harness.ts';

const kept: Record<string, string[]> = JSON.parse(readFileSync(new URL('./logical-ids.json', import.meta.url), 'utf8'));

describe('logical ids', () => {
  it('keeps every stateful, addressable and route-keyed resource under its logical id and type, with every option set', () => {
    const synth = synthHark({ settings: EVERY_OPTION });
    try {
      const now = new Set(Object.entries(synth.json.Resources).map(([id, resource]) => `${id} ${resource.Type}`));
      const all = Object.values(kept).flat();
      expect(all.length).toBeGreaterThan(15);
      expect(all.filter((entry) => !now.has(entry))).toEqual([]);
    } finally {
      rmSync(synth.outdir, { recursive: true, force: true });
    }
  });
});
