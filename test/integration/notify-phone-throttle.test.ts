// The throttle's storage on DynamoDB Local (docs/notifications.md, "The throttle"): concurrent reservations for
// one contact method get exactly the slots the rules allow, and waiting messages are kept, listed and released.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#lib/ids.ts';
import { BUNDLE_CLAIM_MS, holdPending, pendingFor, releasePending, reserveSend, waitingFor, type Contact } from '#lib/delivery/throttle-store.ts';
import { giveBackClaims, throttleStep } from '#lib/delivery/throttling.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';
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

  // A held message's timer as the sender sees it: the same notification, about to be sent again.
  const outgoing = (to: Contact, n: number): OutgoingMessage => ({
    notificationId: `notif-${n}`,
    accountId: to.accountId,
    channel: 'email',
    to: to.address,
    accountUserId: 'au-1',
    subject: `Alert ${n}`,
    text: `Alert ${n}`,
    actions: [],
    about: { ownerType: 'alert', ownerId: `alert-${n}`, prefixId: `alt_${n}` },
  });

  it('never lets two bundles name the same message, even when the first is not settled when the next slot opens', async () => {
    const to: Contact = { ...contact(), address: `oncall-${newId()}@example.test` };
    for (const n of [1, 2, 3]) await holdPending(to, 'email', { ...message(n), heldAt: T0 + n });
    // The first held timer gets the slot: its bundle claims all three before it is sent.
    const first = await throttleStep(outgoing(to, 1), 'alert.open', T0 + MIN);
    expect(first).toMatchObject({ kind: 'send', claimed: ['notif-1', 'notif-2', 'notif-3'] });
    expect(first.kind === 'send' && first.covered.map((p) => p.notificationId)).toEqual(['notif-2', 'notif-3']);
    // A minute later (the bundle's send or commit lagging) the second timer gets the next slot but not its message.
    expect(await throttleStep(outgoing(to, 2), 'alert.open', T0 + 2 * MIN)).toEqual({ kind: 'wait', retryAt: T0 + 2 * MIN + 1_000 });
    // A new message then goes alone: nothing claimed is bundled into it.
    expect(await throttleStep(outgoing(to, 4), 'alert.open', T0 + 3 * MIN)).toMatchObject({ kind: 'send', covered: [], claimed: [] });
    expect((await waitingFor(to, 'email')).map((m) => [m.notificationId, m.claimedBy])).toEqual([
      ['notif-1', 'notif-1'],
      ['notif-2', 'notif-1'],
      ['notif-3', 'notif-1'],
    ]);
    // The first bundle's send failed: it gives its claims back, and the next slot bundles them again.
    await giveBackClaims(outgoing(to, 1), ['notif-1', 'notif-2', 'notif-3']);
    const again = await throttleStep(outgoing(to, 2), 'alert.open', T0 + 4 * MIN);
    expect(again.kind === 'send' && again.covered.map((p) => p.notificationId)).toEqual(['notif-1', 'notif-3']);
  });

  it('lets a claim lapse when its sender died: the messages go in a later bundle', async () => {
    const to: Contact = { ...contact(), address: `oncall-${newId()}@example.test` };
    for (const n of [1, 2]) await holdPending(to, 'email', message(n));
    expect(await throttleStep(outgoing(to, 1), 'alert.open', T0 + MIN)).toMatchObject({ kind: 'send', claimed: ['notif-1', 'notif-2'] });
    const later = T0 + MIN + BUNDLE_CLAIM_MS + 1;
    const step = await throttleStep(outgoing(to, 2), 'alert.open', later);
    expect(step.kind === 'send' && step.covered.map((p) => p.notificationId)).toEqual(['notif-1']);
  });
});
