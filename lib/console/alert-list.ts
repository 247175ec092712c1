// The console's alert list, pure parts: which filters a query asks for, the order (active first), and the rows.
// The page reads alerts through lib/alerts (docs/console.md, "Pages").
import { ALERT_STATUSES, type AlertStatus } from '../escalation-engine/index.ts';
import type { AlertItem } from '../alerts/items.ts';
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

const createdMs = (a: AlertItem) => Date.parse(a.createdAt);

/** Sorts alerts active first, newest first within a status. Pure. */
export function activeFirst(alerts: readonly AlertItem[]): AlertItem[] {
  const rank = (a: AlertItem) => STATUS_ORDER.indexOf(a.data.status);
  return [...alerts].sort((a, b) => rank(a) - rank(b) || createdMs(b) - createdMs(a) || (a.id < b.id ? 1 : -1));
}

/** Whether an alert passes the filters the indexes do not answer (urgency, text). Pure. */
export function matches(alert: AlertItem, filters: AlertFilters): boolean {
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
