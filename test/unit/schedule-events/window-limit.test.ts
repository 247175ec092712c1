// window_events refuses a window as soon as its expansion passes MAX_WINDOW_ENTRIES, which must be exactly the most
// entries of the smallest size one response carries: never fewer (an answerable window would be refused), never more.
import { describe, expect, it } from 'vitest';
import { ENVELOPE_BYTES, SMALLEST_ENTRY_BYTES } from '#lib/schedule-events/views.ts';
import { MAX_LAMBDA_RESPONSE_BYTES, MAX_WINDOW_ENTRIES } from '#lib/limits.ts';

describe('MAX_WINDOW_ENTRIES', () => {
  it('is the most entries of the smallest possible size that fit in one Lambda response', () => {
    expect(MAX_WINDOW_ENTRIES).toBe(Math.floor((MAX_LAMBDA_RESPONSE_BYTES - ENVELOPE_BYTES) / (SMALLEST_ENTRY_BYTES + 1)));
    expect(ENVELOPE_BYTES + (MAX_WINDOW_ENTRIES + 1) * (SMALLEST_ENTRY_BYTES + 1)).toBeGreaterThan(MAX_LAMBDA_RESPONSE_BYTES);
  });
});
