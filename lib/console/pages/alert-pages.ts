// The alert pages (docs/console.md, "Pages"): the list, active first, with filters and paging; one alert with its
// timeline, notifications and comments; and its forms, which act through the same services as the API.
import { acknowledgeAlert, rejectAlert, resolveAlert } from '../../alerts/actions.ts';
import type { AlertItem } from '../../alerts/items.ts';
import { alertCount, alertPage as readAlertPage, getAlertItem, getAlertItems, walkNewest } from '../../alerts/store.ts';
import { alertLogs, alertNotifications } from '../../alerts/views.ts';
import { commentCreate } from '../../comments/schema.ts';
import { listCommentsOf } from '../../comments/service.ts';
import { createComment, findCommentParent } from '../../alerts/comments.ts';
import { invalid } from '../../errors.ts';
import { validate } from '../../api-shapes/validate.ts';
import { ALERT_ACTIONS, ALERT_STATUSES, allowedFrom, type AlertAction } from '../../escalation-engine/index.ts';
import { ALERT_URGENCIES } from '../../alerts/schema.ts';
import { CONSOLE_PAGE_SIZE, CONSOLE_SEARCH_WINDOW } from '../../limits.ts';
import { alertRow, apiSearchPath, matchCollector, parseFilters, STATUS_ORDER, viewOf, type AlertFilters } from '../alert-list.ts';
import type { ConsoleRequest, SignedIn } from '../request.ts';
import { redirect } from '../headers.ts';
import { namesOf } from '../names.ts';
import type { PageResult } from '../page.ts';
import { alertList, alertPage, type TimelineEntry } from '../templates/alert-templates.ts';
import { displayZoneOf, wallTime } from '../display-time.ts';
import type { HttpResult } from '../../http/responses.ts';

const REFRESH_SECONDS = 30;

type Account = SignedIn & { caller: NonNullable<SignedIn['caller']> };

/** A view's page of alerts; `total` exact, or at least this many when `more` (a search that stopped at the next page). */
interface ReadAlerts {
  alerts: AlertItem[];
  total: number;
  /** A search: how many of the newest alerts it read, and whether it stopped at the window before the index ended. */
  search?: { read: number; windowFull: boolean; more: boolean };
}

/** The page of a view without a search: status groups (active first) or a team's index page (newest first). */
async function readIndexPages(accountId: string, filters: AlertFilters, offset: number): Promise<ReadAlerts> {
  if (filters.team) {
    const index = { by: 'team', teamId: filters.team } as const;
    const [alerts, total] = await Promise.all([readAlertPage(accountId, index, offset, CONSOLE_PAGE_SIZE), alertCount(accountId, index)]);
    return { alerts, total };
  }
  const statuses = filters.status ? [filters.status] : STATUS_ORDER;
  const counts = await Promise.all(statuses.map((status) => alertCount(accountId, { by: 'status', status })));
  // The slice of each status group the page covers, from the counters; then every slice read at once.
  const slices: { status: string; skip: number; take: number }[] = [];
  let skip = offset;
  let need = CONSOLE_PAGE_SIZE;
  for (const [i, status] of statuses.entries()) {
    if (need <= 0) break;
    if (skip >= counts[i]!) {
      skip -= counts[i]!;
      continue;
    }
    const take = Math.min(need, counts[i]! - skip);
    slices.push({ status, skip, take });
    need -= take;
    skip = 0;
  }
  const pages = await Promise.all(slices.map((s) => readAlertPage(accountId, { by: 'status', status: s.status }, s.skip, s.take)));
  return { alerts: pages.flat(), total: counts.reduce((a, b) => a + b, 0) };
}

/**
 * One page of alerts and the total (docs/console.md, "The alert list"): index pages and counters when the indexes
 * answer the filters, else a search of the newest CONSOLE_SEARCH_WINDOW alerts of the narrowest index that stops
 * once the page and one more match are found. Either way the work does not grow with the account.
 */
async function readAlerts(accountId: string, filters: AlertFilters): Promise<ReadAlerts> {
  const offset = (filters.page - 1) * CONSOLE_PAGE_SIZE;
  const view = viewOf(filters);
  if (view.kind !== 'search') return readIndexPages(accountId, filters, offset);
  const wanted = offset + CONSOLE_PAGE_SIZE + 1;
  const collector = matchCollector(filters, wanted);
  const walk = await walkNewest(accountId, view.index, CONSOLE_SEARCH_WINDOW, wanted, collector.visit);
  const onPage = collector.found.slice(offset, offset + CONSOLE_PAGE_SIZE);
  // The search read summaries; the page's rows need whole alerts (who was paged): one BatchGetItem.
  const byId = new Map((await getAlertItems(accountId, onPage.map((a) => a.id))).map((a) => [a.id, a]));
  const more = collector.found.length >= wanted;
  return {
    alerts: onPage.map((a) => byId.get(a.id)).filter((a): a is AlertItem => a !== undefined),
    total: more ? wanted - 1 : collector.found.length,
    search: { read: walk.read, windowFull: !walk.ended && !more, more },
  };
}

function pageLink(filters: AlertFilters, page: number): string {
  const query = new URLSearchParams();
  for (const name of ['status', 'team', 'urgency', 'q'] as const) if (filters[name]) query.set(name, filters[name]);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `/alerts?${text}` : '/alerts';
}

/** Which alerts a search reads, in words: those of the team, of the status, or of the account. */
function searchScope(filters: AlertFilters, teamName: (id: string) => string): string {
  if (filters.team) return filters.status ? `of ${teamName(filters.team)} with status ${filters.status}` : `of ${teamName(filters.team)}`;
  return filters.status ? `with status ${filters.status}` : 'of the account';
}

export async function alertsPage(request: ConsoleRequest, who: Account): Promise<PageResult> {
  const { filters, problems } = parseFilters(request.query);
  if (problems.length) throw invalid(problems);
  // Names and alerts are independent reads: one round for both.
  const [cachedNames, { alerts, total, search }] = await Promise.all([namesOf(who.caller.accountId), readAlerts(who.caller.accountId, filters)]);
  const named = alerts.flatMap((a) => [...a.data.destination_team_ids, ...(a.escalation?.workflows ?? []).map((w) => w.account_user_id)]);
  const names = cachedNames.knows(named) ? cachedNames : await namesOf(who.caller.accountId, named);
  if (filters.team && !names.teams.some((t) => t.id === filters.team)) throw invalid('team must be one of the account’s teams');
  const from = total === 0 ? 0 : (filters.page - 1) * CONSOLE_PAGE_SIZE + 1;
  const to = from === 0 ? 0 : from + alerts.length - 1;
  const choice = (value: string, selected: string | undefined, label = value) => ({ value, label, selected: value === selected });
  return {
    title: 'Alerts',
    script: true,
    body: alertList({
      rows: alerts.map((a) => alertRow(a, names, request.now)),
      statuses: ALERT_STATUSES.map((s) => choice(s, filters.status)),
      teams: names.teams.map((t) => choice(t.id, filters.team, t.name)),
      urgencies: ALERT_URGENCIES.map((u) => choice(u, filters.urgency)),
      q: filters.q ?? '',
      total,
      totalText: search?.more ? `of more than ${to}` : `of ${total}`,
      ...(search ? { search: { window: CONSOLE_SEARCH_WINDOW.toLocaleString('en'), scope: searchScope(filters, names.team), apiPath: apiSearchPath(filters) } } : {}),
      from,
      to,
      ...(filters.page > 1 ? { previous: pageLink(filters, filters.page - 1) } : {}),
      ...(to < total || search?.more ? { next: pageLink(filters, filters.page + 1) } : {}),
      refreshSeconds: REFRESH_SECONDS,
    }),
  };
}

const ACTION_LABELS: Record<AlertAction, string> = { acknowledge: 'Acknowledge', resolve: 'Resolve', reject: 'Reject' };
const DONE: Readonly<Record<string, string>> = { acknowledge: 'Acknowledged.', resolve: 'Resolved.', reject: 'Rejected: the page goes on to the next person.', comment: 'Comment added.' };

/** The transitions the engine allows from `status`, as the page offers them. Pure. */
export const offeredActions = (status: AlertItem['data']['status']) =>
  ALERT_ACTIONS.filter((action) => allowedFrom(action).includes(status)).map((action) => ({ action, label: ACTION_LABELS[action], danger: action === 'reject' }));

export async function alertDetailPage(request: ConsoleRequest, who: Account): Promise<PageResult> {
  const accountId = who.caller.accountId;
  const alert = await getAlertItem(accountId, request.params.id ?? '');
  const parent = await findCommentParent(accountId, 'Alert', alert.id);
  const [names, logs, notifications, comments] = await Promise.all([
    namesOf(accountId, [...alert.data.destination_team_ids, ...alert.data.destination_account_user_ids]),
    alertLogs(accountId, alert.id),
    alertNotifications(accountId, alert.id),
    listCommentsOf(accountId, parent),
  ]);
  const zone = displayZoneOf(who.person.time_zone) ?? 'UTC';
  const when = (iso: unknown) => (typeof iso === 'string' && iso ? wallTime(Date.parse(iso), zone) : '—');
  const timeline: (TimelineEntry & { ms: number })[] = [
    ...logs.map((l) => ({ at: String(l.created_at), ms: Date.parse(String(l.created_at)), when: when(l.created_at), text: names.withNames(String(l.message ?? l.event ?? '')) })),
    ...notifications
      .filter((n) => n.type === 'alert.open' || n.type === 'alert_page' || n.layer !== null)
      .map((n) => ({
        at: String(n.created_at),
        ms: Date.parse(String(n.created_at)),
        when: when(n.created_at),
        text: `Paged ${names.person(n.account_user_id as string)} by ${String(n.channel)}: ${String(n.status)}${n.reason ? ` (${String(n.reason)})` : n.error ? ` (${String(n.error)})` : ''}`,
      })),
  ].sort((a, b) => a.ms - b.ms);
  const done = request.query.done ? DONE[request.query.done] : undefined;
  return {
    title: alert.data.title,
    body: alertPage({
      id: alert.id,
      prefixId: alert.prefixId,
      title: alert.data.title,
      fields: [
        { name: 'Status', value: alert.data.status },
        { name: 'Urgency', value: alert.data.urgency },
        { name: 'Id', value: `${alert.prefixId} (#${alert.tinyId})` },
        { name: 'Created', value: when(alert.createdAt) },
        { name: 'Teams', value: alert.data.destination_team_ids.map((t) => names.team(t)).join(', ') || '—' },
        { name: 'People', value: alert.data.destination_account_user_ids.map((p) => names.person(p)).join(', ') || '—' },
        { name: 'Source', value: `${alert.data.source_type === 'Integration' ? 'integration' : names.person(alert.data.source_id)}` },
        { name: 'Acknowledged', value: when(alert.data.acknowledged_at) },
        { name: 'Resolved', value: when(alert.data.resolved_at) },
        { name: 'Tags', value: alert.data.tag_list.join(', ') || '—' },
      ],
      description: alert.data.description,
      actions: offeredActions(alert.data.status),
      csrf: who.csrf,
      timeline: timeline.map(({ at, when: w, text }) => ({ at, when: w, text })),
      notifications: notifications.map((n) => ({
        who: names.person(n.account_user_id as string),
        channel: String(n.channel),
        type: String(n.type),
        status: String(n.status),
        detail: String(n.reason ?? n.error ?? ''),
        when: when(n.created_at),
      })),
      comments: comments
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((c) => ({ by: c.data.created_by_name || names.person(c.data.account_user_id), when: when(c.createdAt), body: c.data.body })),
      ...(done ? { done } : {}),
    }),
  };
}

const ACTIONS: Record<AlertAction, typeof acknowledgeAlert> = { acknowledge: acknowledgeAlert, resolve: resolveAlert, reject: rejectAlert };

/** POST /alerts/<id>/<action>: the API's service, then back to the alert (303). A refused transition is a 422 page. */
export const alertAction = (action: AlertAction) => async (request: ConsoleRequest, who: Account): Promise<HttpResult> => {
  const alert = await ACTIONS[action]({ accountId: who.caller.accountId, accountUserId: who.caller.accountUserId }, request.params.id ?? '');
  return redirect(`/alerts/${alert.id}?done=${action}`);
};

export async function alertComment(request: ConsoleRequest, who: Account): Promise<HttpResult> {
  const accountId = who.caller.accountId;
  const parent = await findCommentParent(accountId, 'Alert', request.params.id ?? '');
  const input = validate(commentCreate, { body: request.form.body ?? '' });
  await createComment(accountId, { accountUserId: who.caller.accountUserId, displayName: who.person.name }, input, parent);
  return redirect(`/alerts/${request.params.id}?done=comment`);
}
