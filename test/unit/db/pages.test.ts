// The count kept beside a collection's items (lib/db/pages.ts): which reads answer it, and the check that makes it exact.
import { describe, expect, it } from 'vitest';
import { besideCountCheck, splitBesideCount, type BesideCountItem } from '#lib/db/pages.ts';
import type { EntityItem } from '#lib/db/writes.ts';

const schedule = (id: string) => ({ pk: 'A#acct', sk: `SCHEDULE#${id}`, id }) as unknown as EntityItem<{ name: string }>;
const copy = (fields: Partial<BesideCountItem>): BesideCountItem => ({ pk: 'A#acct', sk: 'SCHEDULE$COUNT', ...fields });

describe('splitBesideCount', () => {
  it('answers the count of an exact copy read first, and the entities after it', () => {
    const read = [copy({ itemCount: 42, exact: true }), schedule('2'), schedule('1')];
    expect(splitBesideCount('SCHEDULE', read)).toEqual({ items: [schedule('2'), schedule('1')], count: 42 });
    expect(splitBesideCount('SCHEDULE', [copy({ exact: true })])).toEqual({ items: [], count: 0 });
  });

  it('answers no count for a copy that only gathered changes (not yet checked against the counter)', () => {
    expect(splitBesideCount('SCHEDULE', [copy({ itemCount: 3 }), schedule('1')])).toEqual({ items: [schedule('1')] });
    expect(splitBesideCount('SCHEDULE', [copy({ itemCount: 3, exact: false }), schedule('1')])).toEqual({ items: [schedule('1')] });
  });

  it('answers no count when the read has no copy: every item is an entity', () => {
    expect(splitBesideCount('SCHEDULE', [schedule('2'), schedule('1')])).toEqual({ items: [schedule('2'), schedule('1')] });
    expect(splitBesideCount('SCHEDULE', [])).toEqual({ items: [] });
    // Another type's copy is not this collection's count.
    expect(splitBesideCount('TEAM', [copy({ itemCount: 1, exact: true })])).toEqual({ items: [copy({ itemCount: 1, exact: true })] });
  });
});

describe('besideCountCheck', () => {
  it('marks the copy exact at the value read, only if the counter still holds it', () => {
    expect(besideCountCheck('acct', 'SCHEDULE', 7)).toEqual([
      { Put: { Item: { pk: 'A#acct', sk: 'SCHEDULE$COUNT', itemCount: 7, exact: true } } },
      { ConditionCheck: { Key: { pk: 'A#acct', sk: 'COUNTER#SCHEDULE' }, ConditionExpression: 'itemCount = :n', ExpressionAttributeValues: { ':n': 7 } } },
    ]);
  });

  it('a count of 0 also holds when the counter was never written', () => {
    expect(besideCountCheck('acct', 'SCHEDULE', 0)[1]).toEqual({
      ConditionCheck: {
        Key: { pk: 'A#acct', sk: 'COUNTER#SCHEDULE' },
        ConditionExpression: 'attribute_not_exists(itemCount) OR itemCount = :n',
        ExpressionAttributeValues: { ':n': 0 },
      },
    });
  });
});
