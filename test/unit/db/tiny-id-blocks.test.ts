// Tiny ids in blocks (lib/db/tiny-id-blocks.ts, docs/decisions/0030-tiny-ids-in-blocks.md): a quiet process takes
// exactly what it needs, a storm takes blocks, a lease's end skips what is left, and no id is ever handed out twice.
import { describe, expect, it } from 'vitest';
import { TinyIdBlocks } from '#lib/db/tiny-id-blocks.ts';

/** A counter store (one number per key) that records every update, and a clock the test moves. */
function fixture(leaseMs = 1000, extraMax = 16) {
  const counters = new Map<string, number>();
  const updates: { key: string; by: number }[] = [];
  let now = 1_000_000;
  const increment = async (key: string, by: number) => {
    updates.push({ key, by });
    const last = (counters.get(key) ?? 0) + by;
    counters.set(key, last);
    return last;
  };
  const blocks = new TinyIdBlocks(increment, () => now, leaseMs, extraMax);
  return {
    blocks,
    updates,
    counters,
    advance: (ms: number) => void (now += ms),
  };
}

describe('TinyIdBlocks', () => {
  it('takes exactly what a quiet process needs: one update per create, no id skipped', async () => {
    const f = fixture();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(...(await f.blocks.take('a', 1)));
      f.advance(400); // about two creates a second: below the storm threshold
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(f.updates.map((u) => u.by)).toEqual([1, 1, 1, 1, 1]);
  });

  it('hands out consecutive ids for a step, and nothing for a count of 0', async () => {
    const f = fixture();
    expect(await f.blocks.take('a', 0)).toEqual([]);
    expect(f.updates).toEqual([]);
    expect(await f.blocks.take('a', 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('takes blocks in a storm: what the last lease took, more, bounded; one update per block', async () => {
    const f = fixture();
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) {
      ids.push(...(await f.blocks.take('a', 1)));
      f.advance(5); // 200 creates a second
    }
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // The first four one by one, then blocks of at most 1 + 16.
    expect(f.updates.slice(0, 4).map((u) => u.by)).toEqual([1, 1, 1, 1]);
    expect(Math.max(...f.updates.map((u) => u.by))).toBe(17);
    expect(f.updates.length).toBeLessThan(15);
  });

  it('skips what is left of a block when its lease ends, and never hands an id out twice', async () => {
    const f = fixture();
    for (let i = 0; i < 10; i++) await f.blocks.take('a', 1);
    const last = f.counters.get('a')!;
    expect(last).toBeGreaterThan(10); // a block with ids to spare
    f.advance(1000);
    const [next] = await f.blocks.take('a', 1);
    expect(next).toBe(last + 1);
    // Quiet again: back to one id per update.
    f.advance(1500);
    expect(await f.blocks.take('a', 1)).toEqual([last + 2]);
    expect(f.updates.at(-1)!.by).toBe(1);
  });

  it('takes a new block when a step needs more than is left, keeping the step consecutive', async () => {
    const f = fixture();
    for (let i = 0; i < 6; i++) await f.blocks.take('a', 1);
    const taken = await f.blocks.take('a', 40);
    expect(taken).toHaveLength(40);
    expect(taken.at(-1)! - taken[0]!).toBe(39);
    expect(taken[0]).toBeGreaterThan(6);
  });

  it('takes one block at a time per sequence: concurrent takers wait for it, never take their own at once', async () => {
    let inFlight = 0;
    let most = 0;
    let counter = 0;
    const blocks = new TinyIdBlocks(async (_key, by) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return (counter += by);
    }, () => 0);
    const ids = (await Promise.all(Array.from({ length: 30 }, () => blocks.take('a', 1)))).flat();
    expect(most).toBe(1);
    expect(new Set(ids).size).toBe(30);
    expect(Math.max(...ids)).toBeLessThanOrEqual(counter);
  });

  it('keeps sequences apart', async () => {
    const f = fixture();
    expect(await f.blocks.take('a', 2)).toEqual([1, 2]);
    expect(await f.blocks.take('b', 1)).toEqual([1]);
  });

  it('hands out nothing from a failed update, and the next taker takes again', async () => {
    let fail = true;
    let counter = 0;
    const blocks = new TinyIdBlocks(async (_key, by) => {
      if (fail) throw new Error('throttled');
      return (counter += by);
    }, () => 0);
    await expect(blocks.take('a', 1)).rejects.toThrow('throttled');
    fail = false;
    expect(await blocks.take('a', 1)).toEqual([1]);
  });
});
