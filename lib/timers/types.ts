// The shape every owner of a durable timer (alerts today; broadcasts and deliveries later) builds to.
// How timers are stored, woken, swept and cancelled: docs/timers.md.

/** The owners that schedule timers; each has one handler that fires its timers. */
export const TIMER_OWNER_TYPES = ['alert', 'broadcast', 'delivery', 'webhook', 'heartbeat', 'schedule', 'provider'] as const;
export type TimerOwnerType = (typeof TIMER_OWNER_TYPES)[number];

export interface DurableTimer {
  accountId: string;
  ownerType: TimerOwnerType;
  /** The owner's id: the alert id; for `delivery`, the record's partition within the account (`AL#<alertId>`). */
  ownerId: string;
  /** A ULID, unique within the owner. */
  timerId: string;
  /** The owner's kind of wait (the escalation engine's TimerKind: layer timeout, …). */
  kind: string;
  /** ISO instant as `Date.toISOString()` writes it, already divided by HARK_TIME_SCALE. */
  dueAt: string;
  /** The owner's epoch when scheduled: a firing under another epoch is stale (the owner decides). */
  epoch: number;
  /** Whatever the owner needs to recognise the firing (escalation, layer, pass, …). */
  payload?: Record<string, unknown>;
}

/**
 * Fires one due timer: loads the owner's state, asks its engine what the firing means, and writes one
 * transaction that includes `timerFiredItem` — also when the firing turned out stale, so the timer leaves the
 * pending index. Throwing leaves the timer pending: the wake-up is retried and the sweeper tries it again.
 */
export type TimerHandler = (timer: DurableTimer, now: Date) => Promise<void>;
export type TimerHandlers = Record<DurableTimer['ownerType'], TimerHandler>;
