// The delivery port's registry (docs/architecture.md, "The delivery port"): every owner type a signed link, a reply
// code or a notification record can name has a DeliveryOwner, so acting from a message never meets an owner delivery
// cannot reach. DeliveryOwners is a full record, so a missing entry fails the type check too; this test also catches
// an owner type added to a list without its entry, and an entry without the operations delivery calls.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { LINK_OWNER_TYPES, type LinkOwnerType } from '#lib/delivery/links.ts';
import type { ReplyOwner } from '#lib/delivery/reply-codes.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { DELIVERY_OWNERS } from '#lib/wiring/delivery-owners.ts';

describe('delivery owner registry', () => {
  it('has an entry for every link owner type, and nothing else', () => {
    expect(Object.keys(DELIVERY_OWNERS).sort()).toEqual([...LINK_OWNER_TYPES].sort());
  });

  it('covers every owner type a reply code or a message can name', () => {
    expectTypeOf<ReplyOwner['ownerType']>().toEqualTypeOf<LinkOwnerType>();
    expectTypeOf<OutgoingMessage['about']['ownerType']>().toEqualTypeOf<LinkOwnerType>();
  });

  it.each(LINK_OWNER_TYPES)('gives %s the operations delivery calls', (type) => {
    const owner = DELIVERY_OWNERS[type];
    for (const operation of ['messageActions', 'confirm', 'actOnLink', 'endedWrites'] as const) expect(typeof owner[operation]).toBe('function');
  });

  it('lets replies and chat buttons act on alerts, and on broadcasts not (they are answered by link)', () => {
    expect(typeof DELIVERY_OWNERS.alert.act).toBe('function');
    expect(DELIVERY_OWNERS.broadcast.act).toBeUndefined();
  });
});
