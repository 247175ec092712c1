// The configuration cache of a create (lib/db/config-cache.ts): expiry on a fake clock, the size bound, and which
// writes forget what — configuration kinds forget their account, a person forgets every account, and what creates and
// deliveries write themselves (alerts, logs, timers, counters, outbox messages) forgets nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_KINDS, ConfigCache, scopeOfKey, writtenKeys } from '#lib/db/config-cache.ts';
import { documentClient } from '#lib/db/client.ts';

const A = '01JACCOUNTAAAAAAAAAAAAAAAA';
const B = '01JACCOUNTBBBBBBBBBBBBBBBB';

function setup(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let now = 1_000_000;
  const cache = new ConfigCache({ ttlMs: options.ttlMs ?? 1000, maxEntries: options.maxEntries ?? 100, now: () => now });
  let loads = 0;
  const read = (accountId: string, what: string) =>
    cache.read(accountId, what, async () => {
      loads++;
      return { what, load: loads };
    });
  return { cache, read, loads: () => loads, advance: (ms: number) => (now += ms) };
}

describe('ConfigCache', () => {
  it('serves a read from memory for its time to live, then reads again', async () => {
    const { read, loads, advance } = setup({ ttlMs: 1000 });
    expect(await read(A, 'team 1')).toEqual({ what: 'team 1', load: 1 });
    advance(999);
    expect(await read(A, 'team 1')).toEqual({ what: 'team 1', load: 1 });
    expect(loads()).toBe(1);
    advance(1);
    expect(await read(A, 'team 1')).toEqual({ what: 'team 1', load: 2 });
    expect(loads()).toBe(2);
  });

  it('keeps accounts and reads apart', async () => {
    const { read, loads } = setup();
    await read(A, 'team 1');
    await read(B, 'team 1');
    await read(A, 'team 2');
    await read(A, 'team 1');
    expect(loads()).toBe(3);
  });

  it('is off at 0 ms: every read goes to storage', async () => {
    const { cache, read, loads } = setup({ ttlMs: 0 });
    await read(A, 'team 1');
    await read(A, 'team 1');
    expect(loads()).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries reads, the oldest going first', async () => {
    const { cache, read, loads } = setup({ maxEntries: 3 });
    for (const what of ['a', 'b', 'c', 'd']) await read(A, what);
    expect(cache.size).toBe(3);
    await read(A, 'd');
    expect(loads()).toBe(4);
    await read(A, 'a');
    expect(loads()).toBe(5);
    expect(cache.size).toBe(3);
  });

  it('never keeps "nothing found", so an object created meanwhile is seen at once', async () => {
    let now = 0;
    const cache = new ConfigCache({ ttlMs: 1000, maxEntries: 10, now: () => now });
    const stored: { team?: string } = {};
    const read = () => cache.read(A, 'team 9', async () => stored.team);
    expect(await read()).toBeUndefined();
    stored.team = 'created';
    now += 1;
    expect(await read()).toBe('created');
  });

  it('forgets an account at the write of a configuration item, and only that account', async () => {
    const { cache, read, loads } = setup();
    await read(A, 'team 1');
    await read(B, 'team 1');
    cache.forgetWritten('PutCommand', { Item: { pk: `A#${A}`, sk: 'TEAM#01JTEAM' } });
    await read(A, 'team 1');
    await read(B, 'team 1');
    expect(loads()).toBe(3);
  });

  it('forgets every account at the write of a person (read by all their accounts)', async () => {
    const { cache, read, loads } = setup();
    await read(A, 'users');
    await read(B, 'users');
    cache.forgetWritten('UpdateItemCommand', { Key: { pk: 'USER#01JUSER', sk: 'USER' } });
    await read(A, 'users');
    await read(B, 'users');
    expect(loads()).toBe(4);
  });

  it('forgets nothing at what a create or a delivery writes: alerts, their logs, records, timers, counters, outbox messages', async () => {
    const { cache, read, loads } = setup();
    await read(A, 'team 1');
    const alertPk = `A#${A}#AL#01JALERT`;
    cache.forgetWritten('TransactWriteItemsCommand', {
      TransactItems: [
        { Put: { Item: { pk: alertPk, sk: 'ALERT' } } },
        { Put: { Item: { pk: alertPk, sk: 'TEAM#01JTEAM' } } },
        { Put: { Item: { pk: alertPk, sk: 'LOG#01JLOG' } } },
        { Put: { Item: { pk: alertPk, sk: 'NOTIF#01JN' } } },
        { Put: { Item: { pk: alertPk, sk: 'TIMER#01JT' } } },
        { Update: { Key: { pk: `A#${A}`, sk: 'COUNTER#ALERT' } } },
        { Put: { Item: { pk: `A#${A}`, sk: 'OUTBOX#01JOUT' } } },
        { Put: { Item: { pk: `A#${A}`, sk: 'PID#out_abc' } } },
        { Put: { Item: { pk: `A#${A}#ALPID#alt_abc`, sk: 'ALIAS' } } },
      ],
    });
    cache.forgetWritten('UpdateItemCommand', { Key: { pk: `A#${A}`, sk: 'COUNTER#OUTBOX' } });
    cache.forgetWritten('DeleteItemCommand', { Key: { pk: `A#${A}#CONTACT#email#a@example.test`, sk: 'PENDING#01J' } });
    await read(A, 'team 1');
    expect(loads()).toBe(1);
  });

  it('forgets nothing at a read, nor at a transaction that only checks a configuration item', async () => {
    const { cache, read, loads } = setup();
    await read(A, 'team 1');
    cache.forgetWritten('GetItemCommand', { Key: { pk: `A#${A}`, sk: 'TEAM#01JTEAM' } });
    cache.forgetWritten('TransactWriteItemsCommand', { TransactItems: [{}] });
    await read(A, 'team 1');
    expect(loads()).toBe(1);
  });

  it('forgets at transactions and batch writes, marshalled keys included', async () => {
    const { cache, read, loads } = setup();
    await read(A, 'events');
    cache.forgetWritten('TransactWriteItemsCommand', { TransactItems: [{ Update: { Key: { pk: { S: `A#${A}` }, sk: { S: 'EVENT#01JEV' } } } }] });
    await read(A, 'events');
    cache.forgetWritten('BatchWriteItemCommand', { RequestItems: { hark: [{ DeleteRequest: { Key: { pk: `A#${A}`, sk: 'TIME_OFF#01J' } } }] } });
    await read(A, 'events');
    expect(loads()).toBe(3);
  });

  it('does not keep a read that was under way when a write forgot its account', async () => {
    const { cache } = setup();
    let release: (value: string) => void = () => undefined;
    const pending = cache.read(A, 'policy', () => new Promise<string>((resolve) => (release = resolve)));
    cache.forgetWritten('PutCommand', { Item: { pk: `A#${A}`, sk: 'ESCALATION_POLICY#01JP' } });
    release('read before the change');
    expect(await pending).toBe('read before the change');
    expect(await cache.read(A, 'policy', async () => 'read after the change')).toBe('read after the change');
  });
});

describe('which writes are configuration', () => {
  it('names the scope of each key', () => {
    expect(scopeOfKey({ pk: `A#${A}`, sk: 'SCHEDULE#01J' })).toEqual({ kind: 'account', accountId: A });
    expect(scopeOfKey({ pk: `A#${A}`, sk: 'OUTGOING_WEBHOOK#01J' })).toEqual({ kind: 'account', accountId: A });
    expect(scopeOfKey({ pk: `A#${A}`, sk: 'COMMENT#01J' })).toEqual({ kind: 'none' });
    expect(scopeOfKey({ pk: `A#${A}#AL#01J`, sk: 'TEAM#01J' })).toEqual({ kind: 'none' });
    expect(scopeOfKey({ pk: 'USER#01J', sk: 'MEMBER#01J' })).toEqual({ kind: 'none' });
    expect(scopeOfKey({ pk: 'USER#01J', sk: 'USER' })).toEqual({ kind: 'all' });
    expect(scopeOfKey(undefined)).toEqual({ kind: 'none' });
  });

  it('reads the keys every writing command names', () => {
    expect(writtenKeys('PutCommand', { Item: { pk: 'p', sk: 's' } })).toEqual([{ pk: 'p', sk: 's' }]);
    expect(writtenKeys('UpdateCommand', { Key: { pk: 'p', sk: 's' } })).toEqual([{ pk: 'p', sk: 's' }]);
    expect(writtenKeys('DeleteCommand', { Key: { pk: 'p', sk: 's' } })).toEqual([{ pk: 'p', sk: 's' }]);
    expect(writtenKeys('GetCommand', { Key: { pk: 'p', sk: 's' } })).toEqual([]);
    expect(writtenKeys('QueryCommand', {})).toEqual([]);
    expect(writtenKeys('BatchGetItemCommand', {})).toEqual([]);
  });

  it('places every stored entity type: configuration, or written by creates and deliveries', () => {
    expect(Object.entries(CONFIGURATION_KINDS).filter(([, config]) => !config).map(([kind]) => kind).sort()).toEqual(['ALERT', 'BROADCAST', 'COMMENT', 'OUTBOX']);
  });

  it('is installed on the one document client', () => {
    const names = documentClient().middlewareStack.identify();
    expect(names.some((name) => name.startsWith('harkForgetConfiguration'))).toBe(true);
  });

  it('sees every write: only lib/db builds the document client the domain writes through (lib/local/dynamo.ts only creates tables)', () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const files = ['lib', 'functions'].flatMap((dir) => walk(join(root, dir)));
    const building = files.filter((file) => /new DynamoDB(Document)?Client\b|DynamoDBDocumentClient\.from\(/.test(readFileSync(file, 'utf8'))).map((file) => relative(root, file));
    expect(building.sort()).toEqual(['lib/db/client.ts', 'lib/local/dynamo.ts']);
  });
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });
}
