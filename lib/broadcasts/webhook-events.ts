// The outgoing webhook events of broadcasts: each change of a broadcast (created, a status it enters, an answer)
// records its event in the change's own transaction, ordered by the broadcast's version. Subscription filters see
// the destination teams; broadcasts have no urgency. docs/outgoing-webhooks.md, "Events"; docs/broadcasts.md.
import { countOf } from '../db/repository.ts';
import { changeSequence, webhookEventWrites, type WebhookWrites } from '../webhooks/index.ts';
import type { BroadcastStatus, StoredResponse } from './schema.ts';
import { renderBroadcast, type BroadcastItem } from './items.ts';

/** The status a broadcast enters and the event type announcing it (`queued` is announced by `broadcast.created`). */
const ENTERED: Readonly<Record<Exclude<BroadcastStatus, 'queued'>, string>> = {
  open: 'broadcast.open',
  closed: 'broadcast.closed',
  errored: 'broadcast.errored',
};

/** What happened to a broadcast, as one webhook event. */
export type BroadcastChange = { kind: 'created' } | { kind: 'entered'; status: BroadcastStatus } | { kind: 'responded'; response: StoredResponse };

export function broadcastEventType(change: BroadcastChange): string {
  if (change.kind === 'created') return 'broadcast.created';
  if (change.kind === 'responded') return 'broadcast.responded';
  if (change.status === 'queued') throw new Error('A broadcast never enters queued after its creation');
  return ENTERED[change.status];
}

/**
 * The event writes of one change, given the broadcast as it is right after the change (its version raised by the
 * change): `data` is `{broadcast}` as GET /broadcasts/:id answers it, plus `{response}` for an answer.
 */
export function broadcastChangeEvents(after: BroadcastItem, change: BroadcastChange, now: number): WebhookWrites {
  const broadcast = renderBroadcast(after);
  const data = change.kind === 'responded' ? { broadcast, response: change.response } : { broadcast };
  return webhookEventWrites(
    after.accountId,
    after.id,
    changeSequence(after.version, now),
    { team_ids: [...after.data.destination_team_ids], urgency: null },
    [{ type: broadcastEventType(change), data }],
    now,
  );
}

/** Whether the account has any outgoing webhook (one counter read): an account without any records no events. */
export const recordsWebhookEvents = async (accountId: string): Promise<boolean> => (await countOf(accountId, 'OUTGOING_WEBHOOK')) > 0;

/** The event writes of one change for an account with outgoing webhooks; none otherwise. */
export async function broadcastEventsToRecord(after: BroadcastItem, change: BroadcastChange, now: number): Promise<WebhookWrites> {
  if (!(await recordsWebhookEvents(after.accountId))) return { writes: [], timers: [] };
  return broadcastChangeEvents(after, change, now);
}
