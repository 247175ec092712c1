// What the daily gap check tells: each gap once, by its layer and start; a filled gap forgotten (docs/schedules.md, "Gaps").
import { describe, expect, it } from 'vitest';
import { gapKey, gapNoticeText, gapsToTell, keysToKeep } from '#lib/gap-check/notice.ts';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 2, 2, 12);
const night = { layer: 1, startMs: Date.UTC(2026, 2, 3, 20), endMs: Date.UTC(2026, 2, 4, 6) };
const ongoing = { layer: 2, startMs: NOW, endMs: NOW + 5 * HOUR };

describe('gap notices', () => {
  it('tells a gap once: told keys are left out, a gap going on at the check is not told', () => {
    expect(gapsToTell([night, ongoing], [], NOW)).toEqual([night]);
    const kept = keysToKeep([night, ongoing], NOW);
    expect(kept).toEqual([gapKey(night)]);
    expect(gapsToTell([night, ongoing], kept, NOW + 24 * HOUR - 1)).toEqual([]);
    // The same hole shortened at its end is the same gap; one that starts later is a new one.
    expect(gapsToTell([{ ...night, endMs: night.endMs - HOUR }], kept, NOW)).toEqual([]);
    expect(gapsToTell([{ ...night, startMs: night.startMs + HOUR }], kept, NOW)).toHaveLength(1);
  });

  it('forgets a filled gap, so a hole that comes back is told again', () => {
    const afterFilling = keysToKeep([], NOW);
    expect(afterFilling).toEqual([]);
    expect(gapsToTell([night], afterFilling, NOW)).toEqual([night]);
  });

  it('names the schedule, the team, the layer and the hours', () => {
    const { subject, body } = gapNoticeText('Payments Schedule', 'Payments', [night]);
    expect(subject).toBe('Nobody on call in Payments Schedule: a gap in the next days');
    expect(body.split('\n').slice(0, 2)).toEqual([
      'The schedule Payments Schedule of team Payments has nobody on call at these times:',
      '- layer 1: nobody on call from Tue 3 Mar 2026 20:00 UTC to Wed 4 Mar 2026 06:00 UTC (10 hours)',
    ]);
    expect(gapNoticeText('S', 'T', [night, { ...night, layer: 2, endMs: night.startMs + 1.5 * HOUR }]).body).toContain('(1.5 hours)');
  });
});
