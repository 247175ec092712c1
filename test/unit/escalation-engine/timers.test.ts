import { describe, expect, it } from 'vitest';
import {
  MAX_WAKE_UP_DELAY_SECONDS,
  isCurrentFiring,
  isOverdue,
  onWakeUp,
  scaledWait,
  wakeUpDelaySeconds,
} from '#lib/escalation-engine/index.ts';

const NOW = Date.UTC(2026, 0, 1);

describe('wakeUpDelaySeconds', () => {
  it('is the time left, in whole seconds rounded up', () => {
    expect(wakeUpDelaySeconds(NOW + 300_000, NOW)).toBe(300);
    expect(wakeUpDelaySeconds(NOW + 1_001, NOW)).toBe(2);
    expect(wakeUpDelaySeconds(NOW + 1, NOW)).toBe(1);
  });
  it('never exceeds 900 s (SQS refuses more)', () => {
    expect(MAX_WAKE_UP_DELAY_SECONDS).toBe(900);
    expect(wakeUpDelaySeconds(NOW + 900_000, NOW)).toBe(900);
    expect(wakeUpDelaySeconds(NOW + 3_600_000, NOW)).toBe(900);
  });
  it('is never negative: a due or overdue timer wakes at once', () => {
    expect(wakeUpDelaySeconds(NOW, NOW)).toBe(0);
    expect(wakeUpDelaySeconds(NOW - 60_000, NOW)).toBe(0);
  });
});

describe('onWakeUp', () => {
  it('fires a timer that is due or overdue', () => {
    expect(onWakeUp(NOW, NOW)).toEqual({ action: 'fire' });
    expect(onWakeUp(NOW - 5, NOW)).toEqual({ action: 'fire' });
  });
  it('re-sends a long wait with the remainder', () => {
    // An hour-long layer: the first message waits 900 s, then 2,700 s remain.
    expect(onWakeUp(NOW + 2_700_000, NOW)).toEqual({ action: 'resend', delaySeconds: 900 });
    expect(onWakeUp(NOW + 600_000, NOW)).toEqual({ action: 'resend', delaySeconds: 600 });
  });
  it('re-sends a message delivered a little early with at least one second', () => {
    expect(onWakeUp(NOW + 200, NOW)).toEqual({ action: 'resend', delaySeconds: 1 });
  });
});

describe('isCurrentFiring', () => {
  it('needs the timer pending and set under the owner’s current epoch', () => {
    expect(isCurrentFiring({ pending: true, epoch: 3 }, 3)).toBe(true);
    expect(isCurrentFiring({ pending: false, epoch: 3 }, 3)).toBe(false);
    expect(isCurrentFiring({ pending: true, epoch: 2 }, 3)).toBe(false);
  });
});

describe('isOverdue', () => {
  it('counts a timer as lost only once it is more than the grace period late', () => {
    expect(isOverdue(NOW, NOW + 5_000)).toBe(false);
    expect(isOverdue(NOW, NOW + 5_001)).toBe(true);
    expect(isOverdue(NOW, NOW + 1_000, 500)).toBe(true);
    expect(isOverdue(NOW + 60_000, NOW)).toBe(false);
  });
});

describe('time scale', () => {
  it('divides waits by the scale', () => {
    expect(scaledWait(300_000, 1)).toBe(300_000);
    expect(scaledWait(300_000, 60)).toBe(5_000);
    expect(scaledWait(1_000, 3)).toBe(334);
    expect(scaledWait(1, 3600)).toBe(1);
    expect(scaledWait(0, 60)).toBe(0);
  });
});
