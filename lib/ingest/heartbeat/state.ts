// A heartbeat integration's state: its last ping, when the next is due and the durable timer that fires then
// (docs/monitors.md, "Heartbeat"). A ping arms the timer at intake in one conditional transaction; the timer's id is
// the state's `timerId` while it is the current one, so a later ping or a disable makes an older timer stale.
import { createHash } from 'node:crypto';
import { nowIso } from '../../clock.ts';
import { isConditionFailure } from '../../db/conditions.ts';
import { getItem, transact } from '../../db/items.ts';
import { heartbeatPk, heartbeatStateKey } from '../../db/keys.ts';
import type { TransactItem } from '../../db/writes.ts';
import { scaledWait } from '../../escalation-engine/timers.ts';
import { sendWakeUps, timerPutItems, type DurableTimer } from '../../timers/index.ts';
import { requestUlid } from '../request-ids.ts';

export const HEARTBEAT_TIMER_KIND = 'missed';

export interface HeartbeatState {
  pk: string;
  sk: string;
  type: 'HEARTBEAT';
  accountId: string;
  integrationId: string;
  lastPingAt?: string;
  /** When the armed timer fires (already divided by HARK_TIME_SCALE); absent while disarmed. */
  nextDueAt?: string;
  /** The current timer; a timer whose id differs is stale. */
  timerId?: string;
  /** When the last missed beat fired. */
  missedAt?: string;
}

export interface HeartbeatTiming {
  interval_seconds: number;
  grace_seconds: number;
}

export interface PingContext {
  accountId: string;
  integrationId: string;
  requestId: string;
  receivedAt: string;
  timing: HeartbeatTiming;
  timeScale: number;
}

/** When a ping received at `receivedAtMs` is missed: interval + grace later, divided by HARK_TIME_SCALE. */
export function heartbeatDueAt(receivedAtMs: number, timing: HeartbeatTiming, timeScale: number): string {
  return new Date(receivedAtMs + scaledWait((timing.interval_seconds + timing.grace_seconds) * 1000, timeScale)).toISOString();
}

/** The timer of a ping: its id derived from the request, so a retried arm names the same timer. */
export function pingTimer(ping: PingContext): DurableTimer {
  const receivedMs = Date.parse(ping.receivedAt);
  return {
    accountId: ping.accountId,
    ownerType: 'heartbeat',
    ownerId: ping.integrationId,
    timerId: requestUlid(createHash('sha256').update(`heartbeat\n${ping.requestId}`).digest(), receivedMs),
    kind: HEARTBEAT_TIMER_KIND,
    dueAt: heartbeatDueAt(receivedMs, ping.timing, ping.timeScale),
    epoch: 0,
  };
}

/**
 * The arm transaction of a ping: the state takes the ping's time, due time and timer only if it has no later ping
 * (so pings applied out of order, or twice, never move it back), and the timer is put new.
 */
export function armWrites(ping: PingContext, timer: DurableTimer, now: string): TransactItem[] {
  const key = heartbeatStateKey(ping.accountId, ping.integrationId);
  return [
    {
      Update: {
        Key: key,
        UpdateExpression: 'SET #type = :type, accountId = :account, integrationId = :integration, lastPingAt = :ping, nextDueAt = :due, timerId = :timer',
        ConditionExpression: 'attribute_not_exists(lastPingAt) OR lastPingAt < :ping',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': 'HEARTBEAT',
          ':account': ping.accountId,
          ':integration': ping.integrationId,
          ':ping': ping.receivedAt,
          ':due': timer.dueAt,
          ':timer': timer.timerId,
        },
      },
    },
    ...timerPutItems(heartbeatPk(ping.accountId, ping.integrationId), [timer], now),
  ];
}

/**
 * Arms the heartbeat for a ping. False when a later ping (or this one, on a retry) already armed it: nothing changed.
 */
export async function armHeartbeat(ping: PingContext): Promise<{ armed: boolean; nextDueAt: string }> {
  const timer = pingTimer(ping);
  try {
    await transact(armWrites(ping, timer, nowIso()));
  } catch (error) {
    if (isConditionFailure(error)) return { armed: false, nextDueAt: timer.dueAt };
    throw error;
  }
  await sendWakeUps([timer]);
  return { armed: true, nextDueAt: timer.dueAt };
}

export const findHeartbeatState = (accountId: string, integrationId: string, consistent = false) =>
  getItem<HeartbeatState>(heartbeatStateKey(accountId, integrationId), { consistent });

/**
 * Disarms a heartbeat (the integration is disabled): its timer becomes stale and no beat is due until the next
 * ping after it is enabled again. Only for a heartbeat that has a state (one that never pinged is not armed).
 */
export function disarmWrite(accountId: string, integrationId: string): TransactItem {
  return { Update: { Key: heartbeatStateKey(accountId, integrationId), UpdateExpression: 'REMOVE nextDueAt, timerId', ConditionExpression: 'attribute_exists(pk)' } };
}

/** What `GET /integrations/:id` shows of a heartbeat: the last ping and when the next is due (null while disarmed). */
export function renderHeartbeat(state: HeartbeatState | undefined, enabled: boolean): { last_ping_at: string | null; next_due_at: string | null } {
  return { last_ping_at: state?.lastPingAt ?? null, next_due_at: enabled ? (state?.nextDueAt ?? null) : null };
}
