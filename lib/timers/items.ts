// Pure builders of the timer items and the writes that change them: no I/O, so test/unit/timers checks the
// exact keys, index keys and conditions offline. Layout: docs/timers.md, "How a wait is stored".

import { createHash } from 'node:crypto';
import { nowIso, nowMs } from '../clock.ts';
import { accountPk, alertPk, broadcastPk, heartbeatPk, providerPk, scheduleCheckPk, webhookPk } from '../db/keys.ts';
import type { Key, TransactItem } from '../db/writes.ts';
import type { DurableTimer, TimerOwnerType } from './types.ts';

/** Pending timers are spread over this many gsi3 partitions, so no single partition limits writes or the sweep. */
export const TIMER_SHARDS = 8;
export const TIMER_SK_PREFIX = 'TIMER#';
const TIMER_ITEM_TYPE = 'TIMER';
/** A fired timer is kept this long (for inspection), then DynamoDB TTL removes it. */
export const FIRED_TIMER_RETENTION_SECONDS = 7 * 24 * 3600;

/** The partition of a timer's owner; the timer item lives there, next to the state it changes. */
const OWNER_PARTITIONS: Record<TimerOwnerType, (accountId: string, ownerId: string) => string> = {
  alert: alertPk,
  broadcast: broadcastPk,
  // A delivery timer sits next to the notification record it sends, in whichever partition holds the record: its
  // ownerId is that partition's key within the account (`AL#<alertId>` for an alert's records).
  delivery: (accountId, ownerId) => `${accountPk(accountId)}#${ownerId}`,
  webhook: webhookPk,
  // A heartbeat's timer sits next to its state item; ownerId is the integration's id (docs/monitors.md, "Heartbeat").
  heartbeat: heartbeatPk,
  // A schedule's daily gap check sits next to its state item; ownerId is the schedule's id (docs/schedules.md, "Gaps").
  schedule: scheduleCheckPk,
  // A delivery provider's probe and release sit next to its breaker, across accounts; ownerId is the breaker's key
  // (docs/decisions/0032-provider-breaker.md).
  provider: (_accountId, ownerId) => providerPk(ownerId),
};

export const timerOwnerPk = (timer: Pick<DurableTimer, 'ownerType' | 'accountId' | 'ownerId'>): string =>
  OWNER_PARTITIONS[timer.ownerType](timer.accountId, timer.ownerId);

export const timerSk = (timerId: string): string => `${TIMER_SK_PREFIX}${timerId}`;

export const timerKey = (timer: Pick<DurableTimer, 'ownerType' | 'accountId' | 'ownerId' | 'timerId'>): Key => ({
  pk: timerOwnerPk(timer),
  sk: timerSk(timer.timerId),
});

/** The gsi3 shard of a timer: a stable hash of its id, so the same timer always lands in the same shard. */
export function timerShard(timerId: string, shards = TIMER_SHARDS): number {
  return createHash('sha256').update(timerId).digest().readUInt32BE(0) % shards;
}

export const timerShardPk = (shard: number): string => `TIMERS#${shard}`;

/** Sorted by due time first, so "due before T" is one key-range Query per shard. */
export const timerIndexSk = (timer: DurableTimer): string => `${timer.dueAt}#${timer.accountId}#${timer.ownerId}#${timer.timerId}`;

export type TimerState = 'pending' | 'fired';

/** The stored timer: the DurableTimer plus its key, its state and, while pending, its sweep index keys. */
export interface TimerItem extends DurableTimer {
  pk: string;
  sk: string;
  type: typeof TIMER_ITEM_TYPE;
  state: TimerState;
  createdAt: string;
  firedAt?: string;
  gsi3pk?: string;
  gsi3sk?: string;
  ttl?: number;
  /** How many parts of its work firings have written, for work written in several transactions (timerProgressItem). */
  progress?: number;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Index keys compare as strings, so every dueAt must have exactly `toISOString()`'s shape. */
function assertTimer(ownerPk: string, timer: DurableTimer): void {
  if (!ISO_INSTANT.test(timer.dueAt) || Number.isNaN(Date.parse(timer.dueAt))) {
    throw new Error(`Timer ${timer.timerId}: dueAt must be an ISO instant as toISOString() writes it (got "${timer.dueAt}")`);
  }
  const expected = timerOwnerPk(timer);
  if (ownerPk !== expected) throw new Error(`Timer ${timer.timerId} belongs in partition ${expected}, not ${ownerPk}`);
}

/** The pending item of a timer. */
export function pendingTimerItem(ownerPk: string, timer: DurableTimer, now: string): TimerItem {
  assertTimer(ownerPk, timer);
  return {
    ...timer,
    pk: ownerPk,
    sk: timerSk(timer.timerId),
    type: TIMER_ITEM_TYPE,
    state: 'pending',
    createdAt: now,
    gsi3pk: timerShardPk(timerShard(timer.timerId)),
    gsi3sk: timerIndexSk(timer),
  };
}

/**
 * TransactItems that store pending timers in the owner's partition (sk `TIMER#<timerId>`, sparse gsi3 keys
 * while pending). Each must be new: a repeated schedule of the same timer id fails the owner's transaction.
 */
export function timerPutItems(ownerPk: string, timers: readonly DurableTimer[], now: string = nowIso()): TransactItem[] {
  return timers.map((timer) => ({
    Put: { Item: { ...pendingTimerItem(ownerPk, timer, now) }, ConditionExpression: 'attribute_not_exists(pk)' },
  }));
}

/**
 * The write that marks a timer fired, for the owner's firing transaction: removes the sweep index keys, only if
 * the timer is still pending — so two firings of one timer (a duplicate wake-up, the sweeper racing a late
 * message) cannot both commit.
 */
export function timerFiredItem(ownerPk: string, timer: DurableTimer, now: Date = new Date(nowMs())): TransactItem {
  assertTimer(ownerPk, timer);
  return {
    Update: {
      Key: { pk: ownerPk, sk: timerSk(timer.timerId) },
      UpdateExpression: 'SET #state = :fired, firedAt = :now, #ttl = :ttl REMOVE gsi3pk, gsi3sk',
      ConditionExpression: '#state = :pending AND attribute_exists(gsi3pk)',
      ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':fired': 'fired',
        ':pending': 'pending',
        ':now': now.toISOString(),
        ':ttl': Math.floor(now.getTime() / 1000) + FIRED_TIMER_RETENTION_SECONDS,
      },
    },
  };
}

/**
 * The write recording, in the transaction that writes them, that a firing wrote parts `from` up to `to` of its
 * timer's work (work too large for one transaction: an alert's deliver timer). Only while the timer is pending and
 * exactly `from` parts are done: two firings never both write a part, and a firing after a crash goes on where the
 * last commit ended. The write of the last part also marks the timer fired.
 */
export function timerProgressItem(ownerPk: string, timer: DurableTimer, part: { from: number; to: number; last: boolean }, now: Date = new Date(nowMs())): TransactItem {
  assertTimer(ownerPk, timer);
  const done = part.from === 0 ? 'attribute_not_exists(progress)' : 'progress = :from';
  const condition = `#state = :pending AND attribute_exists(gsi3pk) AND ${done}`;
  const values = { ':pending': 'pending', ':to': part.to, ...(part.from === 0 ? {} : { ':from': part.from }) };
  const key = { pk: ownerPk, sk: timerSk(timer.timerId) };
  if (!part.last) {
    return { Update: { Key: key, UpdateExpression: 'SET progress = :to', ConditionExpression: condition, ExpressionAttributeNames: { '#state': 'state' }, ExpressionAttributeValues: values } };
  }
  return {
    Update: {
      Key: key,
      UpdateExpression: 'SET progress = :to, #state = :fired, firedAt = :now, #ttl = :ttl REMOVE gsi3pk, gsi3sk',
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ...values, ':fired': 'fired', ':now': now.toISOString(), ':ttl': Math.floor(now.getTime() / 1000) + FIRED_TIMER_RETENTION_SECONDS },
    },
  };
}

/** The DurableTimer carried by a stored item (keys, state and index attributes left out). */
export function timerOf(item: TimerItem): DurableTimer {
  return {
    accountId: item.accountId,
    ownerType: item.ownerType,
    ownerId: item.ownerId,
    timerId: item.timerId,
    kind: item.kind,
    dueAt: item.dueAt,
    epoch: item.epoch,
    ...(item.payload ? { payload: item.payload } : {}),
  };
}

export const isPending = (item: Pick<TimerItem, 'state' | 'gsi3pk'>): boolean => item.state === 'pending' && item.gsi3pk !== undefined;

/**
 * Items of an owner's partition in the order its deletion removes them: its timers first. A delivery timer carries its
 * message (docs/decisions/0023-what-a-page-writes.md), so once the timers are gone nothing more is sent. Pure.
 */
export const timersFirst = <T extends { sk: string }>(items: readonly T[]): T[] => [
  ...items.filter((item) => item.sk.startsWith(TIMER_SK_PREFIX)),
  ...items.filter((item) => !item.sk.startsWith(TIMER_SK_PREFIX)),
];
