// Turns the escalation step's effects into the writes of the alert's transaction: log entries (the transaction's
// entries share one log item, ./log-items.ts), a notification
// record per message with the message queued in the outbox (./message-units.ts), drop notifications, and durable
// timers. Rules: docs/alerts.md, "How a step is applied".
import { alertPk } from '../db/keys.ts';
import { findEntity } from '../db/repository.ts';
import { TRANSACTION_ITEMS, type TransactItem } from '../db/writes.ts';
import type { Effect } from '../escalation-engine/index.ts';
import { onCallAt } from '../schedule-engine/index.ts';
import type { OutboxDraft, OutboxTemplate } from '../outbox/outbox.ts';
import type { Channel, NotificationAction, NotificationType } from '../rule-engine/index.ts';
import type { TeamData } from '../teams/schema.ts';
import { timerPutItems, type DurableTimer } from '../timers/index.ts';
import { cycleStep, type CyclePosition } from '../delivery/cycle.ts';
import { choiceOf, matchingActions, type PersonContact } from './channels.ts';
import { loadContacts } from './contacts.ts';
import { loadSchedules } from './destinations.ts';
import { absencesOf } from '../time-off/service.ts';
import { messageTexts } from './message-texts.ts';
import { renderAlert, type AlertItem, type LogEntry } from './items.ts';
import { logEntry, logItemCount, logPuts } from './log-items.ts';
import { messageUnits, messageWriteCount, nextId, notifiedEntry, type CycleNext, type Message, type MessageDecision, type MessageOwner } from './message-units.ts';

// The message types and the step's id source live with the message writes; these paths stay for their callers.
export { messageUnits, nextId, type CycleNext, type Message, type MessageDecision, type MessageOwner } from './message-units.ts';

export interface PlannedWrites {
  writes: TransactItem[];
  /** Timers stored by `writes`; their wake-ups are sent after the commit. */
  timers: DurableTimer[];
}

export const logEntryOfEffect = (effect: Extract<Effect, { type: 'log' }>): LogEntry => ({ event: effect.event, message: effect.message, ...effect.fields });

/** What a notification rule's `ignore` ignores, in an alert's records and `notified` entries. */
const ALERT_NOUN = 'alert';

/** The kind of the timer that writes the pages of a step too large for the step's own transaction. */
export const DELIVER_TIMER_KIND = 'deliver';

/** A durable timer of `alert`: `kind`, due at `dueAt`, with its payload, in the alert's epoch unless one is given. */
export function alertTimer(alert: Pick<AlertItem, 'accountId' | 'id' | 'escalation'>, kind: string, dueAt: string, payload: object, now: number, epoch = alert.escalation.epoch): DurableTimer {
  return { accountId: alert.accountId, ownerType: 'alert', ownerId: alert.id, timerId: nextId(now), kind, dueAt, epoch, payload: payload as Record<string, unknown> };
}

/**
 * What a deliver timer carries: the step's instant, the log entries left out of its transaction, the messages, and
 * (for a create holding back very many router delays) the durable timers too many to store with the alert.
 */
export interface DeliveryPayload {
  at: string;
  logs: LogEntry[];
  messages: Message[];
  timers?: DurableTimer[];
}

/**
 * The writes of the effects of one step of `alert` (already holding the step's state) at `now`, next to
 * `reserved` writes the caller adds (the alert item, counters, a fired marker). When the notification records,
 * outbox messages and logs would not fit in one transaction with them, the messages (and, if they do not fit
 * either, the logs) go to ONE deliver timer due now instead, which writes them in batches (./deferred-pages.ts).
 */
export async function effectWrites(
  alert: AlertItem,
  effects: readonly Effect[],
  now: number,
  extraLogs: readonly LogEntry[] = [],
  reserved = 0,
): Promise<PlannedWrites> {
  const at = new Date(now).toISOString();
  const logs: LogEntry[] = [...extraLogs];
  const messages: Message[] = [];
  const timers: DurableTimer[] = [];
  const texts = await messageTexts(alert, effects);
  for (const effect of effects) {
    if (effect.type === 'log') logs.push(logEntryOfEffect(effect));
    else if (effect.type === 'page') {
      messages.push({ account_user_id: effect.account_user_id, type: 'alert.open', layer: effect.layer, pass: effect.pass, why: texts.page(effect), escalation: effect.escalation });
    } else if (effect.type === 'scheduleTimer') {
      const { kind, dueAt, epoch, escalation, layer, pass } = effect.timer;
      timers.push(alertTimer(alert, kind, new Date(dueAt).toISOString(), { escalation, layer, pass }, now, epoch));
    } else if (effect.type === 'notifyDrop') {
      for (const person of await teamRecipients(alert.accountId, effect.team_id, 'drop', now)) {
        messages.push({ account_user_id: person, type: 'alert.dropped', layer: null, pass: null, why: texts.dropped(effect.team_id) });
      }
    } else if (effect.type === 'notifyStopped') {
      for (const person of effect.account_user_ids) {
        messages.push({ account_user_id: person, type: `alert.${effect.action}`, layer: null, pass: null, why: texts.stopped(effect) });
      }
    } else if (effect.type === 'reassign') {
      // The targets were started by the runner in this step; the team handing the alert on tells its hand-off recipients.
      const from = alert.escalation.escalations[effect.escalation]?.destination;
      if (from?.kind === 'team') {
        for (const person of await teamRecipients(alert.accountId, from.team_id, 'handoff', now)) {
          messages.push({ account_user_id: person, type: 'alert.handoff', layer: null, pass: null, why: texts.handedOn(from.team_id) });
        }
      }
    }
    // `drop` changes only the status (already in the state).
  }
  const pk = alertPk(alert.accountId, alert.id);
  const decisions = await decideMessages(alert, messages, now);
  const messageWrites = decisions.reduce((total, decision) => total + messageWriteCount(decision), 0);
  // The step's entries and its messages' `notified` entries share log items (./log-items.ts): count those items.
  const notified = decisions.map((decision) => notifiedEntry(decision, ALERT_NOUN));
  if (reserved + logItemCount([...logs, ...notified]) + messageWrites + timers.length <= TRANSACTION_ITEMS) {
    const units = await messageUnits(alertMessageOwner(alert), decisions, now);
    const logWrites = stepLogPuts(alert, [...logs, ...units.map((unit) => unit.log)], now);
    return { writes: [...logWrites, ...units.flatMap((unit) => unit.writes), ...timerPutItems(pk, timers, at)], timers: [...timers, ...units.flatMap((unit) => unit.timers)] };
  }
  const keepLogs = reserved + 1 + logItemCount(logs) + timers.length <= TRANSACTION_ITEMS;
  const logWrites = keepLogs ? stepLogPuts(alert, logs, now) : [];
  const payload: DeliveryPayload = { at, logs: keepLogs ? [] : logs, messages };
  const deliver = alertTimer(alert, DELIVER_TIMER_KIND, at, payload, now);
  const allTimers = [...timers, deliver];
  return { writes: [...logWrites, ...timerPutItems(pk, allTimers, at)], timers: allTimers };
}

/** The puts of one transaction's entries of `alert`, stamped at `now` with ids in the order given. */
export const stepLogPuts = (alert: Pick<AlertItem, 'accountId' | 'id'>, entries: readonly LogEntry[], now: number): TransactItem[] => {
  const at = new Date(now).toISOString();
  return logPuts(alert.accountId, alert.id, entries.map((entry) => logEntry(nextId(now), at, entry)));
};

/** Voice calls are for pages only: other notification types never ring (docs/notifications.md). */
const channelsFor = (type: NotificationType, channels: readonly Channel[]): Channel[] => (type === 'alert.open' ? [...channels] : channels.filter((c) => c !== 'voice'));

/** Each message's channels, chosen from the person's notification rule or defaults at `now`. */
export async function decideMessages(alert: AlertItem, messages: readonly Message[], now: number): Promise<MessageDecision[]> {
  if (messages.length === 0) return [];
  const contactOf = await loadContacts(alert.accountId, messages.map((m) => m.account_user_id));
  const object = renderAlert(alert);
  return messages.map((message): MessageDecision => {
    const { contact, reason } = contactOf(message.account_user_id);
    if (!contact) return { message, kind: 'no_contact', reason: reason! };
    // One evaluation of the person's rule gives the channels and, for a page, the cycle's actions.
    const ruleActions = matchingActions(contact, object, message.type, new Date(now));
    const choice = choiceOf(contact, ruleActions);
    if (choice.kind === 'ignored') return { message, kind: 'ignored' };
    const actions = message.type === 'alert.open' && message.escalation !== undefined && choice.via === 'rule' ? ruleActions : undefined;
    if (!actions) return { message, kind: 'channels', contact, via: choice.via, channels: channelsFor(message.type, choice.channels) };
    // A page by a rule starts the person's cycle: this message carries its first step, a timer the rest.
    const step = cycleStep(actions);
    const cycle = step.next ? { actions, position: step.next.position, delayMs: step.next.delayMs } : undefined;
    return { message, kind: 'channels', contact, via: 'rule', channels: [...step.channels], ...(cycle ? { cycle } : {}) };
  });
}

/** The records of an alert's messages go in the alert's partition; their outbox messages are pages. */
export const alertMessageOwner = (alert: AlertItem): MessageOwner => ({
  accountId: alert.accountId,
  pk: alertPk(alert.accountId, alert.id),
  recordType: 'ALERT_NOTIFICATION',
  recordFields: { alertId: alert.id },
  noun: ALERT_NOUN,
  draft: (contact, channel, to, message) => draftOf(alert, contact, channel, to, message),
  about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefixId },
  title: alert.data.title,
  epoch: alert.escalation.epoch,
  cycleTimer: (message, cycle, now) => cycleTimer(alert, message, cycle, now),
});

/** The kind of the alert timer that runs the next step of a person's notification cycle. */
export const CYCLE_TIMER_KIND = 'notification_cycle';

/** What a cycle timer carries: whose workflow it follows, the rule's actions, where the cycle stands. */
export interface CyclePayload {
  account_user_id: string;
  escalation: number;
  layer: number;
  pass: number;
  why: string;
  actions: readonly NotificationAction[];
  position: CyclePosition;
}

/** The timer of a cycle's next step: due after the action's timeout (divided by the alert's time scale), under the alert's epoch. */
export function cycleTimer(alert: AlertItem, message: Message, cycle: CycleNext, now: number): DurableTimer {
  const payload: CyclePayload = {
    account_user_id: message.account_user_id,
    escalation: message.escalation ?? 0,
    layer: message.layer ?? 1,
    pass: message.pass ?? 1,
    why: message.why,
    actions: cycle.actions,
    position: cycle.position,
  };
  return alertTimer(alert, CYCLE_TIMER_KIND, new Date(now + Math.ceil(cycle.delayMs / alert.escalation.time_scale)).toISOString(), payload, now);
}

/** The outbox template and subject label of each message type sent about an alert (a page shows its urgency). */
const MESSAGE_TEMPLATES: Partial<Record<NotificationType, { template: OutboxTemplate; label: string | null }>> = {
  'alert.open': { template: 'alert_page', label: null },
  'alert.dropped': { template: 'alert_dropped', label: 'Dropped' },
  'alert.handoff': { template: 'alert_handoff', label: 'Handed on' },
  'alert.acknowledged': { template: 'alert_acknowledged', label: 'Acknowledged' },
  'alert.resolved': { template: 'alert_resolved', label: 'Resolved' },
};

function draftOf(alert: AlertItem, contact: PersonContact, channel: Channel, to: string, message: Message): OutboxDraft {
  const d = alert.data;
  const { template, label } = MESSAGE_TEMPLATES[message.type] ?? MESSAGE_TEMPLATES['alert.open']!;
  return {
    channel,
    to,
    template,
    subject: `${label ?? `[${d.urgency}]`} ${d.title} (${alert.prefixId})`,
    body: [d.title, d.description ?? '', message.why, `Alert ${alert.prefixId}, urgency ${d.urgency}.`].filter((line) => line !== '').join('\n'),
    account_user_id: contact.account_user_id,
  };
}

/**
 * Who hears that a team's alert was dropped or handed on: the team's `drop_notifications` /
 * `handoff_notifications` setting (docs/teams.md).
 */
async function teamRecipients(accountId: string, teamId: string, event: 'drop' | 'handoff', now: number): Promise<string[]> {
  const team = await findEntity<TeamData>('TEAM', accountId, teamId);
  if (!team) return [];
  const data = team.data;
  switch (event === 'drop' ? data.drop_notifications : data.handoff_notifications) {
    case 'team_all':
      return [...new Set([...data.member_account_user_ids, ...data.admin_account_user_ids])];
    case 'team_admins':
      return [...data.admin_account_user_ids];
    case 'specific_users':
      return [...(event === 'drop' ? data.drop_notification_account_user_ids : data.handoff_notification_account_user_ids)];
    case 'oncall_rotation': {
      const [schedules, away] = await Promise.all([loadSchedules(accountId, [data.schedule_id]), absencesOf(accountId)]);
      return [...new Set(onCallAt(schedules[data.schedule_id] ?? [], now, away).flatMap((entry) => entry.attendees))];
    }
    default:
      return [];
  }
}
