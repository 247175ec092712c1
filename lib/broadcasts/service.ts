// Broadcasts: a BROADCAST entity in the account partition (its fields, its status and every answer), and a
// partition of its own for what its send writes (recipients, notification records, timers). Creating one stores
// it `queued` with a send timer due now, in one transaction; ./send.ts sends it. Rules: docs/broadcasts.md.
import { announceBroadcastAnswer } from './activity.ts';
import { nowIso, nowMs } from '../clock.ts';
import { commentThreadOf } from '../comments/thread.ts';
import { getItem, queryAll, queryPrefix, transact, updateIf } from '../db/items.ts';
import { accountPk, ALERT_NOTIFICATION_SK_PREFIX, broadcastPk, broadcastRecipientSk, entitySk } from '../db/keys.ts';
import { entityCollection } from '../db/pages.ts';
import { resolveIdList } from '../db/references.ts';
import {
  createEntities,
  getEntity,
  newEntityItem,
  removeEntity,
  updateEntity,
  type EntityItem,
} from '../db/repository.ts';
import { changedMeanwhile, PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { batchUnits, deleteAny, deletionUnit, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { forbidden, invalid, lostRace } from '../errors.ts';
import { newId, newPrefixId } from '../ids.ts';
import type { TeamData } from '../teams/schema.ts';
import { wakeWebhookTimers } from '../webhooks/index.ts';
import { sendWakeUps, timerPutItems, timersFirst, type DurableTimer } from '../timers/index.ts';
import { answerRefusal, createProblems, recipientsOf, responseOptions, tooManyRecipients } from './rules.ts';
import {
  FIXED_AFTER_CREATE,
  type BroadcastCreateInput,
  type BroadcastData,
  type BroadcastResponseInput,
  type BroadcastUpdateInput,
  type StoredResponse,
} from './schema.ts';
import { broadcastChangeEvents, broadcastEventsToRecord, recordsWebhookEvents } from './webhook-events.ts';
import { renderBroadcast, type BroadcastItem } from './items.ts';

/** The kinds of a broadcast's timers: the send (due when created) and the deadline (due at response_requested_by). */
export const SEND_TIMER_KIND = 'send';
export const DEADLINE_TIMER_KIND = 'deadline';

export const getBroadcast = async (accountId: string, id: string) => (await getEntity<BroadcastData>('BROADCAST', accountId, id)) as BroadcastItem;
export const broadcastListSource = (accountId: string) =>
  entityCollection('BROADCAST', accountId, (items: EntityItem<BroadcastData>[]) => items.map((item) => renderBroadcast(item as BroadcastItem)));

/** The key of the broadcast item in the account partition. */
export const broadcastKey = (accountId: string, broadcastId: string) => ({ pk: accountPk(accountId), sk: entitySk('BROADCAST', broadcastId) });

export async function createBroadcast(accountId: string, input: BroadcastCreateInput): Promise<BroadcastItem> {
  const now = nowMs();
  const [users, teams] = await Promise.all([
    resolveIdList('ACCOUNT_USER', accountId, 'destination_account_user_ids', 'account user', input.destination_account_user_ids ?? []),
    resolveIdList('TEAM', accountId, 'destination_team_ids', 'team', input.destination_team_ids ?? []),
  ]);
  const problems = [...createProblems(input, now), ...users.problems, ...teams.problems];
  if (problems.length > 0) throw invalid(problems);
  const reach = recipientsOf(users.ids, teams.items.map((t) => t.data as TeamData)).length;
  const tooMany = tooManyRecipients(reach);
  if (tooMany) throw invalid(tooMany);

  const requested = input.response_requested === true;
  const data: BroadcastData = {
    title: input.title,
    description: input.description ?? null,
    tag_list: [...new Set(input.tag_list ?? [])],
    destination_team_ids: teams.ids,
    destination_account_user_ids: users.ids,
    status: 'queued',
    response_requested: requested,
    // Without a response asked for, a deadline and options would mean nothing: they are not kept.
    response_requested_by: requested ? new Date(Date.parse(input.response_requested_by!)).toISOString() : null,
    select_specific_channels: input.select_specific_channels ?? false,
    notify_push: input.notify_push ?? false,
    notify_email: input.notify_email ?? false,
    notify_sms: input.notify_sms ?? false,
    notify_slack: input.notify_slack ?? false,
    notify_whatsapp: input.notify_whatsapp ?? false,
    broadcast_response_options: requested ? responseOptions((input.broadcast_response_options_attributes ?? []).map((o) => o.value), () => newId()) : [],
    sent_at: null,
    closed_at: null,
    recipients_count: 0,
    reached_count: 0,
    errored_reason: null,
  };
  const item = (await newEntityItem<BroadcastData>('BROADCAST', accountId, data, { meta: input.meta ?? {} })) as BroadcastItem;
  item.responses = {};
  const send: DurableTimer = {
    accountId,
    ownerType: 'broadcast',
    ownerId: item.id,
    timerId: newId(now),
    kind: SEND_TIMER_KIND,
    dueAt: new Date(now).toISOString(),
    epoch: 0,
  };
  const events = await broadcastEventsToRecord(item, { kind: 'created' }, now);
  await createEntities([item as EntityItem<unknown>], [...timerPutItems(broadcastPk(accountId, item.id), [send]), ...events.writes]);
  await sendWakeUps([send]);
  await wakeWebhookTimers(events.timers);
  return item;
}

/** PUT changes the words (title, description, tags, meta); what decides delivery is fixed once created. */
export async function updateBroadcast(accountId: string, id: string, input: BroadcastUpdateInput, raw: Record<string, unknown>): Promise<BroadcastItem> {
  const fixed = FIXED_AFTER_CREATE.filter((field) => raw[field] !== undefined);
  if (fixed.length > 0) throw invalid(fixed.map((field) => `${field} cannot be changed: a broadcast is sent as it was created`));
  return (await updateEntity<BroadcastData>('BROADCAST', accountId, id, (current) => ({
    data: {
      ...current.data,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.tag_list !== undefined ? { tag_list: [...new Set(input.tag_list)] } : {}),
    },
    ...(input.meta !== undefined ? { meta: input.meta } : {}),
  }))) as BroadcastItem;
}

/**
 * Deletes the broadcast (conditioned on nothing having started to reference it), then what its partition holds
 * (its timers first, then recipients and notification records: a late wake-up finds no timer and does nothing, so
 * nothing more is sent) and its comments, in transactions of at most 100 writes. Its answers live on the item and go with it.
 */
export async function deleteBroadcast(accountId: string, id: string): Promise<void> {
  const removed = await removeEntity<BroadcastData>('BROADCAST', accountId, id);
  const [children, comments] = await Promise.all([
    queryAll<{ pk: string; sk: string }>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': broadcastPk(accountId, removed.id) }, ConsistentRead: true }),
    commentThreadOf(accountId, { type: 'Broadcast', id: removed.id }),
  ]);
  const units: WriteUnit[] = [
    // Its timers go first: a delivery timer carries its message, so once they are gone nothing more is sent.
    ...timersFirst(children).map((item) => ({ writes: [deleteAny(item)] })),
    ...comments.map((c) => deletionUnit(c, 'references')),
  ];
  for (const batch of batchUnits(units)) await transact(batch);
}

/** The messages the send wrote, oldest first (GET /broadcasts/:id/notifications). */
export async function broadcastNotifications(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>[]> {
  const broadcast = await getBroadcast(accountId, idOrPrefixId);
  const records = await queryPrefix<Record<string, unknown>>(broadcastPk(accountId, broadcast.id), ALERT_NOTIFICATION_SK_PREFIX);
  // outbox_sharded says where the record's outbox message is stored (docs/decisions/0027-sharded-outbox.md), not an API field.
  return records.map(({ pk: _pk, sk: _sk, type: _type, accountId: _a, broadcastId: _b, outbox_sharded: _s, ...record }) => ({ ...record, broadcast_id: broadcast.id }));
}

/** Who answers: the account user acting, and how the answer came (`api`, or the channel of the message). */
export interface Answerer {
  accountId: string;
  accountUserId: string;
  channel: string;
}

/**
 * Records an answer: one conditional write of the broadcast item that replaces the person's previous answer and
 * holds only while the broadcast is open, so the counts (derived from the answers) always agree with them and an
 * answer racing the deadline either lands before the close or is refused. 403 for someone it was not sent to.
 */
export async function answerBroadcast(who: Answerer, idOrPrefixId: string, input: BroadcastResponseInput): Promise<BroadcastItem> {
  const answered = await retryOnConflict(
    async () => {
      const current = await getBroadcast(who.accountId, idOrPrefixId);
      const refusal = answerRefusal(current.data, input.broadcast_response_option_id, nowMs());
      if (refusal) throw invalid(refusal);
      const recipient = await getItem({ pk: broadcastPk(who.accountId, current.id), sk: broadcastRecipientSk(who.accountUserId) });
      if (!recipient) throw forbidden('Only the people this broadcast was sent to can answer it');
      const at = nowIso();
      const response: StoredResponse = {
        id: newId(),
        prefix_id: newPrefixId('BROADCAST_RESPONSE'),
        account_user_id: who.accountUserId,
        broadcast_response_option_id: input.broadcast_response_option_id,
        channel: who.channel,
        created_at: at,
      };
      const after: BroadcastItem = { ...current, version: current.version + 1, updatedAt: at, responses: { ...current.responses, [who.accountUserId]: response } };
      const write = answerWrite(who, current, response, at);
      if (!(await recordsWebhookEvents(who.accountId))) {
        await commitAnswer(write);
        return after;
      }
      // With outgoing webhooks the answer and its broadcast.responded event are one transaction, conditioned on the
      // version read so the event's place among the broadcast's events is exact.
      const events = broadcastChangeEvents(after, { kind: 'responded', response }, Date.parse(at));
      write.Update.ConditionExpression += ' AND version = :version';
      write.Update.ExpressionAttributeValues![':version'] = current.version;
      await transact([write, ...events.writes]);
      await wakeWebhookTimers(events.timers);
      return after;
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile('Broadcast') },
  );
  await announceBroadcastAnswer(answered, answered.responses[who.accountUserId]!);
  return answered;
}

/** The answer's write: the person's answer replaced, the version raised, only while the broadcast is open. */
function answerWrite(who: Answerer, current: BroadcastItem, response: StoredResponse, at: string): Extract<TransactItem, { Update: unknown }> {
  return {
    Update: {
      Key: broadcastKey(who.accountId, current.id),
      UpdateExpression: 'SET #responses.#person = :response, version = version + :one, updatedAt = :at',
      ConditionExpression: '#data.#status = :open AND attribute_exists(#responses)',
      ExpressionAttributeNames: { '#responses': 'responses', '#person': who.accountUserId, '#data': 'data', '#status': 'status' },
      ExpressionAttributeValues: { ':response': response, ':one': 1, ':open': 'open', ':at': at },
    },
  };
}

/** The answer alone, as one UpdateItem: concurrent answers queue up on the item instead of cancelling each other. */
async function commitAnswer(write: Extract<TransactItem, { Update: unknown }>): Promise<void> {
  let written: boolean;
  try {
    written = await updateIf(write);
  } catch (error) {
    // The close (a transaction) was writing the item at that moment: read again and decide again.
    if ((error as { name?: string }).name === 'TransactionConflictException') throw lostRace('Broadcast was changed meanwhile');
    throw error;
  }
  // The broadcast closed or was deleted since it was read: the next attempt reads why (422 or 404).
  if (!written) throw lostRace('Broadcast was changed meanwhile');
}

/** For the action link's page: the broadcast as stored, or undefined when it is gone. */
export async function findBroadcast(accountId: string, broadcastId: string): Promise<BroadcastItem | undefined> {
  const item = await getItem<BroadcastItem>(broadcastKey(accountId, broadcastId));
  return item?.type === 'BROADCAST' ? item : undefined;
}
