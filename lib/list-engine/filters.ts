// Filters (`ops` and equality parameters) and `q` search, compiled once per request into item predicates.

import type { ListFilter, ListOp } from './query.ts';
import { quote } from './query.ts';
import { comparableOf, isTextual, MISSING, textOf, typedQueryValue, visibleAt, type Comparable, type Shape } from './shape.ts';

export type Predicate = (item: object) => boolean;

export function compileFilter(filter: ListFilter, shape: Shape, problems: string[]): Predicate | undefined {
  const { attribute, op } = filter;
  const path = attribute.split('.');
  const { kind } = shape;
  const at = (item: object) => visibleAt(item, path);

  if (op === 'between') {
    const from = typedQueryValue(attribute, kind, filter.from);
    const to = typedQueryValue(attribute, kind, filter.to);
    let bad = false;
    for (const bound of [from, to]) {
      if (typeof bound === 'object') {
        problems.push(bound.problem);
        bad = true;
      }
    }
    if (bad) return undefined;
    const lo = from as Comparable;
    const hi = to as Comparable;
    if (lo > hi) {
      problems.push(`${attribute} must be a range whose start is not after its end, got ${quote(`${filter.from}..${filter.to}`)}`);
      return undefined;
    }
    return someMember(at, (v) => {
      const c = comparableOf(kind, v);
      return c !== undefined && c >= lo && c <= hi;
    });
  }

  const raw = filter.value;
  if (raw === null) {
    const isNull = (item: object) => {
      const v = at(item);
      return v === MISSING || v === null;
    };
    return op === 'equals' ? isNull : (item) => !isNull(item);
  }

  if (op === 'beginsWith') {
    if (!isTextual(kind)) {
      problems.push(`${attribute}: beginsWith applies to text attributes, not to ${kind} ones`);
      return undefined;
    }
    return someMember(at, (v) => textOf(kind, v)?.startsWith(raw) === true);
  }

  if (op === 'contains' && !shape.arrays) {
    if (!isTextual(kind)) {
      problems.push(`${attribute}: contains applies to text and array attributes, not to ${kind} ones`);
      return undefined;
    }
    return someMember(at, (v) => textOf(kind, v)?.includes(raw) === true);
  }

  const typed = typedQueryValue(attribute, kind, raw);
  if (typeof typed === 'object') {
    problems.push(typed.problem);
    return undefined;
  }
  const test = scalarTest(op, typed);
  const matches = someMember(at, (v) => {
    const c = comparableOf(kind, v);
    return c !== undefined && test(c);
  });
  // ne is exactly the complement of equals (arrays: no member equals; null and missing match).
  return op === 'ne' ? (item) => !matches(item) : matches;
}

function scalarTest(op: Exclude<ListOp, 'between' | 'beginsWith'>, q: Comparable): (c: Comparable) => boolean {
  switch (op) {
    case 'lt':
      return (c) => c < q;
    case 'lte':
      return (c) => c <= q;
    case 'gt':
      return (c) => c > q;
    case 'gte':
      return (c) => c >= q;
    default: // equals, ne (negated by the caller), contains on arrays (membership)
      return (c) => c === q;
  }
}

/** Scalars test themselves; arrays match when some member does. */
function someMember(at: (item: object) => unknown, test: (value: unknown) => boolean): Predicate {
  return (item) => {
    const value = at(item);
    if (value === MISSING) return false;
    if (Array.isArray(value)) return value.some(test);
    return test(value);
  };
}


export function searchPredicate(q: string, fields: readonly string[]): Predicate {
  const needle = q.toLowerCase();
  const paths = fields.map((field) => field.split('.'));
  const hit = (value: unknown): boolean => typeof value === 'string' && value.toLowerCase().includes(needle);
  return (item) =>
    paths.some((path) => {
      const value = visibleAt(item, path);
      return Array.isArray(value) ? value.some(hit) : hit(value);
    });
}
