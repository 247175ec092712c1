// HARK_TIME_SCALE as the configuration reads it (lib/config-values.ts; docs/configuration.md).
import { describe, expect, it } from 'vitest';
import { parseTimeScale } from '#lib/config-values.ts';

describe('parseTimeScale', () => {
  it('reads HARK_TIME_SCALE: unset is 1, a whole number from 1 to 3600 otherwise', () => {
    expect(parseTimeScale(undefined, false)).toEqual({ ok: true, scale: 1 });
    expect(parseTimeScale('', false)).toEqual({ ok: true, scale: 1 });
    expect(parseTimeScale(' 60 ', false)).toEqual({ ok: true, scale: 60 });
    expect(parseTimeScale('3600', false)).toEqual({ ok: true, scale: 3600 });
    for (const bad of ['0', '-2', '1.5', 'fast', '3601', '1e3']) {
      expect(parseTimeScale(bad, false)).toEqual({ ok: false, message: `HARK_TIME_SCALE must be a whole number from 1 to 3600 (got "${bad}")` });
    }
  });
  it('accepts only 1 in a deployed stack', () => {
    expect(parseTimeScale('1', true)).toEqual({ ok: true, scale: 1 });
    expect(parseTimeScale(undefined, true)).toEqual({ ok: true, scale: 1 });
    expect(parseTimeScale('60', true)).toEqual({
      ok: false,
      message: 'HARK_TIME_SCALE must be 1 in a deployed stack (got 60); faster time is for the local runtime only',
    });
  });
});
