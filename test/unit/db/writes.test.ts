// The write toolkit's builders, offline: the exact keys, conditions and TransactItems each one generates.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTable } from '#lib/db/items.ts';
import {
  aliasCreate,
  aliasDelete,
  batchUnits,
  COLLECTION_LIMIT,
  countChange,
  COUNT_BESIDE_ITEMS,
  deleteAny,
  deleteItems,
  deletionUnit,
  entityCreates,
  listElementRemoval,
  listRemovalUnit,
  netCountChanges,
  putNew,
  putOver,
  touchItem,
  unchangedCheck,
  versionedPut,
  versionWrite,
  type EntityItem,
} from '#lib/db/writes.ts';

const NOW = '2030-01-02T03:04:05.000Z';

function entity(overrides: Partial<EntityItem<{ ids: string[] }>> = {}): EntityItem<{ ids: string[] }> {
  return {
    pk: 'A#acct',
    sk: 'SCHEDULE#01ID',
    type: 'SCHEDULE',
    accountId: 'acct',
    id: '01ID',
    prefixId: 'sch_abc',
    tinyId: 7,
    version: 3,
    createdAt: '2029-01-01T00:00:00.000Z',
    updatedAt: '2029-01-01T00:00:00.000Z',
    meta: { m: 1 },
    data: { ids: ['a', 'b'] },
    ...overrides,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(NOW));
});
afterEach(() => vi.useRealTimers());

describe('new items and aliases', () => {
  it('putNew requires the key to be free; putOver and deleteAny are unconditional', () => {
    expect(putNew({ pk: 'P', sk: 'S', x: 1 })).toEqual({ Put: { Item: { pk: 'P', sk: 'S', x: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } });
    expect(putOver({ pk: 'P', sk: 'S', x: 1 })).toEqual({ Put: { Item: { pk: 'P', sk: 'S', x: 1 } } });
    expect(deleteAny({ pk: 'P', sk: 'S', other: 1 } as never)).toEqual({ Delete: { Key: { pk: 'P', sk: 'S' } } });
  });

  it('an entity is created with its prefix-id alias in the same partition', () => {
    const item = entity();
    expect(aliasCreate(item)).toEqual({
      Put: { Item: { pk: 'A#acct', sk: 'PID#sch_abc', targetSk: 'SCHEDULE#01ID' }, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    expect(aliasDelete(item)).toEqual({ Delete: { Key: { pk: 'A#acct', sk: 'PID#sch_abc' } } });
    expect(entityCreates(item)).toEqual([{ Put: { Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }, aliasCreate(item)]);
  });
});

describe('counters', () => {
  it('a growth is capped by a condition; a shrink is not', () => {
    expect(countChange('acct', 'TEAM', 2)).toEqual([
      {
        Update: {
          Key: { pk: 'A#acct', sk: 'COUNTER#TEAM' },
          UpdateExpression: 'ADD itemCount :delta',
          ConditionExpression: 'attribute_not_exists(itemCount) OR itemCount <= :max',
          ExpressionAttributeValues: { ':delta': 2, ':max': COLLECTION_LIMIT - 2 },
        },
      },
    ]);
    expect(countChange('acct', 'TEAM', -1)).toEqual([
      { Update: { Key: { pk: 'A#acct', sk: 'COUNTER#TEAM' }, UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': -1 } } },
    ]);
  });

  it('a type whose count is kept beside its items changes the copy by the same delta, in the same writes', () => {
    expect(COUNT_BESIDE_ITEMS.has('SCHEDULE')).toBe(true);
    const [counter, copy, ...rest] = countChange('acct', 'SCHEDULE', 1);
    expect(rest).toEqual([]);
    expect(counter).toMatchObject({ Update: { Key: { pk: 'A#acct', sk: 'COUNTER#SCHEDULE' }, ConditionExpression: 'attribute_not_exists(itemCount) OR itemCount <= :max' } });
    // The copy carries no cap of its own (the counter's condition fails the whole transaction) and sorts after every SCHEDULE#<id>.
    expect(copy).toEqual({ Update: { Key: { pk: 'A#acct', sk: 'SCHEDULE$COUNT' }, UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': 1 } } });
    expect('SCHEDULE#7ZZZZZZZZZZZZZZZZZZZZZZZZZ' < 'SCHEDULE$COUNT').toBe(true);
    expect(countChange('acct', 'SCHEDULE', -2)[1]).toEqual({ Update: { Key: { pk: 'A#acct', sk: 'SCHEDULE$COUNT' }, UpdateExpression: 'ADD itemCount :delta', ExpressionAttributeValues: { ':delta': -2 } } });
    expect(netCountChanges([{ accountId: 'acct', type: 'SCHEDULE', delta: 1 }])).toEqual(countChange('acct', 'SCHEDULE', 1));
    expect(deleteItems(entity()).slice(2)).toEqual(countChange('acct', 'SCHEDULE', -1));
  });

  it('count changes are netted to one per account and type, and zero nets are left out', () => {
    const changes = netCountChanges([
      { accountId: 'acct', type: 'EVENT', delta: -1 },
      { accountId: 'acct', type: 'TEAM', delta: 1 },
      { accountId: 'acct', type: 'EVENT', delta: -1 },
      { accountId: 'acct', type: 'TEAM', delta: -1 },
      { accountId: 'other', type: 'EVENT', delta: 1 },
    ]);
    expect(changes).toEqual([...countChange('acct', 'EVENT', -2), ...countChange('other', 'EVENT', 1)]);
  });
});

describe('versions and references', () => {
  it('versionWrite puts the next version only if the read version is still stored', () => {
    const previous = entity();
    const { next, write } = versionWrite(previous, { ids: ['c'] });
    expect(next).toEqual({ ...previous, data: { ids: ['c'] }, version: 4, updatedAt: NOW });
    expect(write).toEqual({ Put: { Item: next, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': 3 } } });
    expect(versionWrite(previous, previous.data, { n: 2 }, { gsi1pk: 'G', gsi1sk: 'S' }).next).toMatchObject({ meta: { n: 2 }, gsi1pk: 'G', gsi1sk: 'S' });
    expect(versionedPut({ pk: 'USER#u', sk: 'USER', version: 9 }, 8)).toEqual({
      Put: { Item: { pk: 'USER#u', sk: 'USER', version: 9 }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': 8 } },
    });
  });

  it('unchangedCheck and touchItem', () => {
    expect(unchangedCheck(entity())).toEqual({
      ConditionCheck: { Key: { pk: 'A#acct', sk: 'SCHEDULE#01ID' }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': 3 } },
    });
    expect(touchItem(entity())).toEqual({
      Update: {
        Key: { pk: 'A#acct', sk: 'SCHEDULE#01ID' },
        UpdateExpression: 'SET version = version + :one ADD refVersion :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    });
  });
});

describe('deletes', () => {
  it('a version-guarded delete fails on any write since the read', () => {
    expect(deleteItems(entity())).toEqual([
      { Delete: { Key: { pk: 'A#acct', sk: 'SCHEDULE#01ID' }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': 3 } } },
      { Delete: { Key: { pk: 'A#acct', sk: 'PID#sch_abc' } } },
      ...countChange('acct', 'SCHEDULE', -1),
    ]);
  });

  it('a references-guarded delete fails only when the entity is gone or newly referenced', () => {
    expect(deleteItems(entity(), { guard: 'references', count: false })).toEqual([
      { Delete: { Key: { pk: 'A#acct', sk: 'SCHEDULE#01ID' }, ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(refVersion)' } },
      { Delete: { Key: { pk: 'A#acct', sk: 'PID#sch_abc' } } },
    ]);
    expect(deleteItems(entity({ refVersion: 2 }), { guard: 'references', count: false })[0]).toEqual({
      Delete: { Key: { pk: 'A#acct', sk: 'SCHEDULE#01ID' }, ConditionExpression: 'refVersion = :r', ExpressionAttributeValues: { ':r': 2 } },
    });
  });

  it('deletionUnit leaves the count change to the batch', () => {
    expect(deletionUnit(entity())).toEqual({ writes: deleteItems(entity(), { count: false }), counts: [{ accountId: 'acct', type: 'SCHEDULE', delta: -1 }] });
  });
});

describe('taking an id out of a list', () => {
  it('removes the element where it was read, conditioned on it still being there', () => {
    expect(listElementRemoval(entity(), ['data', 'ids'], 1, 'b')).toEqual({
      Update: {
        Key: { pk: 'A#acct', sk: 'SCHEDULE#01ID' },
        UpdateExpression: 'REMOVE #p0.#p1[1] SET version = version + :one, updatedAt = :now',
        ConditionExpression: '#p0.#p1[1] = :value',
        ExpressionAttributeNames: { '#p0': 'data', '#p1': 'ids' },
        ExpressionAttributeValues: { ':value': 'b', ':one': 1, ':now': NOW },
      },
    });
  });

  it('deletes the entity when the id was the only element, only if it still is', () => {
    const item = entity({ data: { ids: ['a'] } });
    expect(listRemovalUnit(item, ['data', 'ids'], 'a', item.data.ids)).toEqual({
      writes: [
        {
          Delete: {
            Key: { pk: 'A#acct', sk: 'SCHEDULE#01ID' },
            ConditionExpression: 'size(#p0.#p1) = :one AND #p0.#p1[0] = :value',
            ExpressionAttributeNames: { '#p0': 'data', '#p1': 'ids' },
            ExpressionAttributeValues: { ':one': 1, ':value': 'a' },
          },
        },
        { Delete: { Key: { pk: 'A#acct', sk: 'PID#sch_abc' } } },
      ],
      counts: [{ accountId: 'acct', type: 'SCHEDULE', delta: -1 }],
    });
    expect(listRemovalUnit(entity(), ['data', 'ids'], 'b', ['a', 'b'])).toEqual({ writes: [listElementRemoval(entity(), ['data', 'ids'], 1, 'b')] });
    expect(listRemovalUnit(entity(), ['data', 'ids'], 'z', ['a', 'b'])).toBeUndefined();
  });
});

describe('batchUnits with several types', () => {
  it('gives each batch one net count change per type, within the limit', () => {
    const event = (n: number) => entity({ type: 'EVENT', sk: `EVENT#${n}`, prefixId: `evt_${n}` });
    const units = [deletionUnit(event(1)), { writes: [putOver({ pk: 'x', sk: '1' })] }, deletionUnit(entity()), deletionUnit(event(2))];
    const [batch, ...rest] = batchUnits(units, 10);
    expect(rest).toEqual([]);
    expect(batch).toEqual([
      ...deleteItems(event(1), { count: false }),
      putOver({ pk: 'x', sk: '1' }),
      ...deleteItems(entity(), { count: false }),
      ...deleteItems(event(2), { count: false }),
      ...countChange('acct', 'EVENT', -2),
      ...countChange('acct', 'SCHEDULE', -1),
    ]);
  });

  it('counts a new count change against the limit before adding a unit', () => {
    const units = [{ writes: [putOver({ pk: 'x', sk: '1' }), putOver({ pk: 'x', sk: '2' })] }, deletionUnit(entity())];
    // 2 writes + 2 deletes + a schedule's count change (the counter and the copy beside the items) = 6 > 4: the
    // deletion goes to a second batch, where it fits exactly.
    expect(batchUnits(units, 4).map((b) => b.length)).toEqual([2, 4]);
    // A type counted in the counter only: 2 + 2 + 1 = 5 > 4, and 3 in the second batch.
    const event = entity({ type: 'EVENT', sk: 'EVENT#1', prefixId: 'evt_1' });
    expect(batchUnits([units[0]!, deletionUnit(event)], 4).map((b) => b.length)).toEqual([2, 3]);
    expect(batchUnits([units[0]!, deletionUnit(event)], 5).map((b) => b.length)).toEqual([5]);
    // The schedule's deletion needs 4: with 5 room, the two units still cannot share (2 + 4 = 6).
    expect(batchUnits(units, 5).map((b) => b.length)).toEqual([2, 4]);
    expect(batchUnits(units, 6).map((b) => b.length)).toEqual([6]);
  });

  it('refuses a unit that cannot fit in any transaction', () => {
    expect(() => batchUnits([{ writes: Array.from({ length: 5 }, (_, i) => putOver({ pk: 'x', sk: String(i) })) }], 4)).toThrow(/does not fit/);
  });
});

describe('withTable', () => {
  it('adds the table name to every write of a transaction', () => {
    expect(withTable([putNew({ pk: 'P', sk: 'S' }), deleteAny({ pk: 'P', sk: 'T' })], 'hark')).toEqual([
      { Put: { TableName: 'hark', Item: { pk: 'P', sk: 'S' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Delete: { TableName: 'hark', Key: { pk: 'P', sk: 'T' } } },
    ]);
  });
});
