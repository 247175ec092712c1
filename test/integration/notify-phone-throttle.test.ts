// The throttle's storage on DynamoDB Local (docs/notifications.md, "The throttle"): concurrent reservations for
// one contact method get exactly the slots the rules allow, and waiting messages are kept, listed and released.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#lib/ids.ts';
import { holdPending, pendingFor, releasePending, reserveSend, type Contact } from '#lib/delivery/throttle-store.ts';
import type { PendingMessage } from '#lib/channel-adapters/throttle.ts';
import { useTestStack } from './helpers.ts';

const T0 = Date.UTC(2026, 10, 23, 3, 0, 0);
const MIN = 60_000;

beforeAll(() => {
  useTestStack();
  // The test stack's own processes may run with a time scale; these instants are whole minutes at scale 1.
  delete process.env.HARK_TIME_SCALE;
});

const contact = (): Contact => ({ accountId: `acct-${newId()}`, address: '+442079460958' });

describe('reserveSend', () => {
  it('gives one of ten concurrent reservations the slot; the others learn when the next one opens', async () => {
    const to = contact();
    const results = await Promise.all(Array.from({ length: 10 }, () => reserveSend(to, 'sms', T0)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 9 }, () => ({ ok: false, retryAt: T0 + MIN })));
  });

  it('keeps concurrent reservations over time within the rolling caps', async () => {
    const to = contact();
    const granted: number[] = [];
    // Eight minutes, eight racers at the start of each: one slot per minute until the 15-minute cap (5) holds.
    for (let minute = 0; minute < 8; minute++) {
      const at = T0 + minute * MIN;
      const results = await Promise.all(Array.from({ length: 8 }, () => reserveSend(to, 'sms', at)));
      const wins = results.filter((r) => r.ok).length;
      for (let i = 0; i < wins; i++) granted.push(at);
      if (minute >= 5) expect(results).toContainEqual({ ok: false, retryAt: T0 + 15 * MIN });
    }
    expect(granted).toEqual([0, 1, 2, 3, 4].map((m) => T0 + m * MIN));
  });

  it('counts each channel and each address on its own', async () => {
    const to = contact();
    expect(await reserveSend(to, 'sms', T0)).toEqual({ ok: true });
    expect(await reserveSend(to, 'voice', T0)).toEqual({ ok: true });
    expect(await reserveSend({ ...to, address: '+14155550100' }, 'sms', T0)).toEqual({ ok: true });
    expect(await reserveSend(to, 'sms', T0)).toEqual({ ok: false, retryAt: T0 + MIN });
  });
});

describe('pending messages', () => {
  const message = (n: number): PendingMessage => ({
    notificationId: `notif-${n}`,
    accountUserId: 'au-1',
    ownerType: 'alert',
    ownerId: `alert-${n}`,
    prefixId: `alt_${n}`,
    subject: `Alert ${n}`,
    notificationType: 'alert.open',
    heldAt: T0 + n,
  });

  it('keeps each held message once, lists them oldest first, and forgets the released ones', async () => {
    const to = contact();
    await Promise.all([holdPending(to, 'sms', message(3)), holdPending(to, 'sms', message(1)), holdPending(to, 'sms', message(2)), holdPending(to, 'sms', message(1))]);
    expect((await pendingFor(to, 'sms')).map((m) => m.notificationId)).toEqual(['notif-1', 'notif-2', 'notif-3']);
    expect(await pendingFor(to, 'voice')).toEqual([]);
    expect((await pendingFor(to, 'sms'))[0]).toEqual(message(1));
    await releasePending(to, 'sms', ['notif-1', 'notif-3', 'notif-9']);
    expect((await pendingFor(to, 'sms')).map((m) => m.notificationId)).toEqual(['notif-2']);
  });
});
