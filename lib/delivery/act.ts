// Acting on an alert from a message (a signed link's form, a chat button, an SMS reply, a voice key press): the
// same transition the API applies, with one more log entry naming the channel it came from. What the person
// tried and what happened is an outcome, never a throw, so each channel can word it for them.
// Rules: docs/notifications.md, "Acting from a message".
import { applyToAlert } from '../alerts/runner.ts';
import { findAlert } from '../alerts/store.ts';
import type { AlertItem, LogEntry } from '../alerts/items.ts';
import { isDomainError } from '../errors.ts';
import type { AlertStatus } from '../escalation-engine/index.ts';
import type { DeliveryChannel } from '../notify/port.ts';
import { joinedAccountUser } from '../people/joined.ts';

export const MESSAGE_ACTIONS = ['acknowledge', 'resolve'] as const;
export type MessageActionName = (typeof MESSAGE_ACTIONS)[number];

export const isMessageAction = (value: string): value is MessageActionName => (MESSAGE_ACTIONS as readonly string[]).includes(value);

export interface ActRequest {
  readonly accountId: string;
  readonly ownerType: 'alert';
  readonly ownerId: string;
  readonly accountUserId: string;
  readonly action: MessageActionName;
  /** Where the action came from; null when the link did not say (logged as "a message"). */
  readonly channel: DeliveryChannel | null;
}

/** The alert as a person is told about it. */
export interface AlertSummary {
  readonly id: string;
  readonly prefixId: string;
  readonly tinyId: number;
  readonly title: string;
  readonly status: AlertStatus;
}

/**
 * - `done`: the action was applied now;
 * - `unchanged`: the alert already was where the action leads (acknowledged twice, resolved twice);
 * - `refused`: the alert's status does not allow it (acknowledging a resolved alert), `message` says why;
 * - `gone`: the alert was deleted; `not_member`: the person does not belong to the account (removed, or only
 *   invited: an account user who has not accepted the invitation acts on nothing, docs/people.md).
 */
export type ActOutcome =
  | { readonly outcome: 'done' | 'unchanged'; readonly action: MessageActionName; readonly alert: AlertSummary }
  | { readonly outcome: 'refused'; readonly action: MessageActionName; readonly alert: AlertSummary; readonly message: string }
  | { readonly outcome: 'gone' | 'not_member'; readonly action: MessageActionName };

const PAST: Record<MessageActionName, string> = { acknowledge: 'acknowledged', resolve: 'resolved' };
/** The status an action leads to: acting again is `unchanged`, not a refusal. */
export const REACHED: Readonly<Record<MessageActionName, AlertStatus>> = { acknowledge: 'acknowledged', resolve: 'resolved' };

export const summaryOf = (alert: AlertItem): AlertSummary => ({
  id: alert.id,
  prefixId: alert.prefixId,
  tinyId: alert.tinyId,
  title: alert.data.title,
  status: alert.escalation.status,
});

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

export async function actFromMessage(request: ActRequest): Promise<ActOutcome> {
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
export function outcomeText(result: ActOutcome): string {
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
