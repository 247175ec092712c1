// Reading a process's parent from Linux's /proc/<pid>/stat (lib/local/parent-watch.ts).
import { describe, expect, it } from 'vitest';
import { parentInStat } from '#lib/local/parent-watch.ts';

describe('parentInStat', () => {
  it('reads the field after the state, whatever the command name holds', () => {
    expect(parentInStat('1673 (sh) S 1642 1673 1440 0 -1 4194560 102 0 0 0')).toBe(1642);
    expect(parentInStat('668 (node lib) (x) S 667 668 1 0 -1')).toBe(667);
  });

  it('answers nothing for a line it cannot read', () => {
    expect(parentInStat('')).toBeUndefined();
    expect(parentInStat('12 (init) S x')).toBeUndefined();
  });
});
