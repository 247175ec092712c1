// The provider's timers (docs/decisions/0032-provider-breaker.md): one probe timer while its breaker is open, whose
// wait doubles after each probe in vain; when the provider answers, the breaker closes and a release timer sends
// every held message again, oldest first, as the delivery timer it would have had (on a throttled channel the first
// of a contact's to get a slot carries all the contact's waiting messages as one bundle).
import { monotonicFactory } from 'ulid';
import { nowIso } from '../clock.ts';
import { config } from '../config.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { getItem, queryFirst, transact } from '../db/items.ts';
import { PROVIDER_HELD_SK_PREFIX, providerPk } from '../db/keys.ts';
import { versionedPut } from '../db/writes.ts';
import { logger } from '../logger.ts';
import { adapterFor } from '../channel-adapters/adapters.ts';
import { breakerKey, probeDelayMs, PROVIDER_STILL_DOWN_LOG_MESSAGE } from '../channel-adapters/breaker.ts';
import type { DeliveryChannel, ProbeResult } from '../channel-adapters/port.ts';
import { markTimerFired, sendWakeUps, timerFiredItem, timerOwnerPk, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { ADAPTER_SERVICES } from './adapter-services.ts';
import { BREAKER_CACHE_MS, breakerKeyOf, PROBE_TIMER_KIND, probeTimer, PROVIDER_TIMER_ACCOUNT, RELEASE_TIMER_KIND, rememberBreaker, type BreakerItem, type HeldItem } from './breaker.ts';
import { sendTimer } from './send-timer.ts';

const nextId = monotonicFactory();

/** Held messages sent again per transaction: each one's held item deleted and its delivery timer stored. */
const RELEASE_PAGE = 40;
/** After closing, the release looks once more this long after: a process that still read "open" may have held one. */
const STALE_READERS_MS = 3 * BREAKER_CACHE_MS;

const releaseTimer = (key: string, version: number, dueAt: number): DurableTimer => ({ ...probeTimer(key, version, dueAt), timerId: nextId(dueAt), kind: RELEASE_TIMER_KIND });
const downFor = (item: BreakerItem, at: number) => Math.max(0, Math.round((at - Date.parse(item.since)) / 1000));

/** The provider's answer to a probe: its adapter's own probe; a provider no longer configured (or without one) is let through. */
async function probeProvider(item: BreakerItem, key: string): Promise<ProbeResult> {
  const adapter = adapterFor(item.channel as DeliveryChannel, ADAPTER_SERVICES);
  if (!adapter?.probe || breakerKey(adapter) !== key) return { ok: true };
  try {
    return await adapter.probe();
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

async function probe(timer: DurableTimer, item: BreakerItem | undefined, now: Date): Promise<void> {
  const key = timer.ownerId;
  const pk = providerPk(key);
  if (!item || item.state !== 'open' || item.version !== timer.epoch) return markTimerFired(timer, now);
  const at = now.getTime();
  const answer = await probeProvider(item, key);
  if (answer.ok) {
    const closed: BreakerItem = { ...item, state: 'closed', closed_at: now.toISOString(), next_probe_at: null, version: item.version + 1 };
    const release = releaseTimer(key, closed.version, at);
    await transact([versionedPut(closed, item.version), ...timerPutItems(pk, [release], nowIso()), timerFiredItem(pk, timer, now)]);
    rememberBreaker(key, closed);
    logger.warn('Channel provider answers again: its held messages are sent', { channel: item.channel, provider: item.provider, since: item.since, down_for_seconds: downFor(item, at) });
    await sendWakeUps([release]);
    return;
  }
  const probes = item.probes + 1;
  const nextAt = at + probeDelayMs(probes, config().timeScale);
  const next: BreakerItem = { ...item, probes, error: answer.error, next_probe_at: new Date(nextAt).toISOString(), version: item.version + 1 };
  const again = probeTimer(key, next.version, nextAt);
  await transact([versionedPut(next, item.version), ...timerPutItems(pk, [again], nowIso()), timerFiredItem(pk, timer, now)]);
  rememberBreaker(key, next);
  // The stack's alarm counts these lines once down_for_seconds passes 300 (infra/delivery.ts).
  logger.warn(PROVIDER_STILL_DOWN_LOG_MESSAGE, { channel: item.channel, provider: item.provider, since: item.since, error: answer.error, down_for_seconds: downFor(item, at), next_probe_at: next.next_probe_at });
  await sendWakeUps([again]);
}

/** Sends every held message of the provider again, oldest first, one page per transaction. */
async function releaseHeld(key: string, now: Date): Promise<number> {
  const pk = providerPk(key);
  let released = 0;
  for (;;) {
    const page = await queryFirst<HeldItem>({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :held)', ExpressionAttributeValues: { ':pk': pk, ':held': PROVIDER_HELD_SK_PREFIX }, ConsistentRead: true }, RELEASE_PAGE);
    if (page.length === 0) return released;
    const timers = page.map((held) => sendTimer(held.accountId, held.payload, now.toISOString(), held.epoch, nextId(now.getTime())));
    // Each held item is taken (deleted on condition it is there) with its timer stored: two firings of one release
    // never both send a message again; the one that lost reads the next page.
    const taken = page.map((held) => ({ Delete: { Key: { pk: held.pk, sk: held.sk }, ConditionExpression: 'attribute_exists(pk)' } }));
    try {
      await transact([...taken, ...timers.flatMap((t) => timerPutItems(timerOwnerPk(t), [t], nowIso()))]);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      continue;
    }
    released += page.length;
    await sendWakeUps(timers);
  }
}

async function release(timer: DurableTimer, item: BreakerItem | undefined, now: Date): Promise<void> {
  const key = timer.ownerId;
  // Open again: what is held waits for its next close.
  if (item?.state === 'open') return markTimerFired(timer, now);
  const released = await releaseHeld(key, now);
  if (released > 0) logger.info('Held messages sent again', { provider: key, count: released });
  const lookAgainAt = Date.parse(item?.closed_at ?? now.toISOString()) + STALE_READERS_MS;
  if (now.getTime() >= lookAgainAt) return markTimerFired(timer, now);
  const again = releaseTimer(key, timer.epoch, lookAgainAt);
  await transact([...timerPutItems(providerPk(key), [again], nowIso()), timerFiredItem(providerPk(key), timer, now)]);
  await sendWakeUps([again]);
}

/** The timers worker's handler for `provider` timers (a probe, a release). */
export async function onProviderTimer(timer: DurableTimer, now: Date): Promise<void> {
  if (timer.accountId !== PROVIDER_TIMER_ACCOUNT) return markTimerFired(timer, now);
  const item = await getItem<BreakerItem>(breakerKeyOf(timer.ownerId), { consistent: true });
  if (timer.kind === PROBE_TIMER_KIND) return probe(timer, item, now);
  if (timer.kind === RELEASE_TIMER_KIND) return release(timer, item, now);
  return markTimerFired(timer, now);
}
