import { describe, expect, it } from 'vitest';
import { mergeNested, settlePrimary, type NestedAttribute, type NestedSpec } from '#lib/people/nested.ts';

interface Row {
  id: string;
  primary: boolean;
  value: string;
}
type Attr = NestedAttribute & { value?: string };

let counter = 0;
const spec: NestedSpec<Row, Attr> = {
  noun: 'email',
  valueField: 'value',
  matches: (row, id) => row.id === id,
  create: (a) => (a.value === undefined ? [`${a.label}.value is required`] : { id: `new${++counter}`, primary: false, value: a.value }),
  update: (row, a) => (a.value === 'bad' ? [`${a.label}.value is bad`] : { ...row, ...(a.value !== undefined ? { value: a.value } : {}) }),
  valueOf: (row) => row.value,
};

const rows: Row[] = [
  { id: 'a', primary: true, value: 'a@x' },
  { id: 'b', primary: false, value: 'b@x' },
];
const at = (i: number, a: Omit<Attr, 'label'>): Attr => ({ label: `emails_attributes[${i}]`, ...a });
const view = (r: Row[]) => r.map((x) => `${x.value}${x.primary ? '*' : ''}`);

describe('mergeNested', () => {
  it('keeps rows not mentioned, updates by id, adds without id', () => {
    const result = mergeNested(rows, [at(0, { id: 'b', value: 'b2@x' }), at(1, { value: 'c@x' })], spec);
    expect(result.problems).toEqual([]);
    expect(view(result.rows)).toEqual(['a@x*', 'b2@x', 'c@x']);
    expect(result.rows[1]!.id).toBe('b');
  });

  it('removes rows with _destroy, and ignores _destroy on new elements', () => {
    const result = mergeNested(rows, [at(0, { id: 'b', destroy: true }), at(1, { value: 'gone@x', destroy: true })], spec);
    expect(view(result.rows)).toEqual(['a@x*']);
  });

  it('destroying the primary makes the first remaining row primary', () => {
    expect(view(mergeNested(rows, [at(0, { id: 'a', destroy: true })], spec).rows)).toEqual(['b@x*']);
  });

  it('an element marked primary becomes the only primary (new or existing)', () => {
    expect(view(mergeNested(rows, [at(0, { id: 'b', primary: true })], spec).rows)).toEqual(['a@x', 'b@x*']);
    expect(view(mergeNested(rows, [at(0, { value: 'c@x', primary: true })], spec).rows)).toEqual(['a@x', 'b@x', 'c@x*']);
  });

  it('unmarking the primary without naming another gives it to the first row', () => {
    expect(view(mergeNested(rows, [at(0, { id: 'b', primary: false }), at(1, { id: 'a', primary: false })], spec).rows)).toEqual(['a@x*', 'b@x']);
    expect(view(mergeNested([rows[1]!, rows[0]!], [at(0, { id: 'a', primary: false })], spec).rows)).toEqual(['b@x*', 'a@x']);
  });

  it('a new list gets its first row as primary, or the marked one', () => {
    expect(view(mergeNested([], [at(0, { value: 'x@x' }), at(1, { value: 'y@x' })], spec).rows)).toEqual(['x@x*', 'y@x']);
    expect(view(mergeNested([], [at(0, { value: 'x@x' }), at(1, { value: 'y@x', primary: true })], spec).rows)).toEqual(['x@x', 'y@x*']);
  });

  it('names every problem: two primaries, unknown id, repeated id, duplicate value, element problems', () => {
    const result = mergeNested(
      rows,
      [
        at(0, { value: 'c@x', primary: true }),
        at(1, { id: 'b', primary: true }),
        at(2, { id: 'zzz' }),
        at(3, { id: 'b', value: 'q@x' }),
        at(4, { value: 'a@x' }),
        at(5, {}),
        at(6, { id: 'a', value: 'bad' }),
      ],
      spec,
    );
    expect(result.problems).toEqual([
      'emails_attributes[2].id zzz is not an email of this user',
      'emails_attributes[3].id b names an email already changed by an earlier element',
      'emails_attributes[5].value is required',
      'emails_attributes[6].value is bad',
      'emails_attributes[4].value a@x is listed more than once',
      'only one email can be primary: emails_attributes[0] and emails_attributes[1] are all marked primary',
    ]);
  });

  it('does not change the rows it was given', () => {
    const before = structuredClone(rows);
    mergeNested(rows, [at(0, { id: 'b', primary: true, value: 'z@x' })], spec);
    expect(rows).toEqual(before);
  });
});

describe('settlePrimary', () => {
  it('leaves no rows alone, and always exactly one primary otherwise', () => {
    expect(settlePrimary([], undefined)).toEqual([]);
    const two = [
      { id: '1', primary: true },
      { id: '2', primary: true },
    ];
    expect(settlePrimary(two, undefined).map((r) => r.primary)).toEqual([true, false]);
    expect(settlePrimary(two, '2').map((r) => r.primary)).toEqual([false, true]);
    expect(settlePrimary(two, 'missing').map((r) => r.primary)).toEqual([true, false]);
  });
});
