// The webhooks worker's handler of webhook timers: `fanout` turns a change's events into deliveries (one per
// matching subscription, queued in that subscription's lane), `attempt` sends one delivery and commits what the
// answer means (delivered, a retry with its timer, failed, or the subscription disabled) with the timer's fired
// marker, then hands the lane to the next delivery. docs/outgoing-webhooks.md, "How a delivery runs".
import { addressPolicy } from './address-policy.ts';
import { announceWebhookAttempt, type StoredAttempt } from '../activity/webhooks.ts';
import { monotonicFactory } from 'ulid';
import { nowMs } from '../clock.ts';
import { timeScale } from '../config.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { getItem, queryPrefix, transact } from '../db/items.ts';
import { WEBHOOK_EVENT_SK_PREFIX, webhookHealthKey, webhookLanePrefix, webhookPk, webhookSlotKey } from '../db/keys.ts';
import { findEntity, listEntities, type EntityItem } from '../db/repository.ts';
import { changedMeanwhile, PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import { WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION, WEBHOOK_DISABLE_AFTER_DAYS } from '../limits.ts';
import { logger } from '../logger.ts';
import { sendWebhookWork } from '../queue/webhooks.ts';
import { markTimerFired, timerFiredItem, type DurableTimer } from '../timers/index.ts';
import { wakeWebhookTimers } from './wake.ts';
import { wakeUpMessageOf } from '../timers/wake-ups.ts';
import {
  attemptTimer,
  attemptTimerPut,
  deliveryWrite,
  LANE_HOLDING,
  newDelivery,
  retentionTtl,
  type AttemptRecord,
  type DeliveryItem,
} from './deliveries.ts';
import { disableWrites } from './disable.ts';
import { ATTEMPT_TIMER_KIND, eventsOf, FANOUT_TIMER_KIND, type WebhookChangeItem, type WebhookEvent } from './events.ts';
import { failingTooLong, verdictOf, type Verdict } from './outcome.ts';
import type { OutgoingWebhookData } from './schema.ts';
import { sendOnce, type SendResult } from './send.ts';
import { maskedHeaders, signedHeaders } from './signing.ts';

const nextId = monotonicFactory();
type Subscription = EntityItem<OutgoingWebhookData>;

/** A fanned-out change stays this long for inspection, then DynamoDB TTL removes it (deliveries carry their body). */
const CHANGE_RETENTION_SECONDS = 7 * 86_400;
/** Held past the receiver's timeout before another wake-up may send the same attempt again. */
const LEASE_MARGIN_MS = 10_000;
/** The sk of a subject's fan-out claim, and how long a claim holds when its holder crashed. */
const FANOUT_CLAIM_SK = 'FANOUT';
const FANOUT_CLAIM_MS = 60_000;
/** A wake-up that found every slot of its subscription busy (or its subject's fan-out claimed) comes back after this long. */
const SLOT_RETRY_SECONDS = 1;

/** Hark disabled it (410, days of failure): its events are kept for when it is enabled again. */
const disabledByHark = (sub: OutgoingWebhookData) => !sub.enabled && sub.disabled_reason !== null;

/**
 * Whether a subscription wants an event of this change: enabled, or disabled by Hark (a person's `enabled: false`
 * stops recording), subscribed to the type, and matching the filters.
 */
export function matches(sub: OutgoingWebhookData, type: string, scope: WebhookChangeItem['scope']): boolean {
  if (!(sub.enabled || disabledByHark(sub)) || !(sub.events as string[]).includes(type)) return false;
  if (sub.filters.team_ids.length > 0 && !scope.team_ids.some((t) => sub.filters.team_ids.includes(t))) return false;
  // A subject without an urgency (a broadcast) is not filtered by urgencies.
  if (sub.filters.urgencies.length > 0 && scope.urgency !== null && !sub.filters.urgencies.includes(scope.urgency)) return false;
  return true;
}

/** Marks a webhook timer fired alone; already fired (or gone) is fine. */
const laneOf = (pk: string, subscriptionId: string) => queryPrefix<DeliveryItem>(pk, webhookLanePrefix(subscriptionId));
const holdsLane = (d: DeliveryItem) => d.trigger === 'scheduled' && LANE_HOLDING.includes(d.state);

/**
 * Queues one event's delivery in the subscription's lane: sent at once when nothing of the lane is ahead of it
 * (`paused` instead while Hark has the subscription disabled), else `waiting` behind the lane's last holder, whose version it raises in the same transaction — so a holder
 * finishing at the same moment (which reads the lane to hand it on) fails its write and reads the lane again.
 */
async function addDelivery(change: WebhookChangeItem, index: number, event: WebhookEvent, sub: Subscription, now: number): Promise<DurableTimer[]> {
  return retryOnConflict(
    async () => {
      const at = new Date(now).toISOString();
      const alertId = event.type.startsWith('alert.') ? change.subjectId : null;
      const input = { accountId: change.accountId, subscriptionId: sub.id, subjectId: change.subjectId, sequence: change.sequence, index, event, alertId };
      const lane = await laneOf(change.pk, sub.id);
      const probe = newDelivery(input, '', 'waiting', 'scheduled', at);
      if (lane.some((d) => d.sk === probe.sk)) return [];
      const last = lane.filter(holdsLane).at(-1);
      if (last) {
        const waiting = newDelivery(input, nextId(now), 'waiting', 'scheduled', at);
        await transact([putNew(waiting), { Update: { Key: { pk: last.pk, sk: last.sk }, UpdateExpression: 'SET version = version + :one', ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':one': 1, ':v': last.version } } }]);
        return [];
      }
      if (!sub.data.enabled) {
        await transact([putNew(newDelivery(input, nextId(now), 'paused', 'scheduled', at))]);
        return [];
      }
      const pending = newDelivery(input, nextId(now), 'pending', 'scheduled', at);
      const timer = attemptTimer(pending, nextId(now), at);
      await transact([putNew(pending), attemptTimerPut(pending, timer, at)]);
      return [timer];
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile('Delivery') },
  );
}

/**
 * Fans out every change of the subject not fanned out yet, oldest first, so deliveries enter each lane in the
 * subject's order whichever fan-out timer runs first. Safe to repeat: a delivery already in its lane is kept.
 */
async function fanOut(timer: DurableTimer, now: Date): Promise<void> {
  const pk = webhookPk(timer.accountId, timer.ownerId);
  if ((await unfanned(pk)).length > 0) {
    // One fan-out per subject at a time: the others come back shortly and find their change done.
    const claim = { Key: { pk, sk: FANOUT_CLAIM_SK } };
    const claimed = await conditionalUpdate({
      Update: {
        ...claim,
        UpdateExpression: 'SET lease_until = :until, holder = :holder',
        ConditionExpression: 'attribute_not_exists(lease_until) OR lease_until < :now',
        ExpressionAttributeValues: { ':until': nowMs() + FANOUT_CLAIM_MS, ':holder': timer.timerId, ':now': nowMs() },
      },
    });
    if (!claimed) {
      await sendWebhookWork(wakeUpMessageOf(timer), SLOT_RETRY_SECONDS);
      return;
    }
    try {
      await fanOutChanges(timer, now);
    } finally {
      await conditionalUpdate({
        Update: { ...claim, UpdateExpression: 'SET lease_until = :free', ConditionExpression: 'holder = :holder', ExpressionAttributeValues: { ':free': 0, ':holder': timer.timerId } },
      }).catch((error: unknown) => logger.warn('Fan-out claim not released; it frees itself', { error: error as Error }));
    }
  }
  await markTimerFired(timer, now);
}

const unfanned = async (pk: string) => (await queryPrefix<WebhookChangeItem>(pk, WEBHOOK_EVENT_SK_PREFIX)).filter((c) => !c.fanned_out_at);

/** Under the subject's claim: its changes not fanned out yet, read again now, oldest first. */
async function fanOutChanges(timer: DurableTimer, now: Date): Promise<void> {
  const changes = await unfanned(webhookPk(timer.accountId, timer.ownerId));
  if (changes.length > 0) {
    const subscriptions = await listEntities<OutgoingWebhookData>('OUTGOING_WEBHOOK', timer.accountId);
    for (const change of changes) {
      const timers: DurableTimer[] = [];
      for (const [index, event] of eventsOf(change).entries()) {
        for (const sub of subscriptions) {
          if (matches(sub.data, event.type, change.scope)) timers.push(...(await addDelivery(change, index, event, sub, now.getTime())));
        }
      }
      await transact([
        {
          Update: {
            Key: { pk: change.pk, sk: change.sk },
            UpdateExpression: 'SET fanned_out_at = :at, #ttl = :ttl',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':at': now.toISOString(), ':ttl': Math.floor(now.getTime() / 1000) + CHANGE_RETENTION_SECONDS },
          },
        },
      ]);
      await wakeWebhookTimers(timers);
    }
  }
}

// Bounded concurrency per subscription -------------------------------------------------------------------------

async function conditionalUpdate(item: TransactItem): Promise<boolean> {
  try {
    await transact([item]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Takes one of the subscription's WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION slots until `until` (a crash frees it then). */
async function claimSlot(accountId: string, subscriptionId: string, holder: string, now: number, until: number): Promise<number | undefined> {
  const start = Math.floor(Math.random() * WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION);
  for (let i = 0; i < WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION; i++) {
    const slot = (start + i) % WEBHOOK_CONCURRENCY_PER_SUBSCRIPTION;
    const claimed = await conditionalUpdate({
      Update: {
        Key: webhookSlotKey(accountId, subscriptionId, slot),
        UpdateExpression: 'SET lease_until = :until, holder = :holder',
        ConditionExpression: 'attribute_not_exists(lease_until) OR lease_until < :now',
        ExpressionAttributeValues: { ':until': until, ':holder': holder, ':now': now },
      },
    });
    if (claimed) return slot;
  }
  return undefined;
}

const releaseSlot = (accountId: string, subscriptionId: string, slot: number, holder: string) =>
  conditionalUpdate({
    Update: {
      Key: webhookSlotKey(accountId, subscriptionId, slot),
      UpdateExpression: 'SET lease_until = :free',
      ConditionExpression: 'holder = :holder',
      ExpressionAttributeValues: { ':free': 0, ':holder': holder },
    },
  });

/** Holds the delivery for one send: a duplicate wake-up of the same attempt finds it held and leaves it. */
const leaseDelivery = (d: DeliveryItem, now: number, until: number) =>
  conditionalUpdate({
    Update: {
      Key: { pk: d.pk, sk: d.sk },
      UpdateExpression: 'SET lease_until = :until, version = version + :one',
      ConditionExpression: 'version = :v AND #state = :pending AND (attribute_not_exists(lease_until) OR lease_until < :now)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':until': new Date(until).toISOString(), ':one': 1, ':v': d.version, ':pending': 'pending', ':now': new Date(now).toISOString() },
    },
  });

// One attempt ------------------------------------------------------------------------------------------------

interface Health {
  failing_since?: string;
}

/** The next pending delivery of the lane once `finished` no longer holds it, with its attempt timer. */
async function handOnWrites(finished: DeliveryItem, now: number): Promise<{ writes: TransactItem[]; timers: DurableTimer[] }> {
  const lane = (await laneOf(finished.pk, finished.subscriptionId)).filter((d) => d.sk !== finished.sk);
  if (lane.some((d) => holdsLane(d) && d.state !== 'waiting')) return { writes: [], timers: [] };
  const next = lane.find((d) => d.trigger === 'scheduled' && d.state === 'waiting');
  if (!next) return { writes: [], timers: [] };
  const at = new Date(now).toISOString();
  const timer = attemptTimer(next, nextId(now), at);
  return { writes: [deliveryWrite(next, { ...next, state: 'pending', next_attempt_at: at, updated_at: at }), attemptTimerPut(next, timer, at)], timers: [timer] };
}


const healthFailing = (accountId: string, subscriptionId: string, at: string): TransactItem => ({
  Update: {
    Key: webhookHealthKey(accountId, subscriptionId),
    UpdateExpression: 'SET failing_since = if_not_exists(failing_since, :at)',
    ExpressionAttributeValues: { ':at': at },
  },
});
const healthHealthy = (accountId: string, subscriptionId: string): TransactItem => ({ Delete: { Key: webhookHealthKey(accountId, subscriptionId) } });

/**
 * Commits what one attempt's answer means, in one transaction with the timer's fired marker: the delivery's new
 * state and log, a retry timer, the lane handed on, the failure streak, and — after 410 Gone or
 * WEBHOOK_DISABLE_AFTER_DAYS of failure — the subscription disabled with its admins told. Reads again on a lost race
 * (the answer itself is never asked for twice).
 */
async function commitAttempt(timer: DurableTimer, key: { pk: string; sk: string }, result: SendResult, record: Omit<AttemptRecord, 'attempt'>, now: Date): Promise<StoredAttempt | undefined> {
  const planned = await retryOnConflict(
    async (): Promise<{ timers: DurableTimer[]; stored?: StoredAttempt }> => {
      const current = await getItem<DeliveryItem>(key, { consistent: true });
      if (!current || current.state !== 'pending') {
        await markTimerFired(timer, now);
        return { timers: [] };
      }
      const { lease_until: _lease, ...base } = current;
      const at = now.toISOString();
      const manual = current.trigger === 'manual';
      const scheduledAttempts = current.attempts.filter((a) => a.trigger === 'scheduled').length + (manual ? 0 : 1);
      const verdict: Verdict = manual
        ? result.status !== null && result.status >= 200 && result.status < 300
          ? { kind: 'delivered' }
          : { kind: 'failed', reason: 'a replay or test is attempted once' }
        : verdictOf(result, scheduledAttempts, Math.random(), timeScale());
      const attempts = [...current.attempts, { ...record, attempt: current.attempts.length + 1 }];
      const next: DeliveryItem = { ...base, attempts, updated_at: at, next_attempt_at: null } as DeliveryItem;
      const writes: TransactItem[] = [timerFiredItem(current.pk, timer, now)];
      const timers: DurableTimer[] = [];
      // Read only when they decide something: the health for a scheduled failure (how long it has been failing), the
      // subscription once it is to be disabled. A delivered attempt, the common case, reads neither.
      const health =
        !manual && verdict.kind !== 'delivered' && verdict.kind !== 'gone' ? await getItem<Health>(webhookHealthKey(current.accountId, current.subscriptionId)) : undefined;
      let disableReason: string | undefined;
      if (verdict.kind === 'delivered') {
        Object.assign(next, { state: 'delivered', final_reason: null, ttl: retentionTtl(now.getTime()) });
        if (!manual) writes.push(healthHealthy(current.accountId, current.subscriptionId));
      } else if (manual) {
        Object.assign(next, { state: 'failed', final_reason: verdict.kind === 'failed' ? verdict.reason : 'the receiver did not accept it', ttl: retentionTtl(now.getTime()) });
      } else if (verdict.kind === 'gone') {
        disableReason = 'the receiver answered 410 Gone';
        Object.assign(next, { state: 'paused', final_reason: null });
      } else if (failingTooLong(health?.failing_since, now.getTime(), timeScale())) {
        disableReason = `every delivery failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days`;
        Object.assign(next, { state: 'paused', final_reason: null });
      } else if (verdict.kind === 'retry') {
        const due = new Date(now.getTime() + verdict.delayMs).toISOString();
        const retry = attemptTimer(current, nextId(now.getTime()), due);
        Object.assign(next, { next_attempt_at: due });
        writes.push(attemptTimerPut(current, retry, at), healthFailing(current.accountId, current.subscriptionId, at));
        timers.push(retry);
      } else {
        Object.assign(next, { state: 'failed', final_reason: verdict.reason, ttl: retentionTtl(now.getTime()) });
        writes.push(healthFailing(current.accountId, current.subscriptionId, at));
      }
      writes.unshift(deliveryWrite(current, next));
      if (!manual && (next.state === 'delivered' || next.state === 'failed')) {
        const handOn = await handOnWrites(current, now.getTime());
        writes.push(...handOn.writes);
        timers.push(...handOn.timers);
      }
      if (disableReason) {
        const sub = await findEntity<OutgoingWebhookData>('OUTGOING_WEBHOOK', current.accountId, current.subscriptionId);
        if (sub?.data.enabled) writes.push(...(await disableWrites(sub, disableReason, now)), healthHealthy(current.accountId, current.subscriptionId));
      }
      await transact(writes);
      const outcome = disableReason ? 'disabled' : next.state === 'delivered' ? 'delivered' : next.state === 'failed' ? 'failed' : 'retrying';
      const reason = disableReason ?? next.final_reason ?? result.error ?? (outcome === 'delivered' ? null : `answered ${result.status}`);
      return { timers, stored: { outcome, attempt: attempts.length, status_code: result.status, reason, next_attempt_at: next.next_attempt_at } };
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile('Delivery') },
  );
  await wakeWebhookTimers(planned.timers);
  return planned.stored;
}

/** A delivery that cannot be sent (its subscription is gone, or disabled): one write with the timer's fired marker. */
async function settleUnsent(timer: DurableTimer, d: DeliveryItem, state: 'failed' | 'paused', reason: string | null, now: Date): Promise<void> {
  const at = now.toISOString();
  const next: DeliveryItem = { ...d, state, final_reason: reason, next_attempt_at: null, updated_at: at, ...(state === 'failed' ? { ttl: retentionTtl(now.getTime()) } : {}) };
  const writes: TransactItem[] = [deliveryWrite(d, next), timerFiredItem(d.pk, timer, now)];
  const handOn = state === 'failed' && d.trigger === 'scheduled' ? await handOnWrites(d, now.getTime()) : { writes: [], timers: [] };
  try {
    await transact([...writes, ...handOn.writes]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return; // changed meanwhile: the next wake-up or sweep sees the new state
  }
  await wakeWebhookTimers(handOn.timers);
}

async function attempt(timer: DurableTimer, now: Date): Promise<void> {
  const key = { pk: webhookPk(timer.accountId, timer.ownerId), sk: String(timer.payload?.delivery_sk ?? '') };
  const d = await getItem<DeliveryItem>(key, { consistent: true });
  if (!d || d.state !== 'pending') return markTimerFired(timer, now);
  const sub = await findEntity<OutgoingWebhookData>('OUTGOING_WEBHOOK', d.accountId, d.subscriptionId);
  if (!sub) return settleUnsent(timer, d, 'failed', 'the outgoing webhook was deleted', now);
  if (d.trigger === 'scheduled' && !sub.data.enabled) return settleUnsent(timer, d, 'paused', null, now);
  const started = nowMs();
  const until = started + sub.data.timeout_seconds * 1000 + LEASE_MARGIN_MS;
  const slot = await claimSlot(d.accountId, d.subscriptionId, timer.timerId, started, until);
  if (slot === undefined) {
    await sendWebhookWork(wakeUpMessageOf(timer), SLOT_RETRY_SECONDS);
    return;
  }
  let sent: { at: Date; headers: Record<string, string>; result: SendResult } | undefined;
  try {
    if (!(await leaseDelivery(d, started, until))) return; // another wake-up of this attempt is sending it
    const at = new Date(nowMs());
    const headers = signedHeaders(sub.data.secrets, d.event_id, at, d.body);
    sent = { at, headers, result: await sendOnce({ url: sub.data.url, headers, body: d.body, timeoutMs: sub.data.timeout_seconds * 1000, policy: addressPolicy() }) };
  } finally {
    // The slot bounds requests in flight to the receiver, so it is freed as soon as the answer is in.
    await releaseSlot(d.accountId, d.subscriptionId, slot, timer.timerId).catch((error: unknown) => logger.warn('Webhook slot not released; it frees itself', { error: error as Error }));
  }
  if (!sent) return;
  const { at, headers, result } = sent;
  const record: Omit<AttemptRecord, 'attempt'> = {
    trigger: d.trigger,
    at: at.toISOString(),
    url: sub.data.url,
    request_headers: maskedHeaders(headers),
    response_status: result.status,
    response_body: result.responseBody,
    response_bytes: result.responseBytes,
    duration_ms: result.durationMs,
    error_kind: result.errorKind,
    error: result.error,
  };
  const stored = await commitAttempt(timer, key, result, record, new Date(nowMs()));
  if (stored) announceWebhookAttempt({ id: sub.id, prefixId: sub.prefixId, name: sub.data.name }, d, stored);
}

/** The webhooks worker's handler of webhook timers. Throwing leaves the timer pending (retried, then swept). */
export async function onWebhookTimer(timer: DurableTimer, now: Date): Promise<void> {
  if (timer.kind === FANOUT_TIMER_KIND) return fanOut(timer, now);
  if (timer.kind === ATTEMPT_TIMER_KIND) return attempt(timer, now);
  logger.warn('Unknown webhook timer kind; marked fired', { kind: timer.kind, timerId: timer.timerId });
  await markTimerFired(timer, now);
}
