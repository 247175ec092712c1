// Views of one alert: its log, its notifications and its workflows (docs/alerts.md).
import { type Escalation, type PersonWorkflow } from '../escalation-engine/index.ts';
import { type AlertItem } from './items.ts';
import { getAlertItem, logsOf, notificationsOf } from './store.ts';

export async function alertLogs(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>[]> {
  const alert = await getAlertItem(accountId, idOrPrefixId);
  return (await logsOf(accountId, alert.id)).map((entry) => ({ ...entry, alert_id: alert.id }));
}

export async function alertNotifications(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>[]> {
  const alert = await getAlertItem(accountId, idOrPrefixId);
  return (await notificationsOf(accountId, alert.id)).map((n) => ({
    id: n.id,
    alert_id: alert.id,
    account_user_id: n.account_user_id,
    channel: n.channel,
    type: n.notification_type,
    status: n.status,
    layer: n.layer,
    pass: n.pass,
    outbox_id: n.outbox_id,
    reason: n.reason,
    created_at: n.created_at,
    sent_at: n.sent_at,
    attempts: n.attempts ?? 0,
    provider: n.provider ?? null,
    provider_message_id: n.provider_message_id ?? null,
    error: n.error ?? null,
    next_attempt_at: n.next_attempt_at ?? null,
    delivered_at: n.delivered_at ?? null,
  }));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A destination's escalation as a workflow row: open while it pages (or hands on), then how it ended. */
function escalationRow(alert: AlertItem, e: Escalation): Record<string, unknown> {
  const people = alert.escalation.workflows.filter((w) => w.escalation === e.index);
  const ended = e.phase !== 'waiting' && e.phase !== 'reassigning';
  const lastClosed = people.reduce<number | null>((latest, w) => (w.closed_at !== null && (latest === null || w.closed_at > latest) ? w.closed_at : latest), null);
  const status = !ended ? 'open' : e.phase === 'stopped' ? (e.ended_reason === 'acknowledged' ? 'acknowledged' : 'closed') : e.phase === 'exhausted' ? 'timed_out' : 'closed';
  return {
    id: `${alert.id}-E${e.index}`,
    alert_id: alert.id,
    kind: e.destination.kind,
    escalation: e.index,
    team_id: e.destination.kind === 'team' ? e.destination.team_id : null,
    account_user_id: e.destination.kind === 'account_user' ? e.destination.account_user_id : null,
    reassigned_from: e.reassigned_from,
    layer: e.layer,
    pass: e.pass,
    status,
    phase: e.phase,
    ended_reason: e.ended_reason,
    started_at: iso(e.started_at),
    deadline_at: iso(e.deadline_at),
    closed_at: ended ? iso(lastClosed ?? e.started_at) : null,
  };
}

function personRow(alert: AlertItem, w: PersonWorkflow, index: number): Record<string, unknown> {
  const destination = alert.escalation.escalations[w.escalation]?.destination;
  return {
    id: `${alert.id}-W${index}`,
    alert_id: alert.id,
    kind: 'account_user',
    escalation: w.escalation,
    team_id: destination?.kind === 'team' ? destination.team_id : null,
    account_user_id: w.account_user_id,
    reassigned_from: null,
    layer: w.layer,
    pass: w.pass,
    status: w.status,
    phase: null,
    ended_reason: null,
    started_at: iso(w.started_at),
    deadline_at: iso(w.deadline_at),
    closed_at: iso(w.closed_at),
  };
}

/**
 * GET /alerts/:id/workflows: one row per destination escalation whose destination is a team (kind `team`), and one
 * per person paged on a layer of a pass (kind `account_user`; a direct page is one of these), in the order started.
 */
export async function alertWorkflows(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>[]> {
  const alert = await getAlertItem(accountId, idOrPrefixId);
  const teams = alert.escalation.escalations.filter((e) => e.destination.kind === 'team').map((e) => escalationRow(alert, e));
  const people = alert.escalation.workflows.map((w, i) => personRow(alert, w, i));
  return [...teams, ...people];
}
