// The event line of one sending attempt (lib/delivery/sender.ts), once its outcome is stored: to whom, on which
// channel, sent or why not. docs/configuration.md, "What npm start prints".
import { LogLevelThreshold } from '@aws-lambda-powertools/logger';
import type { DeliveryFields, RecordChange } from './records.ts';
import { logger } from '../logger.ts';
import { notificationOutcome, type NotificationOutcome } from '../activity/events.ts';
import { nameOf, titleOf } from '../activity/names.ts';

const OUTCOMES: Record<RecordChange['kind'], NotificationOutcome['outcome']> = { sent: 'sent', suppressed: 'suppressed', failed: 'failed', retry: 'retrying' };

/** The outcome's event fields. Pure. */
export function notificationFields(
  about: { ownerType: 'alert' | 'broadcast'; prefixId: string },
  record: Pick<DeliveryFields, 'id' | 'account_user_id' | 'channel' | 'notification_type'>,
  change: RecordChange,
  attempt: number,
  named: { title: string | null; person: string },
): NotificationOutcome {
  return {
    outcome: OUTCOMES[change.kind],
    owner_type: about.ownerType,
    owner_prefix_id: about.prefixId,
    title: named.title,
    notification_type: record.notification_type,
    notification_id: record.id,
    account_user_id: record.account_user_id,
    person: named.person,
    channel: record.channel ?? 'none',
    provider: change.provider,
    attempt,
    reason: change.kind === 'sent' ? null : change.kind === 'suppressed' ? change.reason : change.error,
    next_attempt_at: change.kind === 'retry' ? change.nextAttemptAt : null,
  };
}

/**
 * Logs the outcome of one attempt. Never throws: the outcome is stored, a line is not worth failing it. `knownTitle`
 * is the title the message was written with (a delivery timer carries it), which saves reading the owner.
 */
export async function announceDelivery(
  accountId: string,
  about: { ownerType: 'alert' | 'broadcast'; ownerId: string; prefixId: string },
  record: Pick<DeliveryFields, 'id' | 'account_user_id' | 'channel' | 'notification_type'>,
  change: RecordChange,
  attempt: number,
  knownTitle?: string,
): Promise<void> {
  const warning = change.kind === 'failed' || change.kind === 'retry';
  if (logger.level > (warning ? LogLevelThreshold.WARN : LogLevelThreshold.INFO)) return;
  try {
    const [title, person] = await Promise.all([knownTitle ?? titleOf(accountId, about).catch(() => undefined), nameOf('person', accountId, record.account_user_id).catch(() => undefined)]);
    notificationOutcome(notificationFields(about, record, change, attempt, { title: title ?? null, person: person ?? record.account_user_id }));
  } catch (error) {
    logger.warn('Notification event not logged', { error: error as Error });
  }
}
