// The order an alert's partition is deleted in: its timers first, so a delivery timer (which carries its message,
// docs/decisions/0023-what-a-page-writes.md) is gone before anything else and a deleted alert sends nothing more.
import { describe, expect, it } from 'vitest';
import { timersFirst } from '#lib/alerts/delete.ts';

describe('timersFirst', () => {
  it('puts every timer item before the other items, each group in the order read', () => {
    const items = [{ sk: 'LOG#1' }, { sk: 'NOTIF#1' }, { sk: 'TIMER#b' }, { sk: 'NOTIF#2' }, { sk: 'TIMER#a' }, { sk: 'TEAM#x' }];
    expect(timersFirst(items).map((i) => i.sk)).toEqual(['TIMER#b', 'TIMER#a', 'LOG#1', 'NOTIF#1', 'NOTIF#2', 'TEAM#x']);
  });

  it('keeps a partition without timers as it is', () => {
    expect(timersFirst([{ sk: 'LOG#1' }, { sk: 'NOTIF#1' }])).toEqual([{ sk: 'LOG#1' }, { sk: 'NOTIF#1' }]);
  });
});
