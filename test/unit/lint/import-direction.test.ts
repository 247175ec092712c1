// The import-direction rule of eslint.config.js (docs/architecture.md, "Layers and the import rule"), run
// through ESLint's Node API on snippets placed in the folders it governs: each broken direction is refused,
// each allowed one passes.
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

interface UpwardException {
  readonly file: string;
  readonly imports: string;
  readonly reason: string;
}
// eslint.config.js is plain JavaScript (no types): its named exceptions are read as data.
const { UPWARD_EXCEPTIONS } = (await import(new URL('../../../eslint.config.js', import.meta.url).href)) as { UPWARD_EXCEPTIONS: readonly UpwardException[] };

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
}

describe('import directions', () => {
  // Loading the config and the TypeScript parser takes a while on a busy machine; do it once, up front.
  beforeAll(() => restrictedImports('lib/probe.ts', 'const x = 1;'), 60_000);

  it.each([
    ['a domain file using an AWS SDK', 'lib/teams/probe.ts', "import { x } from '@aws-sdk/lib-dynamodb';"],
    ['a lib/*.ts basic using an AWS SDK', 'lib/probe.ts', "import { x } from '@aws-sdk/client-sqs';"],
    ['the HTTP layer using an AWS SDK', 'lib/http/probe.ts', "import { x } from '@aws-sdk/lib-dynamodb';"],
    ['a Lambda handler using an AWS SDK', 'functions/probe.ts', "import { x } from '@aws-sdk/lib-dynamodb';"],
    ['lib/ importing infra/', 'lib/teams/probe.ts', "import { x } from '../../infra/data.ts';"],
    ['lib/ importing functions/', 'lib/local/probe.ts', "import { x } from '#functions/teams.ts';"],
    ['the HTTP layer importing infra/', 'lib/http/probe.ts', "import { x } from '#infra/data.ts';"],
    ['the storage adapter importing HTTP errors', 'lib/db/probe.ts', "import { x } from '../api-shapes/http-errors.ts';"],
    ['the storage adapter importing a domain folder', 'lib/db/probe.ts', "import { x } from '../people/user-store.ts';"],
    ['the queue adapter importing a domain folder', 'lib/queue/probe.ts', "import { x } from '#lib/ingest/webhook.ts';"],
    ['a domain service raising HTTP errors', 'lib/teams/probe.ts', "import { x } from '../api-shapes/http-errors.ts';"],
    ['a pure core reading storage', 'lib/schedule-engine/probe.ts', "import { x } from '../db/repository.ts';"],
    ['a pure core reading the clock', 'lib/escalation-engine/probe.ts', "import { x } from '../clock.ts';"],
    ['the routing resolver reading storage', 'lib/routing-engine/probe.ts', "import { x } from '../db/repository.ts';"],
    ['a domain service rendering responses', 'lib/people/probe.ts', "import { x } from '#lib/http/responses.ts';"],
    ['a lib/*.ts basic importing a folder', 'lib/probe.ts', "import { x } from './db/keys.ts';"],
    ['the configuration importing another engine file than its named exception', 'lib/config.ts', "import { x } from './escalation-engine/step.ts';"],
    ['a pure core importing a domain folder', 'lib/rule-engine/probe.ts', "import { x } from '../teams/schema.ts';"],
    ['the list engine reading storage', 'lib/list-engine/probe.ts', "import { x } from '../db/items.ts';"],
    ['delivery importing the alerts it sends about', 'lib/delivery/probe.ts', "import { x } from '../alerts/runner.ts';"],
    ['delivery importing broadcasts', 'lib/delivery/probe.ts', "import { x } from '#lib/broadcasts/service.ts';"],
    ['a channel adapter importing an owner', 'lib/channel-adapters/probe.ts', "import { x } from '../alerts/items.ts';"],
    ['a domain folder importing the composition module', 'lib/alerts/probe.ts', "import { x } from '../wiring/delivery-owners.ts';"],
    ['a domain folder importing the local runtime', 'lib/activity/probe.ts', "import { x } from '../local/terminal.ts';"],
    ['a new domain folder importing functions/', 'lib/newfolder/probe.ts', "import { x } from '#functions/timers.ts';"],
    ['a monitor reader reading storage', 'lib/monitor-readers/probe.ts', "import { x } from '../db/items.ts';"],
    ['a monitor reader creating alerts', 'lib/monitor-readers/probe.ts', "import { x } from '../alerts/create.ts';"],
    ['the composition module using the HTTP machinery', 'lib/wiring/probe.ts', "import { x } from '../http/responses.ts';"],
    ['the web console importing the local runtime', 'lib/console/probe.ts', "import { x } from '../local/gateway.ts';"],
    ['a Lambda handler importing the local runtime', 'functions/probe.ts', "import { x } from '#lib/local/gateway.ts';"],
    ['infrastructure importing the local runtime', 'infra/probe.ts', "import { x } from '../lib/local/start.ts';"],
  ])('refuses %s', async (_what, filePath, code) => {
    // One message per ban the import breaks (a pure core reading storage breaks two).
    expect(await restrictedImports(filePath, code)).toBeGreaterThan(0);
  });

  it.each([
    ['the storage adapter using the SDK', 'lib/db/probe.ts', "import { x } from '@aws-sdk/lib-dynamodb';"],
    ['the storage adapter using lib/*.ts basics', 'lib/db/probe.ts', "import { x } from '../errors.ts';"],
    ['the local runtime using the SDK', 'lib/local/probe.ts', "import { x } from '@aws-sdk/client-dynamodb';"],
    ['the operator CLI using the SDK', 'lib/admin/probe.ts', "import { x } from '@aws-sdk/client-dynamodb';"],
    ['infrastructure using the SDK', 'infra/probe.ts', "import { x } from '@aws-sdk/client-dynamodb';"],
    ['a domain service using domain errors', 'lib/teams/probe.ts', "import { x } from '../errors.ts';"],
    ['a domain service using storage', 'lib/teams/probe.ts', "import { x } from '../db/repository.ts';"],
    ['a pure core using another pure module', 'lib/rule-engine/probe.ts', "import { x } from '../time/zones.ts';"],
    ['a domain schema using the shared field schemas', 'lib/teams/probe.ts', "import { x } from '../api-shapes/schemas.ts';"],
    ['a pure core using another pure core', 'lib/routing-engine/probe.ts', "import { x } from '../rule-engine/index.ts';"],
    ['an owner using the delivery port', 'lib/alerts/probe.ts', "import { x } from '../delivery/port.ts';"],
    ['the composition module using owners and delivery', 'lib/wiring/probe.ts', "import { x } from '../alerts/message-owner.ts';"],
    ['a Lambda handler using the composition module', 'functions/probe.ts', "import { x } from '#lib/wiring/delivery-owners.ts';"],
    ['the web console using the HTTP machinery', 'lib/console/probe.ts', "import { x } from '../http/responses.ts';"],
    ['a monitor reader using a pure core', 'lib/monitor-readers/probe.ts', "import { x } from '../rule-engine/index.ts';"],
  ])('allows %s', async (_what, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toBe(0);
  });

  describe('named upward exceptions', () => {
    it('lets each listed file import its exception, with a reason', async () => {
      for (const { file, imports, reason } of UPWARD_EXCEPTIONS) {
        expect(reason.length).toBeGreaterThan(20);
        // A stale exception (the import is gone) must be removed from the list, so the count stays true.
        expect(readFileSync(file, 'utf8')).toContain(`from '${imports}'`);
        expect(await restrictedImports(file, `import { x } from '${imports}';`)).toBe(0);
      }
    });

    it('counts none, and the upward imports removed stay refused', async () => {
      expect(UPWARD_EXCEPTIONS).toHaveLength(0);
      // The last one, the entity types of the storage key builder in lib/ids.ts, is refused (the types are a basic now).
      expect(await restrictedImports('lib/ids.ts', "import { x } from './db/keys.ts';")).toBe(1);
      expect(await restrictedImports('lib/probe.ts', "import { x } from './db/keys.ts';")).toBe(1);
      // Gone, and refused if they came back: the engine reading the policy resource, the resolver the router resource,
      // the configuration the escalation engine.
      expect(await restrictedImports('lib/escalation-engine/destinations.ts', "import { x } from '../escalation-policies/layers.ts';")).toBe(1);
      expect(await restrictedImports('lib/escalation-engine/destinations.ts', "import type { x } from '../escalation-policies/schema.ts';")).toBe(1);
      expect(await restrictedImports('lib/routing-engine/router.ts', "import type { x } from '../routers/schema.ts';")).toBe(1);
      expect(await restrictedImports('lib/config.ts', "import { x } from './escalation-engine/timers.ts';")).toBe(1);
    });
  });
});
