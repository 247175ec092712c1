// The local runtime's sweeper interval: its setting, and that sweeps never overlap and stop waits for one under way.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_SWEEP_INTERVAL_MS, startInterval, sweepIntervalMs } from '#lib/local/timers.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('HARK_SWEEP_INTERVAL_MS', () => {
  it('defaults to 5 s and takes whole milliseconds from 100', () => {
    expect(LOCAL_SWEEP_INTERVAL_MS).toBe(5000);
    expect(sweepIntervalMs(undefined)).toBe(5000);
    expect(sweepIntervalMs(' ')).toBe(5000);
    expect(sweepIntervalMs('250')).toBe(250);
  });

  it('refuses anything else, naming the setting', () => {
    for (const bad of ['0', '99', '1.5', '-5', 'fast', '5s']) {
      expect(() => sweepIntervalMs(bad), bad).toThrow(`HARK_SWEEP_INTERVAL_MS must be a whole number of milliseconds, at least 100 (got "${bad}")`);
    }
  });
});

describe('the sweep interval', () => {
  it('never starts a sweep while one is running, and stop waits for it', async () => {
    vi.useFakeTimers();
    let running = 0;
    let maxRunning = 0;
    let started = 0;
    let finish: () => void = () => undefined;
    const sweep = () => {
      started += 1;
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      return new Promise<void>((resolve) => {
        finish = () => {
          running -= 1;
          resolve();
        };
      });
    };
    const interval = startInterval(sweep, 1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(started).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(2);
    let stopped = false;
    const stopping = interval.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(started).toBe(2);
    expect(maxRunning).toBe(1);
  });

  it('keeps going after a sweep fails', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const interval = startInterval(async () => {
      calls += 1;
      throw new Error('DynamoDB Local is not up yet');
    }, 1000);
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls).toBe(3);
    await interval.stop();
  });
});
