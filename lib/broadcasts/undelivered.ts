// The check that errors a broadcast none of whose messages could be delivered, once delivery gave up on the last one:
// the broadcast's delivery owner (./message-owner.ts) has the sender store this timer with every broadcast record that
// ends failed or suppressed, in the record's own transaction, so the check is never lost (./send.ts fires it). Rules: docs/broadcasts.md, "States and every transition".
import { monotonicFactory } from 'ulid';
import type { DurableTimer } from '../timers/index.ts';

const nextId = monotonicFactory();

/** The kind of a broadcast's timer that checks whether any of its messages got through. */
export const UNDELIVERED_TIMER_KIND = 'undelivered';

/** The check of broadcast `broadcastId`, due at once (`at`, ms). */
export const undeliveredCheckTimer = (accountId: string, broadcastId: string, at: number): DurableTimer => ({
  accountId,
  ownerType: 'broadcast',
  ownerId: broadcastId,
  timerId: nextId(at),
  kind: UNDELIVERED_TIMER_KIND,
  dueAt: new Date(at).toISOString(),
  epoch: 0,
});
