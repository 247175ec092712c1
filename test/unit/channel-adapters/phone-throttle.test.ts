// The throttle's pure rules (docs/notifications.md, "The throttle"), on a fake clock: instants are plain numbers.
import { describe, expect, it } from 'vitest';
import { bundleMessage, decide, historySpanMs, isThrottled, recordSend, type PendingMessage } from '#lib/channel-adapters/throttle.ts';
import type { DeliveryChannel } from '#lib/channel-adapters/port.ts';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 23, 3, 0, 0);

/**
 * Sends as fast as the throttle allows, starting at T0, and returns the instants the first `count` messages
 * went out: each message asks at the moment the previous one went (or T0), waits until the slot opens, goes.
 */
function sendTimes(channel: DeliveryChannel, count: number, timeScale = 1): number[] {
  let history: number[] = [];
  const sent: number[] = [];
  let now = T0;
  while (sent.length < count) {
    const decision = decide(history, channel, now, timeScale);
    if (!decision.send) {
      expect(decision.until).toBeGreaterThan(now);
      now = decision.until;
      continue;
    }
    history = recordSend(history, channel, now, timeScale);
    sent.push(now);
  }
  return sent;
}

/** The most sends in any window of `windowMs` ending at a send. */
function mostInWindow(times: readonly number[], windowMs: number): number {
  return Math.max(...times.map((end) => times.filter((t) => t > end - windowMs && t <= end).length));
}

describe('decide', () => {
  it('lets the first message to a contact go at once', () => {
    expect(decide([], 'sms', T0)).toEqual({ send: true });
  });

  it('allows one SMS, call or email per minute per contact method', () => {
    for (const channel of ['sms', 'voice', 'email', 'whatsapp'] as const) {
      expect(decide([T0], channel, T0 + 59_999)).toEqual({ send: false, until: T0 + MIN });
      expect(decide([T0], channel, T0 + MIN)).toEqual({ send: true });
    }
  });

  it('does not throttle push or chat', () => {
    expect(isThrottled('push')).toBe(false);
    expect(isThrottled('slack')).toBe(false);
    expect(decide([T0, T0, T0], 'push', T0)).toEqual({ send: true });
    expect(decide([T0, T0, T0], 'slack', T0)).toEqual({ send: true });
  });

  it('holds the sixth alert SMS in 15 minutes until the first leaves the window', () => {
    const history = [0, 1, 2, 3, 4].map((i) => T0 + i * MIN);
    expect(decide(history, 'sms', T0 + 5 * MIN)).toEqual({ send: false, until: T0 + 15 * MIN });
  });

  it('holds the fourth call in 15 minutes', () => {
    const history = [0, 1, 2].map((i) => T0 + i * MIN);
    expect(decide(history, 'voice', T0 + 3 * MIN)).toEqual({ send: false, until: T0 + 15 * MIN });
  });

  it('keeps SMS within 5 per 15 minutes, 11 per hour and 21 per 3 hours over a long burst', () => {
    const times = sendTimes('sms', 40);
    expect(mostInWindow(times, MIN)).toBe(1);
    expect(mostInWindow(times, 15 * MIN)).toBe(5);
    expect(mostInWindow(times, 60 * MIN)).toBe(11);
    expect(mostInWindow(times, 180 * MIN)).toBe(21);
    // The 22nd message is the first the 3-hour cap holds: it waits for the first to be 3 hours old.
    expect(times[21]).toBe(T0 + 180 * MIN);
  });

  it('keeps calls within 3 per 15 minutes, 7 per hour and 15 per 3 hours', () => {
    const times = sendTimes('voice', 30);
    expect(mostInWindow(times, MIN)).toBe(1);
    expect(mostInWindow(times, 15 * MIN)).toBe(3);
    expect(mostInWindow(times, 60 * MIN)).toBe(7);
    expect(mostInWindow(times, 180 * MIN)).toBe(15);
  });

  it('lets email go once a minute with no rolling caps', () => {
    const times = sendTimes('email', 30);
    expect(times[29]).toBe(T0 + 29 * MIN);
  });

  it('divides every window by HARK_TIME_SCALE', () => {
    expect(decide([T0], 'sms', T0 + 1_000, 60)).toEqual({ send: true });
    expect(decide([T0], 'sms', T0 + 999, 60)).toEqual({ send: false, until: T0 + 1_000 });
    const times = sendTimes('sms', 6, 60);
    // The sixth waits for the first to leave the 15-minute window, which lasts 15 seconds at 60×.
    expect(times[5]).toBe(T0 + 15_000);
  });
});

describe('recordSend', () => {
  it('adds the send and forgets sends older than the longest window', () => {
    const old = T0 - 180 * MIN;
    expect(recordSend([old, T0 - MIN], 'sms', T0)).toEqual([T0 - MIN, T0]);
    expect(historySpanMs('sms')).toBe(180 * MIN);
    expect(historySpanMs('email')).toBe(MIN);
    expect(historySpanMs('sms', 60)).toBe(180_000);
  });
});

describe('bundleMessage', () => {
  const pending = (id: string, ownerId: string, subject: string, heldAt: number, notificationType = 'alert.open'): PendingMessage => ({
    notificationId: id,
    accountUserId: 'au1',
    ownerType: 'alert',
    ownerId,
    prefixId: `alt_${ownerId}`,
    subject,
    notificationType,
    heldAt,
  });

  it('names every waiting alert once, oldest first, with the acknowledge-all instruction', () => {
    const bundle = bundleMessage(
      [pending('n3', 'C', 'Queue backlog', 3), pending('n1', 'A', 'Disk full on db-1', 1), pending('n2', 'B', 'CPU high', 2), pending('n4', 'A', 'Disk full on db-1', 4)],
      'reply 4 to acknowledge all',
    );
    expect(bundle.subject).toBe('3 alerts unacknowledged');
    expect(bundle.text).toBe('3 alerts unacknowledged: alt_A Disk full on db-1; alt_B CPU high; alt_C Queue backlog; reply 4 to acknowledge all');
  });

  it('counts updates, not unacknowledged alerts, when some messages are not pages', () => {
    const bundle = bundleMessage([pending('n1', 'A', 'Disk full', 1), pending('n2', 'A', 'Disk full', 2, 'alert.resolved')], '');
    expect(bundle.text).toBe('2 alert updates: alt_A Disk full');
  });

  it('shortens long summaries so a bundle stays readable', () => {
    const bundle = bundleMessage([pending('n1', 'A', 'x'.repeat(200), 1)], '');
    expect(bundle.text).toBe(`1 alert unacknowledged: alt_A ${'x'.repeat(59)}…`);
  });
});
