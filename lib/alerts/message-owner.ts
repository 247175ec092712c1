// The alert side of the delivery port (lib/delivery/port.ts): the links an alert's message carries (acknowledge,
// resolve), its confirmation page, acting on it from a link, a reply, a key press or a chat button (the same
// transition the API applies, with one more log entry naming the channel), and its log entry when a message to it
// fails for good. What the person tried and what happened is an outcome, never a throw, so each channel can word it.
// Rules: docs/notifications.md, "Acting from a message".
import { monotonicFactory } from 'ulid';
import { putNew } from '../db/writes.ts';
import { isDomainError } from '../errors.ts';
import { allowedFrom, type AlertStatus } from '../escalation-engine/index.ts';
import { actionLinks } from '../delivery/links.ts';
import { isMessageAction, NO_WRITES, type ActionChoice, type ActOutcome, type ActRequest, type DeliveryOwner, type LinkPage, type MessageActionName } from '../delivery/port.ts';
import type { DeliveryChannel } from '../channel-adapters/port.ts';
import { joinedAccountUser } from '../accounts/joined.ts';
import { logItem, type AlertItem, type LogEntry } from './items.ts';
import { applyToAlert } from './runner.ts';
import { findAlert } from './store.ts';

/** ULIDs that keep their order within one millisecond (log entry ids). */
const nextId = monotonicFactory();

/** The alert actions a message carries, in the order they are shown. */
export const ALERT_LINK_ACTIONS: readonly { action: MessageActionName; label: string }[] = [
  { action: 'acknowledge', label: 'Acknowledge' },
  { action: 'resolve', label: 'Resolve' },
];

/** The alert as a person is told about it. */
interface AlertSummary {
  readonly id: string;
  readonly tinyId: number;
  readonly title: string;
  readonly status: AlertStatus;
}

/** What acting on an alert did (the port's outcome before it is worded). */
type AlertActOutcome =
  | { readonly outcome: 'done' | 'unchanged'; readonly action: MessageActionName; readonly alert: AlertSummary }
  | { readonly outcome: 'refused'; readonly action: MessageActionName; readonly alert: AlertSummary; readonly message: string }
  | { readonly outcome: 'gone' | 'not_member'; readonly action: MessageActionName };

const PAST: Record<MessageActionName, string> = { acknowledge: 'acknowledged', resolve: 'resolved' };
/** The status an action leads to: acting again is `unchanged`, not a refusal. */
const REACHED: Readonly<Record<MessageActionName, AlertStatus>> = { acknowledge: 'acknowledged', resolve: 'resolved' };

const summaryOf = (alert: AlertItem): AlertSummary => ({ id: alert.id, tinyId: alert.tinyId, title: alert.data.title, status: alert.escalation.status });

const channelWords = (channel: DeliveryChannel | null): string => (channel === null ? 'a message' : channel === 'sms' ? 'SMS' : channel === 'voice' ? 'a phone call' : channel);

/** The log entry written with the action: who, what, and from which channel. */
function messageActionLog(request: Pick<ActRequest, 'accountUserId' | 'action' | 'channel'>): LogEntry {
  const what = PAST[request.action];
  return {
    event: 'message_action',
    message: `${what[0]!.toUpperCase()}${what.slice(1)} from ${channelWords(request.channel)} by account user ${request.accountUserId}.`,
    account_user_id: request.accountUserId,
  };
}

async function actOnAlert(request: ActRequest): Promise<AlertActOutcome> {
  const { accountId, ownerId, accountUserId, action } = request;
  if (!(await joinedAccountUser(accountId, accountUserId))) return { outcome: 'not_member', action };
  const current = await findAlert(accountId, ownerId);
  if (!current) return { outcome: 'gone', action };
  if (current.escalation.status === REACHED[action]) return { outcome: 'unchanged', action, alert: summaryOf(current) };
  try {
    const event = { type: action, by: accountUserId } as const;
    const written = await applyToAlert(accountId, current.id, () => event, [messageActionLog(request)]);
    return { outcome: 'done', action, alert: summaryOf(written) };
  } catch (error) {
    // The engine's refusal (422) or a deletion meanwhile (404): read again to say where the alert stands now.
    if (!isDomainError(error, 'invalid') && !isDomainError(error, 'not_found')) throw error;
    const now = await findAlert(accountId, current.id);
    if (!now) return { outcome: 'gone', action };
    if (now.escalation.status === REACHED[action]) return { outcome: 'unchanged', action, alert: summaryOf(now) };
    return { outcome: 'refused', action, alert: summaryOf(now), message: error.messages.join('; ') };
  }
}

/** One sentence for the person, the same on every channel. */
function outcomeText(result: AlertActOutcome): string {
  const verb = PAST[result.action];
  switch (result.outcome) {
    case 'done':
      return `Alert #${result.alert.tinyId} ${verb}.`;
    case 'unchanged':
      return `Alert #${result.alert.tinyId} was already ${verb}.`;
    case 'refused':
      return `Alert #${result.alert.tinyId} is ${result.alert.status} and cannot be ${verb} now.`;
    case 'gone':
      return 'This alert no longer exists.';
    case 'not_member':
      return 'You are no longer a member of this account (or have not joined it yet), so you cannot act on its alerts.';
  }
}

/** The actions still possible once the alert is in `status` (the engine's rules), for the buttons a chat message keeps. */
const remainingActions = (status: AlertStatus): readonly ActionChoice[] => ALERT_LINK_ACTIONS.filter((a) => allowedFrom(a.action).includes(status));

function portOutcome(result: AlertActOutcome): ActOutcome {
  const text = outcomeText(result);
  return 'alert' in result ? { outcome: result.outcome, action: result.action, text, remaining: remainingActions(result.alert.status) } : { outcome: result.outcome, action: result.action, text };
}

const INVALID: LinkPage = { status: 403, view: { title: 'Link not valid', text: 'This link is not valid. Open Hark to act on the alert.' } };

/** A link acts only for an account user who still belongs to the account and has joined it (docs/people.md). */
const isMember = async (accountId: string, accountUserId: string) => (await joinedAccountUser(accountId, accountUserId)) !== undefined;

function pageOfOutcome(outcome: AlertActOutcome): LinkPage {
  const text = outcomeText(outcome);
  switch (outcome.outcome) {
    case 'gone':
      return { status: 404, view: { title: 'Alert not found', text } };
    case 'not_member':
      return { status: 403, view: { title: 'Not allowed', text } };
    default:
      return { status: 200, view: { title: `Alert #${outcome.alert.tinyId}`, text } };
  }
}

export const alertDeliveryOwner: DeliveryOwner = {
  async messageActions({ accountId, ownerId, accountUserId, channel, now }) {
    return actionLinks({ ownerType: 'alert', ownerId, accountId, accountUserId, actions: ALERT_LINK_ACTIONS, now, channel });
  },
  async confirm(claims) {
    if (!isMessageAction(claims.action)) return INVALID;
    if (!(await isMember(claims.accountId, claims.accountUserId))) return pageOfOutcome({ outcome: 'not_member', action: claims.action });
    const alert = await findAlert(claims.accountId, claims.ownerId);
    if (!alert) return pageOfOutcome({ outcome: 'gone', action: claims.action });
    const summary = summaryOf(alert);
    if (alert.escalation.status === REACHED[claims.action]) return pageOfOutcome({ outcome: 'unchanged', action: claims.action, alert: summary });
    if (!allowedFrom(claims.action).includes(alert.escalation.status)) return pageOfOutcome({ outcome: 'refused', action: claims.action, alert: summary, message: '' });
    const label = ALERT_LINK_ACTIONS.find((a) => a.action === claims.action)!.label;
    return { status: 200, view: { title: `${label} alert #${alert.tinyId}`, text: `${label} alert #${alert.tinyId}: ${alert.data.title}?`, button: label } };
  },
  async actOnLink(claims) {
    if (!isMessageAction(claims.action)) return INVALID;
    const { accountId, ownerId, accountUserId, action, channel } = claims;
    return pageOfOutcome(await actOnAlert({ accountId, ownerType: 'alert', ownerId, accountUserId, action, channel }));
  },
  async act(request) {
    return portOutcome(await actOnAlert(request));
  },
  endedWrites({ accountId, about, record, change, attempts }) {
    // Only a failure is logged on the alert: a suppressed message (no provider configured) is shown by its record.
    if (change.kind !== 'failed') return NO_WRITES;
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    const message = `The ${record.channel ?? ''} notification (${record.notification_type}) to account user ${record.account_user_id} failed after ${tries}: ${change.error}`;
    return { writes: [putNew(logItem(accountId, about.ownerId, nextId(), change.at, { event: 'notified', message, account_user_id: record.account_user_id }))], timers: [] };
  },
  heldWrites({ accountId, about, record, reason, at }) {
    // The timeline says why this person was not reached yet: "email held: provider down since …".
    const message = `The ${record.notification_type} notification to account user ${record.account_user_id}: ${reason}`;
    return { writes: [putNew(logItem(accountId, about.ownerId, nextId(), new Date(at).toISOString(), { event: 'notified', message, account_user_id: record.account_user_id }))], timers: [] };
  },
};
