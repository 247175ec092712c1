// The import-direction rule of eslint.config.js (docs/architecture.md, "Layers and the import rule"), run
// through ESLint's Node API on snippets placed in the folders it governs: each broken direction is refused,
// each allowed one passes.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

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
    ['the storage adapter importing HTTP errors', 'lib/db/probe.ts', "import { x } from '../http/errors.ts';"],
    ['the storage adapter importing a domain folder', 'lib/db/probe.ts', "import { x } from '../people/user-store.ts';"],
    ['the queue adapter importing a domain folder', 'lib/queue/probe.ts', "import { x } from '#lib/ingest/webhook.ts';"],
    ['a domain service raising HTTP errors', 'lib/teams/probe.ts', "import { x } from '../http/errors.ts';"],
    ['a pure core reading storage', 'lib/schedule-engine/probe.ts', "import { x } from '../db/repository.ts';"],
    ['a pure core reading the clock', 'lib/escalation-engine/probe.ts', "import { x } from '../clock.ts';"],
    ['the routing resolver reading storage', 'lib/routing/probe.ts', "import { x } from '../db/repository.ts';"],
    ['a domain service rendering responses', 'lib/people/probe.ts', "import { x } from '#lib/http/responses.ts';"],
  ])('refuses %s', async (_what, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toBe(1);
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
    ['a domain schema using the shared field schemas', 'lib/teams/probe.ts', "import { x } from '../http/schemas.ts';"],
  ])('allows %s', async (_what, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toBe(0);
  });
});
