// How an alert list is answered: the common lists (newest or oldest first, optionally one status) read one page of
// an index and take total_count from a counter, so they cost O(offset + page) whatever the account holds; every
// other query (other filters, `q`, another sort) reads the narrowest index whole and runs the list engine over it.
// Costs: docs/alerts.md, "Lists".
import { getTeam } from '../teams/service.ts';
import { render } from '../db/repository.ts';
import { alertCount, alertPage, allAlerts, type AlertIndex } from './store.ts';

/** The parsed list query, as the list engine reads it (docs/lists.md). */
export interface AlertListQuery {
  readonly limit: number;
  readonly offset: number;
  readonly filters: readonly ({ attribute: string; op: string; value?: string | null } | { attribute: string; op: 'between'; from: string; to: string })[];
  readonly sort: string | undefined;
  readonly direction: 'asc' | 'desc' | undefined;
  readonly q: string | undefined;
}

export type AlertListPlan =
  | { readonly kind: 'page'; readonly index: AlertIndex; readonly ascending: boolean }
  | { readonly kind: 'scan'; readonly index: AlertIndex };

/** The `status=<s>` equality filter of a query, when it has one. */
function statusFilter(query: AlertListQuery): string | undefined {
  const filter = query.filters.find((f) => f.attribute === 'status');
  return filter && filter.op === 'equals' && 'value' in filter && typeof filter.value === 'string' ? filter.value : undefined;
}

/** Pure: which index answers the query, and whether one page of it does (see the module comment). */
export function planAlertList(query: AlertListQuery, scope: { teamId?: string } = {}): AlertListPlan {
  const status = statusFilter(query);
  const base: AlertIndex = scope.teamId !== undefined ? { by: 'team', teamId: scope.teamId } : status !== undefined ? { by: 'status', status } : { by: 'account' };
  const sortIsCreation = query.sort === undefined || query.sort === 'created_at';
  const onlyStatus = query.filters.every((f) => f.attribute === 'status' && base.by === 'status');
  if (query.q === undefined && sortIsCreation && onlyStatus) {
    // The default order is newest first; `sort=created_at` alone means ascending (docs/lists.md).
    const ascending = query.sort === undefined ? query.direction === 'asc' : query.direction !== 'desc';
    return { kind: 'page', index: base, ascending };
  }
  return { kind: 'scan', index: base };
}

export interface AlertListPage {
  data: Record<string, unknown>[];
  has_more: boolean;
  total_count: number;
}

/** One page from the index, total_count from its counter. */
export async function pageOfAlerts(accountId: string, plan: Extract<AlertListPlan, { kind: 'page' }>, query: AlertListQuery): Promise<AlertListPage> {
  const [items, total] = await Promise.all([alertPage(accountId, plan.index, query.offset, query.limit, plan.ascending), alertCount(accountId, plan.index)]);
  const data = items.map((item) => render(item));
  return { data, has_more: query.offset + data.length < total, total_count: total };
}

/** Every alert of the plan's index as API objects, for the list engine. */
export async function alertObjects(accountId: string, index: AlertIndex): Promise<Record<string, unknown>[]> {
  return (await allAlerts(accountId, index)).map((item) => render(item));
}

/** The team of GET /teams/:id/alerts (404 when it is not the account's), by canonical id. */
export async function teamIdOf(accountId: string, idOrPrefixId: string): Promise<string> {
  return (await getTeam(accountId, idOrPrefixId)).id;
}
