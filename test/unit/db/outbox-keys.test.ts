// Where outbox messages live since sharding: the shard of an id (stable, spread), the keys, the alias's partition,
// and every partition a list reads. Rules: docs/decisions/0027-sharded-outbox.md.
import { describe, expect, it } from 'vitest';
import { newId, newPrefixId } from '#lib/ids.ts';
import { aliasKeyOf, outboxAliasKey, outboxKey, outboxKeyOf, outboxPartitions, outboxShardOf, outboxShardPk, unshardedOutboxKey } from '#lib/db/keys.ts';
import { aliasDelete, aliasItem } from '#lib/db/writes.ts';
import { OUTBOX_SHARDS } from '#lib/limits.ts';

describe('outbox shards', () => {
  it('the shard of an id is stable: the same on every call and in every process (a fixed hash, not a random pick)', () => {
    // Fixed expectations: a change of the hash would strand every message written before it.
    expect(outboxShardOf('01JOUTBOX00000000000000000')).toBe(14);
    expect(outboxShardOf('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe(3);
    expect(outboxShardOf('obx_abcdefghijkl')).toBe(5);
    const id = newId();
    expect(outboxShardOf(id)).toBe(outboxShardOf(id));
  });

  it('spreads the ids of one millisecond and of many over every shard, none far above its share', () => {
    const at = Date.parse('2026-11-26T20:00:00Z');
    const counts = new Array<number>(OUTBOX_SHARDS).fill(0);
    const n = OUTBOX_SHARDS * 200;
    for (let i = 0; i < n; i++) counts[outboxShardOf(newId(at + (i % 3)))]! += 1;
    for (const c of counts) {
      expect(c).toBeGreaterThan(200 * 0.7);
      expect(c).toBeLessThan(200 * 1.3);
    }
  });

  it('a message is in its id’s shard; one written before sharding in the account partition', () => {
    const id = '01JOUTBOX00000000000000000';
    expect(outboxKey('acc', id)).toEqual({ pk: 'A#acc#OUTBOX#14', sk: `OUTBOX#${id}` });
    expect(unshardedOutboxKey('acc', id)).toEqual({ pk: 'A#acc', sk: `OUTBOX#${id}` });
    expect(outboxKeyOf('acc', id, true)).toEqual(outboxKey('acc', id));
    expect(outboxKeyOf('acc', id, false)).toEqual(unshardedOutboxKey('acc', id));
  });

  it('a list reads every shard and then the account partition, each once', () => {
    const partitions = outboxPartitions('acc');
    expect(partitions).toHaveLength(OUTBOX_SHARDS + 1);
    expect(new Set(partitions).size).toBe(OUTBOX_SHARDS + 1);
    expect(partitions.at(-1)).toBe('A#acc');
    for (let shard = 0; shard < OUTBOX_SHARDS; shard++) expect(partitions).toContain(outboxShardPk('acc', shard));
  });
});

describe('prefix-id aliases of outbox messages', () => {
  const sharded = { ...outboxKey('acc', '01JOUTBOX00000000000000000'), type: 'OUTBOX' as const, accountId: 'acc', prefixId: 'obx_abcdefghijkl' };

  it('a sharded message’s alias is in the shard of its prefix id (a lookup by prefix id knows nothing else)', () => {
    expect(aliasKeyOf(sharded)).toEqual({ pk: 'A#acc#OUTBOX#5', sk: 'PID#obx_abcdefghijkl' });
    expect(aliasKeyOf(sharded)).toEqual(outboxAliasKey('acc', 'obx_abcdefghijkl'));
    expect(aliasItem(sharded)).toEqual({ pk: 'A#acc#OUTBOX#5', sk: 'PID#obx_abcdefghijkl', targetSk: 'OUTBOX#01JOUTBOX00000000000000000' });
    expect(aliasDelete(sharded)).toEqual({ Delete: { Key: { pk: 'A#acc#OUTBOX#5', sk: 'PID#obx_abcdefghijkl' } } });
  });

  it('an older message’s alias and every other entity’s stay beside the entity', () => {
    const old = { ...sharded, pk: 'A#acc' };
    expect(aliasKeyOf(old)).toEqual({ pk: 'A#acc', sk: 'PID#obx_abcdefghijkl' });
    const schedule = { pk: 'A#acc', sk: 'SCHEDULE#1', type: 'SCHEDULE' as const, accountId: 'acc', prefixId: newPrefixId('SCHEDULE') };
    expect(aliasKeyOf(schedule)).toEqual({ pk: 'A#acc', sk: `PID#${schedule.prefixId}` });
  });
});
