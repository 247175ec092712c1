import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { comparedLine, recordedRatios } from '../../../bench/recorded.ts';

describe('the hot paths against their recorded figures', () => {
  it('reads the recorded ratios from docs/benchmarks.md', () => {
    const recorded = recordedRatios(readFileSync(new URL('../../../docs/benchmarks.md', import.meta.url), 'utf8'));
    for (const name of ['GET /schedules/:id vs GetItem, c=1', 'GET /schedules/:id vs GetItem, c=16', 'GET /schedules?limit=10 (1000) vs Query(10)', 'GET /schedules?limit=10 (5000) vs Query(10)']) {
      expect(recorded.get(name), name).toBeGreaterThan(0);
    }
  });

  it('says when a figure is more than 15 % slower than recorded, and only then', () => {
    expect(comparedLine('GET', 0.53, 0.65)).toBe('GET: 0.53 measured, 0.65 recorded — SLOWER than recorded by 18 % (more than 15 %): look for a regression');
    expect(comparedLine('GET', 0.56, 0.65)).toBe('GET: 0.56 measured, 0.65 recorded — within 15 % of the recorded figure or faster (-14 %)');
    expect(comparedLine('GET', 0.8, 0.65)).toContain('or faster (+23 %)');
    expect(comparedLine('GET', 0.8, undefined)).toBe('GET: 0.80 (no recorded figure in docs/benchmarks.md)');
  });
});
