// The console's alert list, pure parts: which filters a query asks for, which index a view reads, what a bounded
// search matches, and the rows. The page reads alerts through lib/alerts (docs/console.md, "The alert list").
import { ALERT_STATUSES, type AlertStatus } from '../escalation-engine/index.ts';
import type { AlertItem } from '../alerts/items.ts';
import type { AlertIndex, AlertSummary } from '../alerts/store.ts';
import { ALERT_URGENCIES } from '../alerts/schema.ts';
import type { Names } from './names.ts';
import { ageOf } from './display-time.ts';

/** Active alerts first: open, acknowledged, then the rest, each newest first. */
export const STATUS_ORDER: readonly AlertStatus[] = ['open', 'acknowledged', 'queued', 'dropped', 'suppressed', 'resolved'];

export interface AlertFilters {
  readonly status?: AlertStatus;
  readonly team?: string;
  readonly urgency?: string;
  readonly q?: string;
  readonly page: number;
}

/** The filters of a query string; a value that is not one of the choices is a problem naming the parameter. */
export function parseFilters(query: Readonly<Record<string, string | undefined>>): { filters: AlertFilters; problems: string[] } {
  const problems: string[] = [];
  const pick = (name: string) => (query[name] ?? '').trim() || undefined;
  const status = pick('status');
  const urgency = pick('urgency');
  const page = pick('page');
  if (status && !(ALERT_STATUSES as readonly string[]).includes(status)) problems.push(`status must be one of ${ALERT_STATUSES.join(', ')}`);
  if (urgency && !(ALERT_URGENCIES as readonly string[]).includes(urgency)) problems.push(`urgency must be one of ${ALERT_URGENCIES.join(', ')}`);
  const pageNumber = page === undefined ? 1 : Number(page);
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > 400) problems.push('page must be a whole number from 1 to 400');
  const q = pick('q');
  const team = pick('team');
  return {
    filters: {
      ...(status && !problems.length ? { status: status as AlertStatus } : {}),
      ...(urgency && (ALERT_URGENCIES as readonly string[]).includes(urgency) ? { urgency } : {}),
      ...(team ? { team } : {}),
      ...(q ? { q: q.slice(0, 200) } : {}),
      page: Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 400 ? pageNumber : 1,
    },
    problems,
  };
}

const createdMs = (a: Pick<AlertItem, 'createdAt'>) => Date.parse(a.createdAt);

/**
 * How a view is read (docs/console.md, "The alert list"): no filter or only a status, by status groups (counters and
 * gsi2 pages, active first); only a team, a page of the team index (newest first) and the team's counter; anything
 * else (urgency, text, or a team with a status) searches the newest alerts of the narrowest index — a team with a
 * status has its own (every entry matches, so the walk stops at the page) — at most CONSOLE_SEARCH_WINDOW of them. Pure.
 */
export type AlertView = { readonly kind: 'statuses' } | { readonly kind: 'team'; readonly teamId: string } | { readonly kind: 'search'; readonly index: Exclude<AlertIndex, { by: 'thirdparty' }> };

export function viewOf(filters: AlertFilters): AlertView {
  if (!filters.urgency && !filters.q && !filters.team) return { kind: 'statuses' };
  if (filters.team && !filters.urgency && !filters.q && !filters.status) return { kind: 'team', teamId: filters.team };
  if (filters.team) return { kind: 'search', index: filters.status ? { by: 'team-status', teamId: filters.team, status: filters.status } : { by: 'team', teamId: filters.team } };
  return { kind: 'search', index: filters.status ? { by: 'status', status: filters.status } : { by: 'account' } };
}

/** Whether an alert passes the filters (a search checks all of them; the index it walks answers one again). Pure. */
export function matches(alert: AlertSummary, filters: AlertFilters): boolean {
  if (filters.status && alert.data.status !== filters.status) return false;
  if (filters.urgency && alert.data.urgency !== filters.urgency) return false;
  if (filters.team && !alert.data.destination_team_ids.includes(filters.team)) return false;
  if (filters.q) {
    const needle = filters.q.toLowerCase();
    const haystack = `${alert.data.title}\n${alert.data.description ?? ''}\n${alert.prefixId}`.toLowerCase();
    if (!haystack.includes(needle)) return false;
  }
  return true;
}

/**
 * Collects the matches of a walk newest first until `wanted` are found (the page's and one more, which says there
 * is a next page): `visit` answers whether to read on. Pure.
 */
export function matchCollector(filters: AlertFilters, wanted: number): { found: AlertSummary[]; visit: (alerts: readonly AlertSummary[]) => boolean } {
  const found: AlertSummary[] = [];
  return {
    found,
    visit: (alerts) => {
      for (const alert of alerts) if (found.length < wanted && matches(alert, filters)) found.push(alert);
      return found.length < wanted;
    },
  };
}

/** The API request that answers a search over every alert (the console's reads only the newest), as a path. Pure. */
export function apiSearchPath(filters: AlertFilters): string {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.urgency) query.set('urgency', filters.urgency);
  if (filters.q) query.set('q', filters.q);
  const text = query.toString();
  const base = filters.team ? `/api/v4/teams/${encodeURIComponent(filters.team)}/alerts` : '/api/v4/alerts';
  return text ? `${base}?${text}` : base;
}

export interface AlertRow {
  readonly id: string;
  readonly prefixId: string;
  readonly title: string;
  readonly urgency: string;
  readonly status: string;
  readonly statusClass: string;
  readonly age: string;
  readonly createdAt: string;
  readonly teams: string;
  readonly paged: string;
}

/** What the list shows of an alert: names instead of ids, the people its escalation paged. Pure. */
export function alertRow(alert: AlertItem, names: Names, now: number): AlertRow {
  const paged = [...new Set((alert.escalation?.workflows ?? []).map((w) => w.account_user_id))].map((id) => names.person(id));
  const status = alert.data.status;
  return {
    id: alert.id,
    prefixId: alert.prefixId,
    title: alert.data.title,
    urgency: alert.data.urgency,
    status,
    statusClass: status === 'open' || status === 'acknowledged' || status === 'resolved' ? `status-${status}` : 'status-other',
    age: ageOf(createdMs(alert), now),
    createdAt: alert.createdAt,
    teams: alert.data.destination_team_ids.map((t) => names.team(t)).join(', ') || '—',
    paged: paged.join(', ') || 'nobody yet',
  };
}
