// What each owner adds to the transaction of a notification record that ends failed or suppressed (the delivery
// port's endedWrites, docs/notifications.md "Broadcast messages"): pure, with a fixed clock.
import { describe, expect, it } from 'vitest';
import type { DeliveryFields } from '#lib/delivery/records.ts';
import type { EndedRecord } from '#lib/delivery/port.ts';
import { DELIVERY_OWNERS } from '#lib/wiring/delivery-owners.ts';

const AT = Date.parse('2026-03-01T10:00:00.000Z');
const record = { id: '01JREC', channel: 'email', notification_type: 'alert.open', account_user_id: '01JPERSON', status: 'queued' } as unknown as DeliveryFields;

const ended = (ownerType: 'alert' | 'broadcast', change: EndedRecord['change'], attempts = 3): EndedRecord => ({
  accountId: '01JACCOUNT',
  about: { ownerType, ownerId: '01JOWNER', prefixId: ownerType === 'alert' ? 'alt_x' : 'brd_x' },
  record,
  change,
  attempts,
  at: AT,
});
const failed = { kind: 'failed', provider: 'smtp', error: 'mailbox full', at: new Date(AT).toISOString() } as const;
const suppressed = { kind: 'suppressed', reason: 'no email provider is configured', provider: null, at: new Date(AT).toISOString() } as const;

describe('owner writes when a record ends', () => {
  it('an alert logs a failure on its own log, in the record transaction', () => {
    const { writes, timers } = DELIVERY_OWNERS.alert.endedWrites(ended('alert', failed));
    expect(timers).toEqual([]);
    expect(writes).toHaveLength(1);
    const item = (writes[0] as { Put: { Item: Record<string, unknown> } }).Put.Item;
    expect(item).toMatchObject({
      event: 'notified',
      account_user_id: '01JPERSON',
      message: 'The email notification (alert.open) to account user 01JPERSON failed after 3 attempts: mailbox full',
    });
    expect(String(item.pk)).toContain('01JOWNER');
  });

  it('an alert writes nothing for a suppressed message (its record says why)', () => {
    expect(DELIVERY_OWNERS.alert.endedWrites(ended('alert', suppressed))).toEqual({ writes: [], timers: [] });
  });

  it.each([
    ['failed', failed],
    ['suppressed', suppressed],
  ] as const)('a broadcast stores its undelivered check, due at once, when a message ends %s', (_kind, change) => {
    const { writes, timers } = DELIVERY_OWNERS.broadcast.endedWrites(ended('broadcast', change));
    expect(writes).toEqual([]);
    expect(timers).toEqual([expect.objectContaining({ accountId: '01JACCOUNT', ownerType: 'broadcast', ownerId: '01JOWNER', kind: 'undelivered', dueAt: new Date(AT).toISOString() })]);
  });
});
