// How an alert list is answered: the common lists (newest or oldest first, optionally one status or one thirdparty_id) read one page of
// an index and take total_count from a counter, so they cost O(offset + page) whatever the account holds; every
// other query (other filters, `q`, another sort) reads the narrowest index whole and runs the list engine over it.
// Costs: docs/alerts.md, "Lists".
import { getTeam } from '../teams/service.ts';
import { renderAlert } from './items.ts';
import { alertCount, alertPage, allAlerts, type AlertIndex, type CountedAlertIndex } from './store.ts';

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
  | { readonly kind: 'page'; readonly index: CountedAlertIndex; readonly ascending: boolean }
  | { readonly kind: 'scan'; readonly index: CountedAlertIndex };

type ListFilter = AlertListQuery['filters'][number];

const isEquality = (f: ListFilter): f is ListFilter & { value: string } => f.op === 'equals' && 'value' in f && typeof f.value === 'string';

/** The `<attribute>=<value>` equality filter of a query, when it has one. */
function equalityFilter(query: AlertListQuery, attribute: string): string | undefined {
  const filter = query.filters.find((f) => f.attribute === attribute);
  return filter && isEquality(filter) ? filter.value : undefined;
}

/** The index a query reads: the team's, else the thirdparty_id's, else the status's, else the account's. */
function baseIndex(query: AlertListQuery, scope: { teamId?: string }): CountedAlertIndex {
  if (scope.teamId !== undefined) return { by: 'team', teamId: scope.teamId };
  const thirdpartyId = equalityFilter(query, 'thirdparty_id');
  if (thirdpartyId !== undefined) return { by: 'thirdparty', thirdpartyId };
  const status = equalityFilter(query, 'status');
  return status !== undefined ? { by: 'status', status } : { by: 'account' };
}

/** Whether the index alone answers this filter (the equality it is keyed by). */
function indexAnswers(index: AlertIndex, filter: ListFilter): boolean {
  if (!isEquality(filter)) return false;
  if (index.by === 'status') return filter.attribute === 'status' && filter.value === index.status;
  if (index.by === 'thirdparty') return filter.attribute === 'thirdparty_id' && filter.value === index.thirdpartyId;
  return false;
}

/** Pure: which index answers the query, and whether one page of it does (see the module comment). */
export function planAlertList(query: AlertListQuery, scope: { teamId?: string } = {}): AlertListPlan {
  const base = baseIndex(query, scope);
  const sortIsCreation = query.sort === undefined || query.sort === 'created_at';
  const onlyIndexed = query.filters.every((f) => indexAnswers(base, f));
  if (query.q === undefined && sortIsCreation && onlyIndexed) {
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
  const data = items.map(renderAlert);
  return { data, has_more: query.offset + data.length < total, total_count: total };
}

/** Every alert of the plan's index as API objects, for the list engine. */
export async function alertObjects(accountId: string, index: AlertIndex): Promise<Record<string, unknown>[]> {
  return (await allAlerts(accountId, index)).map(renderAlert);
}

/** The team of GET /teams/:id/alerts (404 when it is not the account's), by canonical id. */
export async function teamIdOf(accountId: string, idOrPrefixId: string): Promise<string> {
  return (await getTeam(accountId, idOrPrefixId)).id;
}
