// The writes that hold one message while its provider is down (lib/delivery/breaker.ts): pure builders, checked offline.
import { describe, expect, it } from 'vitest';
import { heldWrites, type BreakerItem, type HeldMessage } from '#lib/delivery/breaker.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';

const breaker: BreakerItem = {
  pk: 'PROVIDER#email:smtp@mail.example.com:587',
  sk: 'BREAKER',
  state: 'open',
  channel: 'email',
  provider: 'smtp mail.example.com:587',
  since: '2026-11-28T03:00:00.000Z',
  error: 'SMTP ESOCKET: connect ECONNREFUSED',
  probes: 1,
  next_probe_at: '2026-11-28T03:00:15.000Z',
  closed_at: null,
  version: 2,
};

const message = (channel: OutgoingMessage['channel']): OutgoingMessage => ({
  notificationId: '01JNOTIFICATION0000000000',
  accountId: 'acc1',
  channel,
  to: channel === 'email' ? 'dana@example.com' : 'au1',
  accountUserId: 'au1',
  subject: 'Disk full',
  text: 'Disk full on db-1',
  actions: [{ action: 'acknowledge', label: 'Acknowledge', url: 'https://hark.example.com/actions/ack' }],
  about: { ownerType: 'alert', ownerId: 'alt1', prefixId: 'alt_x1' },
});

const held = (channel: OutgoingMessage['channel']): HeldMessage => ({
  accountId: 'acc1',
  key: { pk: 'A#acc1#AL#alt1', sk: 'NOTIF#01JNOTIFICATION0000000000' },
  record: { id: '01JNOTIFICATION0000000000', outbox_id: 'out1', outbox_sharded: true },
  attempts: 0,
  message: message(channel),
  notificationType: 'alert.open',
  payload: { record_sk: 'NOTIF#01JNOTIFICATION0000000000', about: message(channel).about },
  timer: { accountId: 'acc1', ownerType: 'delivery', ownerId: 'AL#alt1', timerId: 'T1', kind: 'send', dueAt: '2026-11-28T03:00:05.000Z', epoch: 3 },
  breaker,
  at: Date.parse('2026-11-28T03:00:05.000Z'),
});

describe('holding a message while its provider is down', () => {
  it('keeps the record queued and marks it held, shows the outbox message held with the reason, and keeps it in the provider’s partition', () => {
    const { reason, writes } = heldWrites(held('email'));
    expect(reason).toBe('email held: provider down since 2026-11-28T03:00:00.000Z (smtp mail.example.com:587: SMTP ESOCKET: connect ECONNREFUSED)');
    const [record, outbox, item, pending] = writes as any[];
    expect(record.Update).toMatchObject({ Key: held('email').key, ConditionExpression: '#status = :queued AND (attribute_not_exists(attempts) OR attempts = :attempts)' });
    expect(record.Update.ExpressionAttributeValues).toMatchObject({ ':held': true, ':reason': reason, ':next': breaker.next_probe_at });
    expect(outbox.Update.UpdateExpression).toContain('#data.#status = :held, #data.reason = :reason');
    expect(outbox.Update.ExpressionAttributeValues).toMatchObject({ ':held': 'held', ':reason': reason });
    expect(item.Put.Item).toMatchObject({
      pk: breaker.pk,
      sk: 'HELD#2026-11-28T03:00:05.000Z#01JNOTIFICATION0000000000',
      accountId: 'acc1',
      ownerId: 'AL#alt1',
      epoch: 3,
      payload: { held: true, attempts: 0 },
    });
    expect(item.Put.ConditionExpression).toBe('attribute_not_exists(pk)');
    // Email is throttled: it waits among its contact's messages, keeping an earlier wait's place (if_not_exists).
    expect(pending.Update.Key).toEqual({ pk: 'A#acc1#CONTACT#email#dana@example.com', sk: 'PENDING#01JNOTIFICATION0000000000' });
    expect(pending.Update.UpdateExpression).toMatch(/^SET #f0 = if_not_exists\(#f0, :v0\)/);
    expect(Object.values(pending.Update.ExpressionAttributeNames)).toContain('heldAt');
    expect(writes).toHaveLength(4);
  });

  it('writes no waiting item on a channel the throttle does not count (push)', () => {
    expect(heldWrites(held('push')).writes).toHaveLength(3);
  });
});
