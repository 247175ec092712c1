// Sorting: the default order (created_at, then id; newest first) or one attribute, nulls last, stable.

import type { ListOptions, ListQuery } from './query.ts';
import { comparableOf, MISSING, shapeOf, visibleAt, type Comparable, type Kind } from './shape.ts';

export interface SortPlan {
  keys: readonly { path: readonly string[]; kind: Kind; descending: boolean }[];
}

export function planSort(items: readonly object[], query: ListQuery, options: ListOptions, problems: string[]): SortPlan {
  if (query.sort === undefined) {
    const descending = query.direction !== 'asc';
    return {
      keys: ['created_at', 'id'].map((attribute) => {
        const path = [attribute];
        return { path, kind: shapeOf(items, path).kind, descending };
      }),
    };
  }
  const attribute = query.sort;
  const path = attribute.split('.');
  const shape = shapeOf(items, path);
  const known = options.sortable
    ? options.sortable.some((s) => attribute === s || attribute.startsWith(`${s}.`))
    : items.length === 0 || shape.present;
  if (!known) {
    problems.push(`sort: ${attribute} is not an attribute of this resource`);
  } else if (shape.arrays || shape.objects) {
    problems.push(`sort: ${attribute} holds ${shape.arrays ? 'arrays' : 'objects'} and cannot be sorted`);
  }
  return { keys: [{ path, kind: shape.kind, descending: query.direction === 'desc' }] };
}

function compareComparables(a: Comparable | undefined, b: Comparable | undefined, descending: boolean): number {
  if (a === b) return 0;
  // null and missing last, whatever the direction
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const order = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -order : order;
}

export function sortItems<T extends object>(items: readonly T[], plan: SortPlan): T[] {
  const rows = items.map((item, index) => ({
    item,
    index,
    keys: plan.keys.map((key) => {
      const value = visibleAt(item, key.path);
      return value === MISSING ? undefined : comparableOf(key.kind, value);
    }),
  }));
  rows.sort((a, b) => {
    for (let k = 0; k < plan.keys.length; k++) {
      const order = compareComparables(a.keys[k], b.keys[k], (plan.keys[k] as SortPlan['keys'][number]).descending);
      if (order !== 0) return order;
    }
    return a.index - b.index; // stable: ties keep the collection's order
  });
  return rows.map((row) => row.item);
}
