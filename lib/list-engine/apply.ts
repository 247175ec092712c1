// Applying a list query to a loaded collection: filters and q → total_count → sort → page.

import { invalid } from '../errors.ts';
import { compileFilter, searchPredicate, type Predicate } from './filters.ts';
import { readListQuery, type ListOptions, type ListPage, type ListQuery } from './query.ts';
import { shapeOf } from './shape.ts';
import { planSort, sortItems, type SortPlan } from './sort.ts';

interface Plan {
  predicates: Predicate[];
  sort: SortPlan;
  problems: string[];
}

function planList(items: readonly object[], query: ListQuery, options: ListOptions): Plan {
  const problems: string[] = [];
  const predicates: Predicate[] = [];
  for (const filter of query.filters) {
    const shape = shapeOf(items, filter.attribute.split('.'));
    if (!shape.present) continue; // unknown filter attributes are ignored
    const predicate = compileFilter(filter, shape, problems);
    if (predicate) predicates.push(predicate);
  }
  const sort = planSort(items, query, options, problems);
  return { predicates, sort, problems };
}

function runPlan<T extends object>(items: readonly T[], query: ListQuery, options: ListOptions, plan: Plan): ListPage<T> {
  const predicates = [...plan.predicates];
  if (query.q !== undefined) predicates.push(searchPredicate(query.q, options.searchFields));
  const matching = predicates.length === 0 ? items : items.filter((item) => predicates.every((p) => p(item)));
  const sorted = sortItems(matching, plan.sort);
  const data = sorted.slice(query.offset, query.offset + query.limit);
  return { data, has_more: query.offset + data.length < sorted.length, total_count: sorted.length };
}

/**
 * Filters, searches, sorts and pages a loaded collection (API representation of each object).
 * 422 naming every problem that needs the collection to be seen: filter values not of the attribute's type,
 * operations that do not apply to it, unknown or unsortable sort attributes.
 */
export function applyList<T extends object>(items: readonly T[], query: ListQuery, options: ListOptions): ListPage<T> {
  const plan = planList(items, query, options);
  if (plan.problems.length > 0) throw invalid(plan.problems);
  return runPlan(items, query, options, plan);
}

/** parseListQuery + applyList in one call, reporting the problems of both together in one 422. */
export function listFromQuery<T extends object>(
  items: readonly T[],
  query: Record<string, string | undefined>,
  options: ListOptions,
): ListPage<T> {
  const { listQuery, problems } = readListQuery(query);
  const plan = planList(items, listQuery, options);
  const all = [...problems, ...plan.problems];
  if (all.length > 0) throw invalid(all);
  return runPlan(items, listQuery, options, plan);
}
