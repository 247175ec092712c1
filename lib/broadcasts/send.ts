// The broadcast's timers: the send (due when the broadcast is created) hands one message per person and channel to
// delivery, the deadline closes it, and an undelivered check errors it once none of its messages got through. Each
// ends in one transaction that moves the status, conditioned on the status it read, with the timer's fired marker.
// Rules and every transition: docs/broadcasts.md.
import { monotonicFactory } from 'ulid';
import { timeScale } from '../config.ts';
import { announceBroadcastSent } from './activity.ts';
import { writeMissing } from '../alerts/deferred-pages.ts';
import { chooseChannels } from '../alerts/channels.ts';
import { loadContacts } from '../alerts/contacts.ts';
import { messageUnits, type Message, type MessageDecision, type MessageOwner } from '../alerts/message-units.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { findEntity } from '../db/repository.ts';
import { ALERT_NOTIFICATION_SK_PREFIX, broadcastPk, broadcastRecipientSk } from '../db/keys.ts';
import { putNew, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { queryPrefix, transact } from '../db/items.ts';
import type { OutboxDraft } from '../outbox/outbox.ts';
import type { Channel } from '../rule-engine/index.ts';
import type { TeamData } from '../teams/schema.ts';
import { markTimerFired, sendWakeUps, timerFiredItem, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { anyDeliverable, deadlineDueAt, erroredReason, recipientsOf, selectedChannels, statusAfterSend, withoutVoice, type MessageEnd } from './rules.ts';
import { UNDELIVERED_TIMER_KIND } from './undelivered.ts';
import type { BroadcastData, BroadcastStatus } from './schema.ts';
import { broadcastEventsToRecord } from './webhook-events.ts';
import { lostRace } from '../errors.ts';
import { PERSISTENT_ATTEMPTS } from '../db/retry.ts';
import { wakeWebhookTimers } from '../webhooks/index.ts';
import { renderBroadcast, type BroadcastItem } from './items.ts';
import { broadcastKey, DEADLINE_TIMER_KIND, findBroadcast, SEND_TIMER_KIND } from './service.ts';

const nextId = monotonicFactory();

/** Fires one of a broadcast's timers (functions/timers.ts). A broadcast deleted meanwhile took its timers with it. */
export async function onBroadcastTimer(timer: DurableTimer, now: Date): Promise<void> {
  if (timer.kind === SEND_TIMER_KIND) return sendBroadcast(timer, now);
  if (timer.kind === DEADLINE_TIMER_KIND) return closeAtDeadline(timer, now);
  if (timer.kind === UNDELIVERED_TIMER_KIND) return errorIfUndelivered(timer, now);
  throw new Error(`Broadcast timer ${timer.timerId} has an unknown kind "${timer.kind}"`);
}

/** The message a broadcast sends each person: its title, description, and how to answer. */
function draftOf(broadcast: BroadcastItem, channel: Channel, to: string, accountUserId: string): OutboxDraft {
  const d = broadcast.data;
  const options = d.broadcast_response_options.map((o) => `${o.position}. ${o.value}`);
  const ask = d.response_requested ? [`Please answer by ${d.response_requested_by}:`, ...options] : [];
  return {
    channel,
    to,
    template: 'broadcast',
    subject: `[Broadcast] ${d.title} (${broadcast.prefixId})`,
    body: [d.title, d.description ?? '', ...ask].filter((line) => line !== '').join('\n'),
    account_user_id: accountUserId,
  };
}

const ownerOf = (broadcast: BroadcastItem): MessageOwner => ({
  accountId: broadcast.accountId,
  pk: broadcastPk(broadcast.accountId, broadcast.id),
  recordType: 'BROADCAST_NOTIFICATION',
  recordFields: { broadcastId: broadcast.id },
  noun: 'broadcast',
  draft: (contact, channel, to) => draftOf(broadcast, channel, to, contact.account_user_id),
  about: { ownerType: 'broadcast', ownerId: broadcast.id, prefixId: broadcast.prefixId },
  title: broadcast.data.title,
  // A broadcast is sent once: its delivery timers carry no epoch to go stale under.
  epoch: 0,
});

/** Everyone the broadcast reaches now: the account users named and the current members and admins of its teams. */
async function currentRecipients(broadcast: BroadcastItem): Promise<string[]> {
  const teams = await Promise.all(broadcast.data.destination_team_ids.map((id) => findEntity<TeamData>('TEAM', broadcast.accountId, id)));
  return recipientsOf(
    broadcast.data.destination_account_user_ids,
    teams.filter((team) => team !== undefined).map((team) => team.data),
  );
}

/** Each person's channels: the flagged ones, or their notification rule for `broadcast.sent` / defaults, never voice. */
async function decide(broadcast: BroadcastItem, people: readonly string[], now: Date): Promise<MessageDecision[]> {
  const contactOf = await loadContacts(broadcast.accountId, people, { fresh: true });
  const flagged = selectedChannels(broadcast.data);
  const subject = renderBroadcast(broadcast);
  return people.map((account_user_id): MessageDecision => {
    const message: Message = { account_user_id, type: 'broadcast.sent', layer: null, pass: null, why: broadcast.data.title };
    const { contact, reason } = contactOf(account_user_id);
    if (!contact) return { message, kind: 'no_contact', reason: reason! };
    if (flagged) return { message, kind: 'channels', contact, via: 'rule', channels: flagged };
    const choice = chooseChannels(contact, subject, 'broadcast.sent', now);
    if (choice.kind === 'ignored') return { message, kind: 'ignored' };
    return { message, kind: 'channels', contact, via: choice.via, channels: withoutVoice(choice.channels) };
  });
}

/** The status change of the broadcast item, only from the status the change was decided on. */
function statusWrite(broadcast: BroadcastItem, from: BroadcastStatus, to: BroadcastStatus, at: string, fields: Partial<BroadcastData>): TransactItem {
  const names: Record<string, string> = { '#data': 'data', '#status': 'status' };
  const values: Record<string, unknown> = { ':was': from, ':to': to, ':at': at, ':one': 1, ':version': broadcast.version };
  const sets = ['#data.#status = :to', 'version = version + :one', 'updatedAt = :at'];
  Object.entries(fields).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    sets.push(`#data.#f${i} = :f${i}`);
  });
  return {
    Update: {
      Key: broadcastKey(broadcast.accountId, broadcast.id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      // The version read too: the change's webhook event is ordered by it (a concurrent answer makes us read again).
      ConditionExpression: '#data.#status = :was AND version = :version',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Moves the broadcast from `from` (a status, or any of several) to `to` with `fields` and `extra` writes, its webhook
 * event and the timer's fired marker in one transaction. A concurrent change of the broadcast (an answer, a PUT)
 * makes it read again and retry; a broadcast that left `from` (or was deleted) gets only the fired marker. False when
 * it did not move.
 */
async function moveStatus(
  timer: DurableTimer,
  now: Date,
  read: BroadcastItem | undefined,
  from: BroadcastStatus | readonly BroadcastStatus[],
  to: BroadcastStatus,
  fields: Partial<BroadcastData>,
  extra: readonly TransactItem[] = [],
): Promise<boolean> {
  const at = now.toISOString();
  let broadcast = read;
  const froms: readonly BroadcastStatus[] = typeof from === 'string' ? [from] : from;
  for (let attempt = 0; attempt < PERSISTENT_ATTEMPTS; attempt++) {
    if (!broadcast || !froms.includes(broadcast.data.status)) {
      await markTimerFired(timer, now);
      return false;
    }
    const after: BroadcastItem = { ...broadcast, version: broadcast.version + 1, updatedAt: at, data: { ...broadcast.data, ...fields, status: to } };
    const events = await broadcastEventsToRecord(after, { kind: 'entered', status: to }, now.getTime());
    try {
      await transact([statusWrite(broadcast, broadcast.data.status, to, at, fields), ...extra, ...events.writes, timerFiredItem(broadcastPk(timer.accountId, timer.ownerId), timer, now)]);
      await wakeWebhookTimers(events.timers);
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    broadcast = await findBroadcast(timer.accountId, timer.ownerId);
  }
  // The timer stays pending: its next firing (the sweeper) tries again.
  throw lostRace('Broadcast was changed meanwhile');
}

/**
 * The send: one unit per person (their recipient item, their notification records, outbox messages and delivery
 * timers) written in
 * transactions of at most 100 items, each unit once even when a crash makes the timer fire again (the recipient
 * item is put only if absent), then queued → open (closed without a response asked for; errored when nobody could
 * be reached on any channel) with the deadline timer, in the fired marker's transaction.
 */
async function sendBroadcast(timer: DurableTimer, now: Date): Promise<void> {
  const broadcast = await findBroadcast(timer.accountId, timer.ownerId);
  if (!broadcast || broadcast.data.status !== 'queued') {
    await markTimerFired(timer, now);
    return;
  }
  const at = now.toISOString();
  const people = await currentRecipients(broadcast);
  const decisions = await decide(broadcast, people, now);
  const units = await messageUnits(ownerOf(broadcast), decisions, now.getTime());
  const reachedBy = decisions.map((decision, i) => ({ decision, queued: channelsQueued(units[i]!.writes) }));
  const writeUnits: WriteUnit[] = reachedBy.map(({ decision, queued }, i) => ({
    writes: [
      putNew({
        pk: broadcastPk(broadcast.accountId, broadcast.id),
        sk: broadcastRecipientSk(decision.message.account_user_id),
        type: 'BROADCAST_RECIPIENT',
        accountId: broadcast.accountId,
        broadcastId: broadcast.id,
        account_user_id: decision.message.account_user_id,
        channels: queued,
        created_at: at,
      }),
      ...units[i]!.writes,
    ],
  }));
  await writeMissing(writeUnits);
  const reached = reachedBy.filter((r) => r.queued.length > 0).length;
  const to = statusAfterSend(broadcast.data, reached);
  const deadline: DurableTimer[] =
    to === 'open' && broadcast.data.response_requested_by
      ? [
          {
            accountId: broadcast.accountId,
            ownerType: 'broadcast',
            ownerId: broadcast.id,
            timerId: nextId(now.getTime()),
            kind: DEADLINE_TIMER_KIND,
            dueAt: deadlineDueAt(broadcast.data.response_requested_by, now.getTime(), timeScale()),
            epoch: 0,
          },
        ]
      : [];
  const fields: Partial<BroadcastData> = {
    sent_at: at,
    recipients_count: people.length,
    reached_count: reached,
    ...(to === 'open' ? {} : { closed_at: at }),
    ...(to === 'errored' ? { errored_reason: erroredReason(people.length, units.flatMap((unit) => recordsIn(unit.writes))) } : {}),
  };
  const committed = await moveStatus(timer, now, broadcast, 'queued', to, fields, timerPutItems(broadcastPk(broadcast.accountId, broadcast.id), deadline, at));
  if (committed) announceBroadcastSent(broadcast, to, people.length, reached);
  // Each queued record's delivery timer was written with it; woken once the broadcast is open, so a link in a
  // message never finds it still queued (after a crash before this point, the sweeper wakes them).
  await sendWakeUps([...units.flatMap((unit) => unit.timers), ...(committed ? deadline : [])]);
}

/** The notification records a unit writes. */
function recordsIn(writes: readonly TransactItem[]): (MessageEnd & { channel: string | null })[] {
  const records = writes.flatMap((write) => ('Put' in write ? [write.Put.Item as Partial<MessageEnd> & { type?: string; channel?: string | null }] : []));
  return records.filter((item) => item.type === 'BROADCAST_NOTIFICATION') as (MessageEnd & { channel: string | null })[];
}

/** The channels a unit queued a message on: its notification records with status `queued`. */
const channelsQueued = (writes: readonly TransactItem[]): string[] =>
  recordsIn(writes).flatMap((record) => (record.status === 'queued' && record.channel ? [record.channel] : []));

/**
 * After a message ended failed or suppressed (the sender stored this check with it): when none of the broadcast's
 * messages is queued, sent or delivered any more, the broadcast moves from open or closed to errored, with the reason.
 * Otherwise, or when it is already errored (or deleted), the check only marks itself fired.
 */
async function errorIfUndelivered(timer: DurableTimer, now: Date): Promise<void> {
  const broadcast = await findBroadcast(timer.accountId, timer.ownerId);
  const from = broadcast?.data.status;
  if (!broadcast || (from !== 'open' && from !== 'closed')) return markTimerFired(timer, now);
  const records = await queryPrefix<MessageEnd>(broadcastPk(broadcast.accountId, broadcast.id), ALERT_NOTIFICATION_SK_PREFIX);
  if (records.length === 0 || anyDeliverable(records)) return markTimerFired(timer, now);
  const fields: Partial<BroadcastData> = { errored_reason: erroredReason(broadcast.data.recipients_count, records), closed_at: broadcast.data.closed_at ?? now.toISOString() };
  // From either: a deadline closing it meanwhile does not stop the change.
  await moveStatus(timer, now, broadcast, ['open', 'closed'], 'errored', fields);
}

/** The deadline: open → closed. A broadcast no longer open (or deleted) gets only the fired marker. */
async function closeAtDeadline(timer: DurableTimer, now: Date): Promise<void> {
  const broadcast = await findBroadcast(timer.accountId, timer.ownerId);
  await moveStatus(timer, now, broadcast, 'open', 'closed', { closed_at: now.toISOString() });
}
