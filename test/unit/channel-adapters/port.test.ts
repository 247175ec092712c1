import { describe, expect, it } from 'vitest';
import { DELIVERY_CHANNELS } from '#lib/channel-adapters/port.ts';
import { CHANNELS } from '#lib/rule-engine/notification.ts';

describe('delivery port', () => {
  it('delivers on exactly the channels notification rules can name', () => {
    expect([...DELIVERY_CHANNELS].sort()).toEqual([...CHANNELS].sort());
  });
});
