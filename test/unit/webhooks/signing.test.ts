// Signing as Standard Webhooks specifies, checked with the specification's library as a receiver would; rotation
// keeps the old secret signing until its grace ends.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { maskedHeaders, newSigningSecret, rotatedSecrets, signedHeaders, signingSecrets } from '#lib/webhooks/signing.ts';

const now = '2026-01-01T00:00:00.000Z';

describe('signing', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('signs headers a receiver verifies with the library', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ type: 'alert.created', timestamp: now, data: {} });
    const headers = signedHeaders([{ secret, created_at: now, expires_at: null }], 'msg_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body + ' ', headers)).toThrow();
    expect(maskedHeaders(headers)['webhook-signature']).toBe('v1,…');
  });

  it('rotation: the new secret first, the old ones until the grace ends, none with no grace', () => {
    const old = [{ secret: 'whsec_old', created_at: now, expires_at: null }];
    const rotated = rotatedSecrets(old, 'whsec_new', now, 3600);
    expect(rotated).toEqual([
      { secret: 'whsec_new', created_at: now, expires_at: null },
      { secret: 'whsec_old', created_at: now, expires_at: '2026-01-01T01:00:00.000Z' },
    ]);
    expect(signingSecrets(rotated, '2026-01-01T00:59:59.000Z')).toHaveLength(2);
    expect(signingSecrets(rotated, '2026-01-01T01:00:00.000Z')).toHaveLength(1);
    expect(rotatedSecrets(old, 'whsec_new', now, 0)).toHaveLength(1);
  });
});
