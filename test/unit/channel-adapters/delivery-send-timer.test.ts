// What a delivery timer carries and the write that forgets a waiting message with the record's end: pure builders
// of the sender (docs/decisions/0023-what-a-page-writes.md; docs/notifications.md, "Sending").
import { describe, expect, it } from 'vitest';
import { recordOfMessage, sendTimer, type SendMessage } from '#lib/delivery/send-timer.ts';
import { releaseWrites } from '#lib/delivery/throttling.ts';
import { outboxStatusWrite } from '#lib/delivery/records.ts';

const message: SendMessage = {
  notification_id: '01JNOTIFICATION00000000000',
  account_user_id: 'au1',
  notification_type: 'alert.open',
  channel: 'email',
  to: 'ada@example.test',
  subject: '[high] Disk full (alt_x)',
  text: 'Disk full\nYou are paged directly.',
  outbox_id: '01JOUTBOX00000000000000000',
  title: 'Disk full',
};

describe('sendTimer', () => {
  it('puts the timer in the partition of the record it sends, with the payload as given', () => {
    const payload = { record_sk: 'NOTIF#01JNOTIFICATION00000000000', about: { ownerType: 'alert' as const, ownerId: 'al1', prefixId: 'alt_x' }, message, attempts: 2, held: true };
    const timer = sendTimer('acc', payload, '2026-01-01T00:00:00.000Z', 3, 'T1');
    expect(timer).toEqual({ accountId: 'acc', ownerType: 'delivery', ownerId: 'AL#al1', timerId: 'T1', kind: 'send', dueAt: '2026-01-01T00:00:00.000Z', epoch: 3, payload });
    expect(sendTimer('acc', { ...payload, about: { ownerType: 'broadcast', ownerId: 'br1', prefixId: 'brd_x' } }, timer.dueAt, 0).ownerId).toBe('BR#br1');
  });

  it('gives the sender the record fields it needs from the message alone', () => {
    expect(recordOfMessage(message)).toEqual({ id: message.notification_id, account_user_id: 'au1', channel: 'email', notification_type: 'alert.open', outbox_id: message.outbox_id });
    expect(recordOfMessage({ ...message, outbox_sharded: true })).toMatchObject({ outbox_id: message.outbox_id, outbox_sharded: true });
  });
});

describe('outboxStatusWrite (docs/decisions/0027-sharded-outbox.md)', () => {
  const sent = { kind: 'sent' as const, provider: 'smtp', providerMessageId: 'pm1', at: '2026-01-01T00:00:00.000Z' };
  const keyOf = (writes: ReturnType<typeof outboxStatusWrite>) => writes.map((w) => ('Update' in w ? w.Update.Key : undefined));

  it('updates a message written since sharding in its id’s shard', () => {
    expect(keyOf(outboxStatusWrite('acc', { outbox_id: message.outbox_id, outbox_sharded: true }, sent))).toEqual([{ pk: 'A#acc#OUTBOX#14', sk: `OUTBOX#${message.outbox_id}` }]);
  });

  it('updates one whose record was written before sharding (no flag) in the account partition', () => {
    expect(keyOf(outboxStatusWrite('acc', { outbox_id: message.outbox_id }, sent))).toEqual([{ pk: 'A#acc', sk: `OUTBOX#${message.outbox_id}` }]);
  });

  it('writes nothing for a record without an outbox message', () => {
    expect(outboxStatusWrite('acc', { outbox_id: null, outbox_sharded: true }, sent)).toEqual([]);
  });
});

describe('releaseWrites', () => {
  const outgoing = { accountId: 'acc', to: 'ada@example.test', channel: 'email' as const, notificationId: 'n1' };

  it('deletes the waiting item of a throttled message that may be waiting, in the caller’s transaction', () => {
    expect(releaseWrites(outgoing, true)).toEqual([{ Delete: { Key: { pk: 'A#acc#CONTACT#email#ada@example.test', sk: 'PENDING#n1' } } }]);
  });

  it('writes nothing for a message that cannot be waiting, or on a channel without a throttle', () => {
    expect(releaseWrites(outgoing, false)).toEqual([]);
    expect(releaseWrites({ ...outgoing, channel: 'push' }, true)).toEqual([]);
  });
});
