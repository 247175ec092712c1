import { describe, expect, it } from 'vitest';
import { aggregateFingerprint, valueAtPath } from '#lib/routing-engine/fingerprint.ts';

// Rules: docs/routing.md, "aggregate".

describe('valueAtPath', () => {
  const data = { alert: { title: 't', meta: { a: 1 } }, log: { data: { items: [{ name: 'x' }, { name: 'y' }, { other: 1 }] } } };

  it('follows dot paths through mappings', () => {
    expect(valueAtPath(data, 'alert.title')).toBe('t');
    expect(valueAtPath(data, 'alert.meta')).toEqual({ a: 1 });
  });

  it('goes into every element of a list', () => {
    expect(valueAtPath(data, 'log.data.items.name')).toEqual(['x', 'y']);
  });

  it('a missing value is null, and prototype keys are not values', () => {
    expect(valueAtPath(data, 'alert.nothing')).toBeNull();
    expect(valueAtPath(data, 'alert.constructor')).toBeNull();
    expect(valueAtPath(data, 'alert.__proto__')).toBeNull();
  });
});

describe('aggregateFingerprint', () => {
  it('ignores key order inside mapping values', () => {
    const a = aggregateFingerprint('r', ['log.data'], { log: { data: { x: 1, y: 2 } } });
    const b = aggregateFingerprint('r', ['log.data'], { log: { data: { y: 2, x: 1 } } });
    expect(a).toBe(b);
  });

  it('differs by router, by paths and by values', () => {
    const data = { alert: { title: 't', source_id: 's' } };
    const base = aggregateFingerprint('r', ['alert.title'], data);
    expect(aggregateFingerprint('r2', ['alert.title'], data)).not.toBe(base);
    expect(aggregateFingerprint('r', ['alert.source_id'], data)).not.toBe(base);
    expect(aggregateFingerprint('r', ['alert.title'], { alert: { title: 'u' } })).not.toBe(base);
  });

  it('a missing value and an explicit null are the same', () => {
    expect(aggregateFingerprint('r', ['alert.x'], { alert: {} })).toBe(aggregateFingerprint('r', ['alert.x'], { alert: { x: null } }));
  });
});
