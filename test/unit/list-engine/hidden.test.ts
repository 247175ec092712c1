// Fields the caller cannot read (docs/lists.md, "Fields the caller cannot read"): one projection decides what a list
// returns and what its filters, sort and q see. A hidden field holds nothing for them, whatever the object carries,
// and a filter on it is applied (finding nothing), not ignored as an unknown attribute nor refused.
import { describe, expect, it } from 'vitest';
import { hideFields, listFromQuery, type ListOptions } from '#lib/list-engine/index.ts';

type Item = Record<string, unknown>;
const OPTIONS: ListOptions = { searchFields: ['name', 'secret_note', 'profile.emails.email'] };

const person = (id: string, created: string, extra: Item = {}): Item => ({ id, created_at: created, name: `Person ${id}`, ...extra });
/** `hidden` carries values, as a careless projection would leave them; the mark alone must keep them from the engine. */
const ITEMS = (): Item[] => [
  person('visible', '2026-01-01T00:00:00Z', { time_zone: 'Berlin', phones: [], profile: { emails: [{ email: 'v@x.test' }], phones: [] } }),
  hideFields(person('hidden', '2026-01-02T00:00:00Z', { time_zone: 'Tokyo', secret_note: 'needle', phones: [{ phone: '+4915112345678' }], profile: { emails: [{ email: 'h@x.test' }], phones: [{ phone: '+4915112345678' }] } }), [
    'time_zone',
    'secret_note',
    'phones',
    'profile.phones',
  ]),
];
const ids = (query: Record<string, string>) => listFromQuery(ITEMS(), { limit: '100', ...query }, OPTIONS).data.map((item) => item.id);

describe('a hidden field', () => {
  it('is never matched by a filter, even when no other object holds the attribute (applied, not ignored)', () => {
    expect(ids({ 'phones.phone': '+4915112345678' })).toEqual([]);
    expect(ids({ 'profile.phones.phone': '+4915112345678' })).toEqual([]);
    expect(ids({ 'phones.phone': '+4915199999999' })).toEqual([]);
    expect(ids({ time_zone: 'Tokyo' })).toEqual([]);
    expect(ids({ time_zone: 'Tokyo', ops: 'time_zone:beginsWith' })).toEqual([]);
    expect(ids({ time_zone: 'A..Z', ops: 'time_zone:between' })).toEqual(['visible']);
  });

  it('answers null and ne as an absent attribute does', () => {
    expect(ids({ time_zone: 'null' })).toEqual(['hidden']);
    expect(ids({ time_zone: 'Tokyo', ops: 'time_zone:ne' })).toEqual(['hidden', 'visible']);
  });

  it('is not searched by q, while the object’s visible fields are', () => {
    expect(ids({ q: 'needle' })).toEqual([]);
    expect(ids({ q: 'h@x.test' })).toEqual(['hidden']);
  });

  it('sorts as absent: after every value, whichever the direction', () => {
    expect(ids({ sort: 'time_zone' })).toEqual(['visible', 'hidden']);
    expect(ids({ sort: 'time_zone', direction: 'desc' })).toEqual(['visible', 'hidden']);
    expect(ids({ sort: 'phones.phone' })).toEqual(['visible', 'hidden']);
  });

  it('types nothing: values only the caller cannot read never make a filter value a 422', () => {
    const items = [hideFields(person('h', '2026-01-01T00:00:00Z', { score: 5 }), ['score']), person('v', '2026-01-02T00:00:00Z')];
    expect(listFromQuery(items, { score: 'not-a-number' }, OPTIONS).total_count).toBe(0);
  });

  it('is not part of the JSON answer, and an object without hidden fields is left as it was', () => {
    const shown = hideFields({ a: 1 }, ['a']);
    expect(JSON.stringify(shown)).toBe('{"a":1}');
    expect(Object.getOwnPropertySymbols(hideFields({ a: 1 }, []))).toEqual([]);
  });
});
