// The fingerprint of an aggregate action: which alerts count as "the same" (docs/routing.md, "aggregate").
import { createHash } from 'node:crypto';
import { isMapping } from '../rule-engine/index.ts';

/**
 * The value at a dot path of the match data, as queries address it: own keys of mappings only (so `__proto__`
 * or `constructor` find nothing), and into every element of a list (`log.data.items.name` → the names).
 * A missing value is null.
 */
export function valueAtPath(data: unknown, path: string): unknown {
  let values: unknown[] = [data];
  let intoList = false;
  for (const key of path.split('.')) {
    values = values.flatMap((value) => {
      const elements = Array.isArray(value) ? value : [value];
      if (Array.isArray(value)) intoList = true;
      return elements.flatMap((element) => (isMapping(element) && Object.hasOwn(element, key) ? [element[key]] : []));
    });
  }
  return intoList ? values : (values[0] ?? null);
}

/** Key order inside mappings does not change the fingerprint: the same payload sent twice aggregates. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isMapping(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  return value ?? null;
}

/**
 * sha256 (hex) of the router, the `by` paths and their values: alerts aggregate only when the same router's
 * aggregate action sees the same values at the same paths. The alerts service scopes it to the account.
 */
export function aggregateFingerprint(routerId: string, by: readonly string[], data: unknown): string {
  const values = by.map((path) => canonical(valueAtPath(data, path)));
  return createHash('sha256').update(JSON.stringify([routerId, by, values])).digest('hex');
}
