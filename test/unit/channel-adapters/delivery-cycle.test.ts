// The notification cycle's steps over a rule's actions: notify and wait, repeat the actions above, ignore, the end.
import { describe, expect, it } from 'vitest';
import { CYCLE_START, cycleStep, isCyclePosition, type CyclePosition } from '#lib/delivery/cycle.ts';
import type { Channel, NotificationAction } from '#lib/rule-engine/index.ts';

const notify = (channels: Channel[], timeoutMs?: number): NotificationAction =>
  timeoutMs === undefined ? { type: 'notify', channels, channelOptions: {} } : { type: 'notify', channels, channelOptions: {}, timeoutMs };
const repeat = (times: number): NotificationAction => ({ type: 'repeat', times });
const ignore: NotificationAction = { type: 'ignore' };
const MIN = 60_000;

/** Every step of a cycle from the start: the channels sent and the wait after each. */
function run(actions: NotificationAction[]): { channels: readonly Channel[]; waitMs: number | null }[] {
  const steps: { channels: readonly Channel[]; waitMs: number | null }[] = [];
  let position: CyclePosition | null = CYCLE_START;
  while (position) {
    const step = cycleStep(actions, position);
    steps.push({ channels: step.channels, waitMs: step.next?.delayMs ?? null });
    position = step.next?.position ?? null;
    if (steps.length > 50) throw new Error('the cycle does not end');
  }
  return steps;
}

describe('cycleStep', () => {
  it('notifies, waits the timeout, notifies the next, and repeats the actions above', () => {
    expect(run([notify(['email'], 5 * MIN), notify(['sms'], 5 * MIN), repeat(2)])).toEqual([
      { channels: ['email'], waitMs: 5 * MIN },
      { channels: ['sms'], waitMs: 5 * MIN },
      { channels: ['email'], waitMs: 5 * MIN },
      { channels: ['sms'], waitMs: 5 * MIN },
      { channels: ['email'], waitMs: 5 * MIN },
      { channels: ['sms'], waitMs: null },
    ]);
  });

  it('ends after the last notify without waiting out its timeout', () => {
    expect(run([notify(['email'], 5 * MIN), notify(['sms'], 5 * MIN)])).toEqual([
      { channels: ['email'], waitMs: 5 * MIN },
      { channels: ['sms'], waitMs: null },
    ]);
  });

  it('sends notifies without a timeout together, each channel once', () => {
    expect(run([notify(['push', 'email']), notify(['email', 'sms'], 2 * MIN), notify(['voice'])])).toEqual([
      { channels: ['push', 'email', 'sms'], waitMs: 2 * MIN },
      { channels: ['voice'], waitMs: null },
    ]);
  });

  it('a zero timeout goes on at once', () => {
    expect(run([notify(['push'], 0), notify(['sms'])])).toEqual([{ channels: ['push', 'sms'], waitMs: null }]);
  });

  it('ignore ends the cycle without sending more', () => {
    expect(run([notify(['email'], MIN), ignore, notify(['sms'])])).toEqual([{ channels: ['email'], waitMs: null }]);
    expect(run([ignore, notify(['sms'])])).toEqual([{ channels: [], waitMs: null }]);
  });

  it('repeat 0 times reruns nothing; nested repeats each rerun their own count', () => {
    expect(run([notify(['email'], MIN), repeat(0), notify(['sms'])])).toEqual([{ channels: ['email'], waitMs: MIN }, { channels: ['sms'], waitMs: null }]);
    const steps = run([notify(['email'], MIN), repeat(1), notify(['sms'], MIN), repeat(1)]);
    expect(steps.map((s) => s.channels.join())).toEqual(['email', 'email', 'sms', 'email', 'sms']);
  });

  it('a repeat with no wait above it sends the channels once', () => {
    expect(run([notify(['email']), repeat(3)])).toEqual([{ channels: ['email'], waitMs: null }]);
  });
});

describe('isCyclePosition', () => {
  it('accepts stored positions and refuses anything else', () => {
    expect(isCyclePosition({ index: 2, repeats: { '3': 1 } })).toBe(true);
    expect(isCyclePosition(CYCLE_START)).toBe(true);
    for (const bad of [null, 1, {}, { index: 1.5, repeats: {} }, { index: 1 }, { index: 1, repeats: { a: 'x' } }]) expect(isCyclePosition(bad)).toBe(false);
  });
});
