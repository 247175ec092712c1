import { describe, expect, it } from 'vitest';
import { TtlCache } from '#lib/ttl-cache.ts';

function cache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const clock = { now: 1_000 };
  const loads: string[] = [];
  const c = new TtlCache<string, string>({ ttlMs: options.ttlMs ?? 30_000, maxEntries: options.maxEntries ?? 10, now: () => clock.now });
  const load = (key: string, found = true) => async () => {
    loads.push(key);
    return found ? `v:${key}` : undefined;
  };
  return { c, clock, loads, load };
}

describe('TtlCache', () => {
  it('serves a loaded value until its time is up, then loads again', async () => {
    const { c, clock, loads, load } = cache();
    expect(await c.get('a', load('a'))).toBe('v:a');
    clock.now += 29_999;
    expect(await c.get('a', load('a'))).toBe('v:a');
    expect(loads).toEqual(['a']);
    clock.now += 1;
    expect(await c.get('a', load('a'))).toBe('v:a');
    expect(loads).toEqual(['a', 'a']);
  });

  it('never keeps "not found": an unknown key is looked up every time', async () => {
    const { c, loads, load } = cache();
    expect(await c.get('x', load('x', false))).toBeUndefined();
    expect(await c.get('x', load('x', false))).toBeUndefined();
    expect(loads).toEqual(['x', 'x']);
    expect(c.size).toBe(0);
  });

  it('forget drops matching entries at once', async () => {
    const { c, loads, load } = cache();
    await c.get('a', load('a'));
    await c.get('b', load('b'));
    c.forget((value) => value === 'v:a');
    await c.get('a', load('a'));
    await c.get('b', load('b'));
    expect(loads).toEqual(['a', 'b', 'a']);
  });

  it('does not keep a value whose load was under way when something was forgotten', async () => {
    const { c, loads } = cache();
    let release!: (value: string) => void;
    const pending = c.get('a', () => new Promise<string>((resolve) => (release = resolve)));
    c.forget(() => true);
    release('stale');
    expect(await pending).toBe('stale');
    expect(await c.get('a', async () => (loads.push('a'), 'fresh'))).toBe('fresh');
    expect(loads).toEqual(['a']);
  });

  it('holds at most maxEntries, dropping the oldest first', async () => {
    const { c, loads, load } = cache({ maxEntries: 2 });
    await c.get('a', load('a'));
    await c.get('b', load('b'));
    await c.get('c', load('c'));
    expect(c.size).toBe(2);
    await c.get('b', load('b'));
    await c.get('a', load('a'));
    expect(loads).toEqual(['a', 'b', 'c', 'a']);
  });

  it('shares a load under way with the gets of the same key, but not across a forget', async () => {
    const { c } = cache();
    let loads = 0;
    const releases: ((value: string) => void)[] = [];
    const slow = () => {
      loads++;
      return new Promise<string>((resolve) => releases.push(resolve));
    };
    const first = c.get('a', slow);
    const second = c.get('a', slow);
    expect(loads).toBe(1);
    c.forget(() => true);
    const third = c.get('a', slow);
    expect(loads).toBe(2);
    releases[0]!('before the change');
    releases[1]!('after the change');
    expect([await first, await second, await third]).toEqual(['before the change', 'before the change', 'after the change']);
    expect(await c.get('a', slow)).toBe('after the change');
    expect(loads).toBe(2);
  });

  it('lets the next get load again when a shared load fails', async () => {
    const { c } = cache();
    const failing = c.get('a', () => Promise.reject(new Error('unavailable')));
    const joined = c.get('a', async () => 'never asked');
    await expect(failing).rejects.toThrow('unavailable');
    await expect(joined).rejects.toThrow('unavailable');
    expect(await c.get('a', async () => 'loaded')).toBe('loaded');
  });
});
