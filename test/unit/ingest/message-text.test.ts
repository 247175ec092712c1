// The ingest message's text (lib/queue/ingest.ts, docs/ingest.md section 2): characters beyond the Basic Multilingual
// Plane travel as JSON escapes, which the local SQS emulator takes, and parse back to the same message.
import { describe, expect, it } from 'vitest';
import { ingestMessageSchema, ingestMessageText, type IngestMessage } from '#lib/queue/ingest.ts';

// The emulator's own test of a message body: any UTF-16 unit outside these ranges (a surrogate of an emoji) is refused.
// eslint-disable-next-line no-control-regex -- the emulator's pattern, copied to show what it refuses
const EMULATOR_REFUSES = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD]/;

describe('ingestMessageText', () => {
  it('escapes an emoji so the emulator takes it, and parses back to the same message', () => {
    const message: IngestMessage = {
      kind: 'webhook',
      requestId: 'r1',
      accountId: 'a',
      integrationId: 'i',
      receivedAt: '2026-11-28T00:00:00.000Z',
      headers: {},
      query: {},
      body: { payload: { summary: '[Uptime Kuma Monitor 🔴 Down] [shop] ✅ 𝄞' }, '🔑': 'key' },
    };
    const text = ingestMessageText(message);
    expect(EMULATOR_REFUSES.test(JSON.stringify(message))).toBe(true);
    expect(EMULATOR_REFUSES.test(text)).toBe(false);
    expect(text).toContain('\\ud83d\\udd34');
    expect(ingestMessageSchema.parse(JSON.parse(text))).toEqual(message);
  });
});
