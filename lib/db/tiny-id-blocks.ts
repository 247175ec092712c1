// Tiny ids taken in blocks when one process takes many a second: a process that took ids in the last lease window
// takes that many more with its next counter update and hands them out from memory until the lease ends, so a storm
// pays one counter update per block, not per create. A quiet process takes exactly what it needs: ids stay 1, 2, 3
// with no gap. Rules and trade-offs: docs/decisions/0030-tiny-ids-in-blocks.md.
import { nowMs } from '../clock.ts';
import { LIMITS } from '../limits.ts';

/** Adds `by` to the sequence named `key` and answers its new last value (one atomic counter update). */
export type Increment = (key: string, by: number) => Promise<number>;

interface Block {
  next: number;
  last: number;
  expiresAt: number;
}

interface Sequence {
  block: Block | undefined;
  /** When ids were handed out in the last lease window, and how many each time. */
  taken: { at: number; count: number }[];
  /** The block being taken: others wait for it rather than take one of their own. */
  taking: Promise<unknown> | undefined;
}

/** Ids a process must have taken in the last lease window before it takes extra: below it, no id is ever skipped. */
const BLOCKS_FROM = 4;
/** Sequences remembered per process before expired ones are forgotten. */
const KEPT_SEQUENCES = 1000;

const range = (first: number, count: number): number[] => Array.from({ length: count }, (_, i) => first + i);

export class TinyIdBlocks {
  private readonly sequences = new Map<string, Sequence>();
  private readonly increment: Increment;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly extraMax: number;

  constructor(increment: Increment, now: () => number = nowMs, leaseMs: number = LIMITS.TINY_ID_BLOCK_LEASE_MS.value, extraMax: number = LIMITS.TINY_ID_BLOCK_EXTRA.value) {
    this.increment = increment;
    this.now = now;
    this.leaseMs = leaseMs;
    this.extraMax = extraMax;
  }

  /** `count` consecutive new ids of the sequence `key`, in order (none for a count of 0). */
  async take(key: string, count: number): Promise<number[]> {
    if (count <= 0) return [];
    const sequence = this.sequenceOf(key);
    for (;;) {
      const at = this.now();
      const block = sequence.block;
      if (block && at < block.expiresAt && block.last - block.next + 1 >= count) {
        block.next += count;
        this.note(sequence, at, count);
        return range(block.next - count, count);
      }
      if (!sequence.taking) break;
      await sequence.taking.catch(() => undefined);
    }
    // What this process took in the last window is what it will likely take in the next: that many more, bounded.
    const at = this.now();
    const recent = sequence.taken.filter((t) => t.at > at - this.leaseMs).reduce((n, t) => n + t.count, 0);
    const size = count + (recent >= BLOCKS_FROM ? Math.min(this.extraMax, recent) : 0);
    const taking = this.increment(key, size);
    sequence.taking = taking;
    try {
      const last = await taking;
      const first = last - size + 1;
      sequence.block = { next: first + count, last, expiresAt: this.now() + this.leaseMs };
      this.note(sequence, at, count);
      return range(first, count);
    } finally {
      sequence.taking = undefined;
    }
  }

  private sequenceOf(key: string): Sequence {
    let sequence = this.sequences.get(key);
    if (!sequence) {
      if (this.sequences.size >= KEPT_SEQUENCES) this.forgetIdle();
      sequence = { block: undefined, taken: [], taking: undefined };
      this.sequences.set(key, sequence);
    }
    return sequence;
  }

  private note(sequence: Sequence, at: number, count: number): void {
    sequence.taken = sequence.taken.filter((t) => t.at > at - this.leaseMs);
    sequence.taken.push({ at, count });
  }

  /** Forgets sequences with no live block and nothing being taken (their unused ids are skipped, as at a lease's end). */
  private forgetIdle(): void {
    const at = this.now();
    for (const [key, sequence] of this.sequences) {
      if (!sequence.taking && (!sequence.block || sequence.block.expiresAt <= at)) this.sequences.delete(key);
    }
  }
}
