// A provider's breaker, its state and the writes of a held message (docs/decisions/0032-provider-breaker.md;
// docs/notifications.md, "When a provider is down"). One item per provider or server (`PROVIDER#<key>`, sk
// `BREAKER`), written only when the breaker opens, is probed in vain, or closes; every send reads it through a
// one-second cache. Consecutive provider-level failures are counted in the process that sees them: the process
// that counts BREAKER_FAILURES in a row opens the breaker (one conditional transaction, with the provider's one
// probe timer). While it is open a message is not attempted: it is held, once, with the reason, in the provider's
// partition (and, on a throttled channel, among its contact's waiting messages, so it goes out in the bundle).
import { monotonicFactory } from 'ulid';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { getItem, transact } from '../db/items.ts';
import { outboxKeyOf, PROVIDER_BREAKER_SK, providerHeldSk, providerPk } from '../db/keys.ts';
import { putNew, type Key, type TransactItem } from '../db/writes.ts';
import { logger } from '../logger.ts';
import { TtlCache } from '../ttl-cache.ts';
import { BREAKER_FAILURES, breakerKey, heldReason, isProviderFailure, probeDelayMs } from '../channel-adapters/breaker.ts';
import type { ChannelAdapter, OutgoingMessage, SendResult } from '../channel-adapters/port.ts';
import { isThrottled } from '../channel-adapters/throttle.ts';
import { sendWakeUps, timerPutItems, type DurableTimer } from '../timers/index.ts';
import type { SendPayload } from './send-timer.ts';
import type { DeliveryFields } from './records.ts';
import { holdPendingWrite, pendingOf } from './throttle-store.ts';

const nextId = monotonicFactory();

/** Provider timers belong to the deployment, not to an account: this stands in the timer's account field. */
export const PROVIDER_TIMER_ACCOUNT = 'deployment';
export const PROBE_TIMER_KIND = 'probe';
export const RELEASE_TIMER_KIND = 'release';

/** The stored breaker. `version` is the epoch of its timers: a probe of an older version is stale. */
export interface BreakerItem {
  pk: string;
  sk: string;
  state: 'open' | 'closed';
  channel: string;
  /** The provider and its server as a person reads them: `smtp 127.0.0.1:2525`. */
  provider: string;
  /** When it opened (ISO): the held messages' "down since". */
  since: string;
  /** The failure that opened it, or the last failed probe's. */
  error: string;
  /** Probes made in vain since it opened: the back-off grows with them. */
  probes: number;
  next_probe_at: string | null;
  closed_at: string | null;
  version: number;
}

export type Breaker = { readonly open: false } | { readonly open: true; readonly item: BreakerItem };
const CLOSED: Breaker = { open: false };

export const breakerKeyOf = (key: string): Key => ({ pk: providerPk(key), sk: PROVIDER_BREAKER_SK });
const providerWords = (adapter: Pick<ChannelAdapter, 'provider' | 'endpoint'>) => `${adapter.provider}${adapter.endpoint ? ` ${adapter.endpoint}` : ''}`;

/** How long a process trusts the breaker it read; the release waits this long (doubled) for stale readers. */
export const BREAKER_CACHE_MS = 1_000;
const states = new TtlCache<string, Breaker>({ ttlMs: BREAKER_CACHE_MS, maxEntries: 100 });
/** Provider-level failures in a row, per breaker key, in this process (a success resets it). */
const failuresInRow = new Map<string, number>();

const stateOf = (item: BreakerItem | undefined): Breaker => (item?.state === 'open' ? { open: true, item } : CLOSED);

/** The breaker of the adapter's provider, as this process last read it (at most BREAKER_CACHE_MS old). */
export async function breakerOf(adapter: ChannelAdapter): Promise<Breaker> {
  const key = breakerKey(adapter);
  return (await states.get(key, async () => stateOf(await getItem<BreakerItem>(breakerKeyOf(key), { consistent: true })))) ?? CLOSED;
}

/** Tells this process what a transition it wrote (or found) left the breaker at. */
export function rememberBreaker(key: string, item: BreakerItem | undefined): void {
  // A transition starts the count again: a provider back after an outage gets three failures before it opens again.
  failuresInRow.delete(key);
  states.forget((_value, cached) => cached === key);
  void states.get(key, async () => stateOf(item));
}

/** Tests only: forget every breaker this process read and every failure it counted. */
export function forgetBreakers(): void {
  states.clear();
  failuresInRow.clear();
}

/** The provider's first probe timer, due after the first back-off. */
export const probeTimer = (key: string, version: number, dueAt: number): DurableTimer => ({
  accountId: PROVIDER_TIMER_ACCOUNT,
  ownerType: 'provider',
  ownerId: key,
  timerId: nextId(dueAt),
  kind: PROBE_TIMER_KIND,
  dueAt: new Date(dueAt).toISOString(),
  epoch: version,
});

/**
 * Counts one attempt's answer toward the provider's breaker and answers its state: a success resets the count; the
 * BREAKER_FAILURES-th provider-level failure in a row opens it (if nobody did), in one transaction with its probe timer.
 */
export async function countAttempt(adapter: ChannelAdapter, result: SendResult, at: number): Promise<Breaker> {
  const key = breakerKey(adapter);
  if (!isProviderFailure(result)) {
    failuresInRow.delete(key);
    return CLOSED;
  }
  const count = (failuresInRow.get(key) ?? 0) + 1;
  failuresInRow.set(key, count);
  const known = await breakerOf(adapter);
  if (known.open || count < BREAKER_FAILURES) return known;
  const stored = await getItem<BreakerItem>(breakerKeyOf(key), { consistent: true });
  if (stored?.state === 'open') {
    rememberBreaker(key, stored);
    return stateOf(stored);
  }
  const version = (stored?.version ?? 0) + 1;
  const probeAt = at + probeDelayMs(0, config().timeScale);
  const item: BreakerItem = {
    ...breakerKeyOf(key),
    state: 'open',
    channel: adapter.channel,
    provider: providerWords(adapter),
    since: new Date(at).toISOString(),
    error: result.status === 'failed' ? result.error : '',
    probes: 0,
    next_probe_at: new Date(probeAt).toISOString(),
    closed_at: null,
    version,
  };
  const timer = probeTimer(key, version, probeAt);
  const open: TransactItem = stored
    ? { Put: { Item: { ...item }, ConditionExpression: '#state = :closed AND version = :version', ExpressionAttributeNames: { '#state': 'state' }, ExpressionAttributeValues: { ':closed': 'closed', ':version': stored.version } } }
    : putNew(item);
  try {
    await transact([open, ...timerPutItems(providerPk(key), [timer], nowIso())]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Another process opened it first: its state is the one to follow.
    const now = await getItem<BreakerItem>(breakerKeyOf(key), { consistent: true });
    rememberBreaker(key, now);
    return stateOf(now);
  }
  rememberBreaker(key, item);
  logger.warn('Channel provider down: its messages are held', { channel: item.channel, provider: item.provider, since: item.since, error: item.error, next_probe_at: item.next_probe_at });
  await sendWakeUps([timer]);
  return stateOf(item);
}

/** A message held while its provider is down: enough to send it again as its own delivery timer would. */
export interface HeldItem {
  pk: string;
  sk: string;
  accountId: string;
  /** The partition of its record within the account (`AL#<alertId>`): its delivery timer's owner. */
  ownerId: string;
  epoch: number;
  payload: SendPayload;
  held_at: string;
}

/** What the writes of one held message need: its record, its message, its payload and the breaker holding it. */
export interface HeldMessage {
  readonly accountId: string;
  readonly key: Key;
  readonly record: Pick<DeliveryFields, 'id' | 'outbox_id' | 'outbox_sharded'>;
  readonly attempts: number;
  readonly message: OutgoingMessage;
  readonly notificationType: string;
  readonly payload: SendPayload;
  readonly timer: DurableTimer;
  readonly breaker: BreakerItem;
  readonly at: number;
}

/**
 * The writes that hold one message while its provider is down, for the firing's transaction: the record stays
 * queued (marked held, with the reason and the next probe), its outbox message shows `held` and the reason, the
 * provider's partition keeps it to be sent again, and on a throttled channel it waits among its contact's messages
 * (the bundle sent on the provider's return names it). No timer of its own: the provider's probe wakes them all.
 */
export function heldWrites(held: HeldMessage): { reason: string; writes: TransactItem[] } {
  const { breaker, message, at } = held;
  const reason = heldReason(breaker.channel, breaker.provider, breaker.since, breaker.error);
  const heldAt = new Date(at).toISOString();
  const item: HeldItem = {
    pk: breaker.pk,
    sk: providerHeldSk(heldAt, message.notificationId),
    accountId: held.accountId,
    ownerId: held.timer.ownerId,
    epoch: held.timer.epoch,
    payload: { ...held.payload, attempts: held.attempts, held: true },
    held_at: heldAt,
  };
  const writes: TransactItem[] = [
    {
      Update: {
        Key: held.key,
        UpdateExpression: 'SET next_attempt_at = :next, held = :held, held_reason = :reason',
        ConditionExpression: `#status = :queued AND ${held.attempts === 0 ? '(attribute_not_exists(attempts) OR attempts = :attempts)' : 'attempts = :attempts'}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':queued': 'queued', ':attempts': held.attempts, ':next': breaker.next_probe_at, ':held': true, ':reason': reason },
      },
    },
    ...(held.record.outbox_id
      ? [{
          Update: {
            Key: outboxKeyOf(held.accountId, held.record.outbox_id, held.record.outbox_sharded === true),
            UpdateExpression: 'SET #data.#status = :held, #data.reason = :reason, updatedAt = :at ADD version :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#data': 'data', '#status': 'status' },
            ExpressionAttributeValues: { ':held': 'held', ':reason': reason, ':at': heldAt, ':one': 1 },
          },
        } satisfies TransactItem]
      : []),
    putNew(item),
  ];
  if (isThrottled(message.channel)) writes.push(holdPendingWrite({ accountId: message.accountId, address: message.to }, message.channel, pendingOf(message, held.notificationType, at)));
  return { reason, writes };
}
