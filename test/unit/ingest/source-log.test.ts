import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { markWrites } from '#lib/ingest/mark.ts';
import { bodyStorage, logIdsOf, logNotesWrite, newLogWrites, sourceLogWrites, storedNotes } from '#lib/ingest/source-log.ts';
import type { IngestMessage } from '#lib/queue/ingest.ts';

const message = (body: unknown, requestId = 'req-1'): IngestMessage => ({
  kind: 'webhook',
  requestId,
  accountId: 'acct',
  integrationId: 'int1',
  receivedAt: '2026-11-20T08:00:00.000Z',
  method: 'POST',
  path: '/integration/int_abcdefghijkl',
  headers: { 'content-type': 'application/json' },
  query: {},
  body,
});

describe('logIdsOf', () => {
  it('derives the same ULID and log_ prefix id from the same request, different ones from another', () => {
    const a = logIdsOf(message({}));
    expect(a).toEqual(logIdsOf(message({ other: 'body' })));
    expect(a.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(a.id.slice(0, 10)).toBe(logIdsOf({ accountId: 'x', requestId: 'y', receivedAt: '2026-11-20T08:00:00.000Z' }).id.slice(0, 10));
    expect(a.prefixId).toMatch(/^log_[A-Za-z0-9]{14}$/);
    expect(logIdsOf({ accountId: 'x', requestId: 'y', receivedAt: 'not a time' }).id).toBe(logIdsOf({ accountId: 'x', requestId: 'y', receivedAt: 'not a time' }).id);
    const b = logIdsOf(message({}, 'req-2'));
    expect(b.id).not.toBe(a.id);
    expect(b.prefixId).not.toBe(a.prefixId);
  });
});

describe('bodyStorage', () => {
  it('keeps a small body as its JSON text', () => {
    expect(bodyStorage({ a: 1 })).toEqual({ bodyText: '{"a":1}', chunks: [], bodyBytes: 7 });
  });

  it('gzips a body over 16 KiB into chunks that give the text back', () => {
    const body = { blob: 'x'.repeat(20_000) };
    const stored = bodyStorage(body);
    expect(stored.bodyText).toBeUndefined();
    expect(stored.bodyBytes).toBe(JSON.stringify(body).length);
    expect(JSON.parse(gunzipSync(Buffer.concat(stored.chunks)).toString('utf8'))).toEqual(body);
  });

  it('splits an incompressible body into chunks of at most 300,000 bytes', () => {
    const text = randomBytes(700_000).toString('base64');
    const stored = bodyStorage({ text });
    expect(stored.chunks.length).toBeGreaterThan(1);
    for (const chunk of stored.chunks) expect(chunk.length).toBeLessThanOrEqual(300_000);
    expect(JSON.parse(gunzipSync(Buffer.concat(stored.chunks)).toString('utf8'))).toEqual({ text });
  });
});

describe('sourceLogWrites', () => {
  it('writes the log only if absent, its chunks and its alias; both indexes order by time', () => {
    const { item, writes } = sourceLogWrites(message({ blob: 'y'.repeat(20_000) }));
    expect(item).toMatchObject({
      pk: `A#acct#LOG#${item.id}`,
      sk: 'LOG',
      gsi1pk: 'A#acct#INTLOGS#int1',
      gsi2pk: 'A#acct#LOGS',
      gsi1sk: `2026-11-20T08:00:00.000Z#${item.id}`,
      requestId: 'req-1',
      bodyChunks: 1,
      notes: [],
    });
    expect(writes.map((w) => Object.keys(w)[0])).toEqual(['Put', 'Put', 'Put']);
    for (const write of writes) expect((write as { Put: { ConditionExpression: string } }).Put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect((writes[1] as { Put: { Item: { sk: string } } }).Put.Item.sk).toBe('BODY#0000');
    expect((writes[2] as { Put: { Item: { pk: string; logId: string } } }).Put.Item).toMatchObject({ pk: `A#acct#LOGPID#${item.prefixId}`, logId: item.id });
  });
});

describe('newLogWrites and markWrites', () => {
  type Put = { Put: { Item: Record<string, unknown>; ConditionExpression?: string } };
  type Update = { Update: { Key: { pk: string; sk: string }; UpdateExpression: string; ExpressionAttributeNames: Record<string, string> } };

  it('a new log is born with the notes and steps of the write it rides in, then its alias and both counters in one shard', () => {
    const writes = newLogWrites(message({ event_type: 'create' }), [{ message: 'Created alert alt_x', alert_id: 'A1' }], ['apply', 'applied']);
    const log = (writes[0] as Put).Put;
    expect(log.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(log.Item).toMatchObject({ sk: 'LOG', notes: [{ message: 'Created alert alt_x', alert_id: 'A1' }] });
    expect([...(log.Item.noteSteps as Set<string>)]).toEqual(['apply', 'applied']);
    expect((writes[1] as Put).Put.Item.sk).toBe('ALIAS');
    const counters = writes.slice(2) as Update[];
    // The account's count in its counter group item (with the alert counts), the integration's in an item of its own.
    expect(counters.map((c) => c.Update.Key.sk)).toEqual(['COUNTS', 'COUNTER#LOG#INT#int1']);
    expect(counters.map((c) => [Object.values(c.Update.ExpressionAttributeNames), c.Update.UpdateExpression])).toEqual([
      [['COUNTER#LOG'], 'ADD #c0 :c0'],
      [['itemCount'], 'ADD #c0 :c0'],
    ]);
    // Both in the same shard partition of the account, never the unsharded item.
    expect(counters[0]!.Update.Key.pk).toMatch(/^A#acct#CNT#\d+$/);
    expect(counters[1]!.Update.Key.pk).toBe(counters[0]!.Update.Key.pk);
  });

  it('a log born without notes has no steps, so a later step is not mistaken for done', () => {
    const { item } = sourceLogWrites(message({}));
    expect(item.noteSteps).toBeUndefined();
  });

  it('marks the kept log with an update once per step, or writes the new log with the notes', () => {
    const target = { message: message({}), logRef: { accountId: 'acct', logId: logIdsOf(message({})).id }, steps: ['apply#1'] };
    const kept = markWrites({ ...target, logKept: true }, [{ message: 'n' }]);
    expect(kept).toHaveLength(1);
    expect((kept[0] as Update).Update.Key).toEqual({ pk: `A#acct#LOG#${target.logRef.logId}`, sk: 'LOG' });
    const born = markWrites({ ...target, logKept: false }, [{ message: 'n' }]);
    expect(born.map((w) => Object.keys(w)[0])).toEqual(['Put', 'Put', 'Update', 'Update']);
    expect([...((born[0] as Put).Put.Item.noteSteps as Set<string>)]).toEqual(['apply#1']);
  });
});

describe('notes', () => {
  it('cuts long messages and keeps at most 20 per step, the last saying how many were left out', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ message: `n${i}` }));
    const stored = storedNotes(0, many, 'T');
    expect(stored).toHaveLength(20);
    expect(stored[19]).toEqual({ message: '6 more notes were not kept', created_at: 'T' });
    expect(storedNotes(0, [{ message: 'm'.repeat(600), alert_id: 'A' }], 'T')[0]).toEqual({ message: `${'m'.repeat(499)}…`, alert_id: 'A', created_at: 'T' });
  });

  it('adds a step once: the write is conditional on the step not being recorded', () => {
    const write = logNotesWrite({ accountId: 'acct', logId: 'L' }, 'apply', [{ message: 'x' }], 'T') as {
      Update: { Key: unknown; ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> };
    };
    expect(write.Update.Key).toEqual({ pk: 'A#acct#LOG#L', sk: 'LOG' });
    expect(write.Update.ConditionExpression).toBe('attribute_exists(pk) AND NOT contains(#steps, :step0)');
    expect(write.Update.ExpressionAttributeValues).toMatchObject({ ':notes': [{ message: 'x', created_at: 'T' }], ':step0': 'apply', ':steps': new Set(['apply']) });
  });

  it('marks several steps at once, only while none of them is recorded', () => {
    const write = logNotesWrite({ accountId: 'acct', logId: 'L' }, ['apply#2', 'applied'], [{ message: 'x' }], 'T') as {
      Update: { ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> };
    };
    expect(write.Update.ConditionExpression).toBe('attribute_exists(pk) AND NOT contains(#steps, :step0) AND NOT contains(#steps, :step1)');
    expect(write.Update.ExpressionAttributeValues).toMatchObject({ ':step0': 'apply#2', ':step1': 'applied', ':steps': new Set(['apply#2', 'applied']) });
  });
});
