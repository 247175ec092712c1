// The timer items and writes exactly as DynamoDB receives them, checked offline.
import { describe, expect, it } from 'vitest';
import { parseWakeUp, PoisonMessageError } from '#lib/timers/consumer.ts';
import { pendingTimerItem, TIMER_SHARDS, timerFiredItem, timerIndexSk, timerProgressItem, timerKey, timerOf, timerOwnerPk, timerPutItems, timersFirst, timerShard } from '#lib/timers/items.ts';
import { sweepCutoff } from '#lib/timers/sweeper.ts';
import { wakeUpFor, wakeUpMessageOf } from '#lib/timers/wake-ups.ts';
import type { DurableTimer } from '#lib/timers/index.ts';

const timer: DurableTimer = {
  accountId: 'acc1',
  ownerType: 'alert',
  ownerId: 'al1',
  timerId: '01JTIMER000000000000000000',
  kind: 'layer_timeout',
  dueAt: '2026-11-23T10:00:05.000Z',
  epoch: 3,
  payload: { escalation: 0, layer: 2, pass: 1 },
};
const pk = 'A#acc1#AL#al1';

describe('timer items', () => {
  it('live in the owner’s partition under TIMER#<id>', () => {
    expect(timerOwnerPk(timer)).toBe(pk);
    expect(timerKey(timer)).toEqual({ pk, sk: 'TIMER#01JTIMER000000000000000000' });
    expect(timerOwnerPk({ ...timer, ownerType: 'broadcast', ownerId: 'br1' })).toBe('A#acc1#BR#br1');
  });

  it('are stored new, pending, with the sharded sweep index keys ordered by due time', () => {
    const [put] = timerPutItems(pk, [timer], '2026-11-23T10:00:00.000Z');
    const shard = timerShard(timer.timerId);
    expect(put).toEqual({
      Put: {
        Item: {
          ...timer,
          pk,
          sk: 'TIMER#01JTIMER000000000000000000',
          type: 'TIMER',
          state: 'pending',
          createdAt: '2026-11-23T10:00:00.000Z',
          gsi3pk: `TIMERS#${shard}`,
          gsi3sk: '2026-11-23T10:00:05.000Z#acc1#al1#01JTIMER000000000000000000',
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  });

  it('spread over every shard, each timer always in the same one', () => {
    const ids = Array.from({ length: 400 }, (_, i) => `01J${String(i).padStart(23, '0')}`);
    const shards = new Set(ids.map((id) => timerShard(id)));
    expect(shards.size).toBe(TIMER_SHARDS);
    expect(ids.every((id) => timerShard(id) === timerShard(id) && timerShard(id) < TIMER_SHARDS)).toBe(true);
  });

  it('refuse a due time the index could not order, and a partition that is not the owner’s', () => {
    expect(() => timerPutItems(pk, [{ ...timer, dueAt: '2026-11-23T10:00:05Z' }])).toThrow('dueAt must be an ISO instant');
    expect(() => timerPutItems('A#acc1#AL#other', [timer])).toThrow('belongs in partition A#acc1#AL#al1');
    expect(() => timerFiredItem('A#acc1', timer)).toThrow('belongs in partition');
  });

  it('are marked fired only while pending, leaving the sweep index and expiring a week later', () => {
    const now = new Date('2026-11-23T10:00:06.000Z');
    expect(timerFiredItem(pk, timer, now)).toEqual({
      Update: {
        Key: { pk, sk: 'TIMER#01JTIMER000000000000000000' },
        UpdateExpression: 'SET #state = :fired, firedAt = :now, #ttl = :ttl REMOVE gsi3pk, gsi3sk',
        ConditionExpression: '#state = :pending AND attribute_exists(gsi3pk)',
        ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':fired': 'fired', ':pending': 'pending', ':now': '2026-11-23T10:00:06.000Z', ':ttl': now.getTime() / 1000 + 7 * 24 * 3600 },
      },
    });
  });

  it('record the parts a firing wrote only while pending and at the count it started from; the last part marks them fired', () => {
    const now = new Date('2026-11-23T10:00:06.000Z');
    const key = { pk, sk: 'TIMER#01JTIMER000000000000000000' };
    expect(timerProgressItem(pk, timer, { from: 0, to: 12, last: false }, now)).toEqual({
      Update: {
        Key: key,
        UpdateExpression: 'SET progress = :to',
        ConditionExpression: '#state = :pending AND attribute_exists(gsi3pk) AND attribute_not_exists(progress)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'pending', ':to': 12 },
      },
    });
    expect(timerProgressItem(pk, timer, { from: 12, to: 30, last: true }, now)).toEqual({
      Update: {
        Key: key,
        UpdateExpression: 'SET progress = :to, #state = :fired, firedAt = :now, #ttl = :ttl REMOVE gsi3pk, gsi3sk',
        ConditionExpression: '#state = :pending AND attribute_exists(gsi3pk) AND progress = :from',
        ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':pending': 'pending', ':to': 30, ':from': 12, ':fired': 'fired', ':now': '2026-11-23T10:00:06.000Z', ':ttl': now.getTime() / 1000 + 7 * 24 * 3600 },
      },
    });
    expect(() => timerProgressItem('A#acc1', timer, { from: 0, to: 1, last: true })).toThrow('belongs in partition');
  });

  it('give back the timer they store', () => {
    expect(timerOf(pendingTimerItem(pk, timer, '2026-11-23T10:00:00.000Z'))).toEqual(timer);
  });
});

describe('the sweep cutoff', () => {
  it('takes timers due strictly more than the grace ago, as the index sorts them', () => {
    const now = Date.parse('2026-11-23T10:00:10.000Z');
    const cutoff = sweepCutoff(now, 5000);
    expect(cutoff).toBe('2026-11-23T10:00:05.000Z');
    // Due exactly at the cutoff is not overdue (5 s late is within the grace); a millisecond earlier is.
    expect(timerIndexSk(timer) < cutoff).toBe(false);
    expect(timerIndexSk({ ...timer, dueAt: '2026-11-23T10:00:04.999Z' }) < cutoff).toBe(true);
  });
});

describe('wake-up messages', () => {
  it('name the timer and wait min(900 s, due − now), rounded up', () => {
    const due = Date.parse(timer.dueAt);
    expect(wakeUpFor(timer, due - 1200)).toEqual({ message: { kind: 'timer', ownerType: 'alert', accountId: 'acc1', ownerId: 'al1', timerId: timer.timerId, dueAt: timer.dueAt }, delaySeconds: 2 });
    expect(wakeUpFor(timer, due - 3_600_000).delaySeconds).toBe(900);
    expect(wakeUpFor(timer, due + 10).delaySeconds).toBe(0);
  });

  it('are parsed back, and a malformed one is poison', () => {
    expect(parseWakeUp(JSON.stringify(wakeUpMessageOf(timer)))).toEqual(wakeUpMessageOf(timer));
    expect(() => parseWakeUp('not json')).toThrow(PoisonMessageError);
    expect(() => parseWakeUp(JSON.stringify({ ...wakeUpMessageOf(timer), timerId: '' }))).toThrow('timerId');
    expect(() => parseWakeUp(JSON.stringify({ ...wakeUpMessageOf(timer), ownerType: 'spaceship' }))).toThrow('unknown owner type "spaceship"');
  });
});

describe('timersFirst', () => {
  // An owner's deletion removes its timers first: a delivery timer carries its message (decision 0023).
  it('puts every timer item before the other items, each group in the order read', () => {
    const items = [{ sk: 'LOG#1' }, { sk: 'NOTIF#1' }, { sk: 'TIMER#b' }, { sk: 'NOTIF#2' }, { sk: 'TIMER#a' }, { sk: 'TEAM#x' }];
    expect(timersFirst(items).map((i) => i.sk)).toEqual(['TIMER#b', 'TIMER#a', 'LOG#1', 'NOTIF#1', 'NOTIF#2', 'TEAM#x']);
  });

  it('keeps a partition without timers as it is', () => {
    expect(timersFirst([{ sk: 'LOG#1' }, { sk: 'NOTIF#1' }])).toEqual([{ sk: 'LOG#1' }, { sk: 'NOTIF#1' }]);
  });
});
