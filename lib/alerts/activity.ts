// The alert events of lib/activity/events.ts, read from an alert change's own transaction once it committed: the
// alert item it puts and the log entries it writes, of either item shape (created, paged, dropped, acknowledged,
// resolved). One place sees every change — API, webhook, timers, actions from messages — and only what was stored
// is told.
// docs/configuration.md, "What npm start prints".
import { LogLevelThreshold } from '@aws-lambda-powertools/logger';
import type { AlertItem } from './items.ts';
import { entriesPut } from './log-items.ts';
import type { TransactItem } from '../db/writes.ts';
import { logger } from '../logger.ts';
import { alertAcknowledged, alertCreated, alertDropped, alertEscalated, alertResolved, type AlertEscalated, type AlertRef } from '../activity/events.ts';
import { idsInText, namesForLines, withNames, type Names, type NameWanted } from '../activity/names.ts';

/** Who acted on an alert, by id: a person, or the integration whose alert it is. */
export interface ActorId {
  type: 'account_user' | 'integration';
  id: string;
}

/** An alert event before names are looked up. */
export type AlertDraft =
  | { kind: 'created'; actor: ActorId }
  | { kind: 'escalated'; team_id: string | null; layer: number | null; pass: number | null; reason: AlertEscalated['reason']; account_user_ids: string[] }
  | { kind: 'dropped'; reasons: string[] }
  | { kind: 'acknowledged' | 'resolved'; actor: ActorId; channel: string };

/** Why a layer was entered, from the other entries of the same step (the first that applies). */
const REASONS: readonly [string, AlertEscalated['reason']][] = [
  ['created', 'new'],
  ['repeated', 'repeat'],
  ['reassigned', 'reassigned'],
  ['rejected', 'rejected'],
  ['timeout', 'timeout'],
];

/** A message action's channel, from its log entry ("Acknowledged from SMS by account user …", lib/alerts/message-owner.ts). */
function channelOfMessageAction(message: string): string {
  const words = / from (.+?) by /.exec(message)?.[1];
  if (!words || words === 'a message') return 'message';
  return words === 'a phone call' ? 'voice' : words.toLowerCase();
}

/**
 * The alert a committed transaction changed and the events it tells, or undefined when it is not one alert's change
 * (the rule of the outgoing webhook events: exactly one alert item put). Pure.
 */
export function alertActivity(items: readonly TransactItem[]): { alert: AlertItem; drafts: AlertDraft[] } | undefined {
  const puts = items.flatMap((item) => ('Put' in item ? [item.Put.Item as Record<string, unknown>] : []));
  const alerts = puts.filter((item) => item.type === 'ALERT') as unknown as AlertItem[];
  if (alerts.length !== 1) return undefined;
  const alert = alerts[0]!;
  const logs = entriesPut(puts, alert.id);
  const has = (event: string) => logs.some((log) => log.event === event);
  const source: ActorId = { type: alert.data.source_type === 'Integration' ? 'integration' : 'account_user', id: alert.data.source_id };
  const drafts: AlertDraft[] = [];
  if (has('created')) drafts.push({ kind: 'created', actor: source });

  const reason = REASONS.find(([event]) => has(event))?.[1] ?? 'delayed';
  const layers = new Map<string, Extract<AlertDraft, { kind: 'escalated' }>>();
  for (const log of logs.filter((l) => l.event === 'paged' && l.account_user_id)) {
    const key = log.team_id ? `${log.team_id}:${log.layer}:${log.pass}` : `direct:${log.account_user_id}`;
    const entry = layers.get(key) ?? { kind: 'escalated', team_id: log.team_id ?? null, layer: log.layer ?? null, pass: log.pass ?? null, reason, account_user_ids: [] };
    entry.account_user_ids.push(log.account_user_id!);
    layers.set(key, entry);
  }
  drafts.push(...layers.values());

  for (const action of ['acknowledged', 'resolved'] as const) {
    const log = logs.find((l) => l.event === action);
    if (!log) continue;
    const fromMessage = logs.find((l) => l.event === 'message_action');
    const actor: ActorId = log.account_user_id ? { type: 'account_user', id: log.account_user_id } : { type: 'integration', id: source.id };
    const channel = fromMessage ? channelOfMessageAction(fromMessage.message) : actor.type === 'integration' ? 'webhook' : 'api';
    drafts.push({ kind: action, actor, channel });
  }

  const dropped = logs.find((l) => l.event === 'dropped');
  if (dropped) {
    // "Escalation of team X ended: why." → "team X: why".
    const ended = logs.filter((l) => l.event === 'exhausted').map((l) => l.message.replace(/^Escalation of (.+?) ended: /, '$1: ').replace(/\.$/, ''));
    drafts.push({ kind: 'dropped', reasons: ended.length > 0 ? ended : [dropped.message.replace(/^Alert dropped: /, '').replace(/\.$/, '')] });
  }
  return { alert, drafts };
}

/** Every id the drafts need a name for. Pure. */
function wantedBy(drafts: readonly AlertDraft[]): NameWanted {
  const teams: string[] = [];
  const people: string[] = [];
  const integrations: string[] = [];
  const actor = (a: ActorId) => (a.type === 'account_user' ? people : integrations).push(a.id);
  for (const draft of drafts) {
    if (draft.kind === 'escalated') {
      if (draft.team_id) teams.push(draft.team_id);
      people.push(...draft.account_user_ids);
    } else if (draft.kind === 'dropped') {
      for (const reason of draft.reasons) {
        const ids = idsInText(reason);
        teams.push(...ids.teams);
        people.push(...ids.people);
      }
    } else actor(draft.actor);
  }
  return { teams, people, integrations };
}

const actorFields = (actor: ActorId, names: Names) => ({
  by_type: actor.type,
  by_id: actor.id,
  by_name: actor.type === 'account_user' ? names.person(actor.id) : names.integration(actor.id),
});

/** Logs the events of one committed alert change. Never throws: the change is stored, a line is not worth failing it. */
export async function announceAlertChange(items: readonly TransactItem[]): Promise<void> {
  try {
    const change = alertActivity(items);
    if (!change || change.drafts.length === 0) return;
    // Below INFO only the warning (a dropped alert) is printed: no name is read for lines nobody sees.
    const drafts = logger.level <= LogLevelThreshold.INFO ? change.drafts : change.drafts.filter((d) => d.kind === 'dropped');
    if (drafts.length === 0 || logger.level > LogLevelThreshold.WARN) return;
    const { alert } = change;
    const names = await namesForLines(alert.accountId, wantedBy(drafts));
    const ref: AlertRef = { alert_id: alert.id, alert_prefix_id: alert.prefixId, title: alert.data.title };
    for (const draft of drafts) {
      if (draft.kind === 'created') alertCreated({ ...ref, ...actorFields(draft.actor, names), urgency: alert.data.urgency, status: alert.data.status });
      else if (draft.kind === 'escalated') {
        const { kind: _kind, ...fields } = draft;
        alertEscalated({ ...ref, ...fields, team_name: draft.team_id ? names.team(draft.team_id) : null, people: draft.account_user_ids.map((id) => names.person(id)) });
      } else if (draft.kind === 'dropped') alertDropped({ ...ref, reasons: draft.reasons.map((reason) => withNames(reason, names)) });
      else (draft.kind === 'acknowledged' ? alertAcknowledged : alertResolved)({ ...ref, ...actorFields(draft.actor, names), channel: draft.channel });
    }
  } catch (error) {
    logger.warn('Alert events not logged', { error: error as Error });
  }
}
