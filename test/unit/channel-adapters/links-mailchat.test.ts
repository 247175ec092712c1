// Signed action links: what a link allows, and every way a token is refused (tampered, expired, wrong key,
// rotated key). Pure: keys and the base URL are passed in.
import { describe, expect, it } from 'vitest';
import { ACTION_LINK_LIFETIME_MS } from '#lib/limits.ts';
import { actionLinks, keyIdOf, signActionToken, tokenOfLink, verifyActionToken, type ActionClaims } from '#lib/delivery/links.ts';
import { ALERT_LINK_ACTIONS } from '#lib/alerts/message-owner.ts';

const KEY = 'k'.repeat(40);
const OTHER_KEY = 'o'.repeat(40);
const NOW = Date.parse('2026-11-23T03:00:00Z');
const BASE = 'https://hark.example.com/';

const links = (keys = { current: KEY }) =>
  actionLinks({ ownerType: 'alert', ownerId: '01JALERT', accountId: '01JACCOUNT', accountUserId: '01JPERSON', actions: ALERT_LINK_ACTIONS, now: NOW, channel: 'email', keys, baseUrl: BASE });

/** Flips one character of the token's part `part` (0 claims, 1 signature), keeping it base64url. */
function tamper(token: string, part: 0 | 1, at = 5): string {
  const parts = token.split('.');
  const text = parts[part]!;
  const flipped = text[at] === 'A' ? 'B' : 'A';
  parts[part] = text.slice(0, at) + flipped + text.slice(at + 1);
  return parts.join('.');
}

describe('actionLinks', () => {
  it('makes one link per action under the public URL, each naming the owner, person, action, channel and expiry', () => {
    const made = links();
    expect(made.map((l) => [l.action, l.label])).toEqual([
      ['acknowledge', 'Acknowledge'],
      ['resolve', 'Resolve'],
    ]);
    for (const link of made) {
      expect(link.url.startsWith('https://hark.example.com/actions/')).toBe(true);
      const check = verifyActionToken(tokenOfLink(link.url), NOW, { current: KEY });
      expect(check).toEqual({
        ok: true,
        claims: {
          ownerType: 'alert',
          ownerId: '01JALERT',
          accountId: '01JACCOUNT',
          accountUserId: '01JPERSON',
          action: link.action,
          epoch: null,
          expiresAt: NOW + ACTION_LINK_LIFETIME_MS,
          channel: 'email',
        },
      });
    }
  });

  it('reads the key and public URL from the configuration, and makes no links when either is unset', () => {
    const saved = { secret: process.env.HARK_LINK_SECRET, url: process.env.HARK_PUBLIC_URL };
    const request = { ownerType: 'alert', ownerId: 'a', accountId: 'b', accountUserId: 'c', actions: ALERT_LINK_ACTIONS, now: NOW } as const;
    try {
      process.env.HARK_PUBLIC_URL = 'https://configured.example.com';
      delete process.env.HARK_LINK_SECRET;
      expect(actionLinks(request)).toEqual([]);
      process.env.HARK_LINK_SECRET = KEY;
      delete process.env.HARK_PUBLIC_URL;
      expect(actionLinks(request)).toEqual([]);
      process.env.HARK_PUBLIC_URL = 'https://configured.example.com/';
      const made = actionLinks(request);
      expect(made).toHaveLength(2);
      expect(made[0]!.url.startsWith('https://configured.example.com/actions/')).toBe(true);
      expect(verifyActionToken(tokenOfLink(made[0]!.url), NOW).ok).toBe(true);
    } finally {
      for (const [name, value] of [['HARK_LINK_SECRET', saved.secret], ['HARK_PUBLIC_URL', saved.url]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('binds a broadcast answer to its epoch', () => {
    const [link] = actionLinks({ ownerType: 'broadcast', ownerId: 'B1', accountId: 'A', accountUserId: 'P', actions: [{ action: 'opt-2', label: 'On my way' }], now: NOW, epoch: 3, keys: { current: KEY }, baseUrl: BASE });
    const check = verifyActionToken(tokenOfLink(link!.url), NOW, { current: KEY });
    expect(check.ok && check.claims).toMatchObject({ ownerType: 'broadcast', action: 'opt-2', epoch: 3, channel: null });
  });
});

describe('verifyActionToken', () => {
  const token = () => tokenOfLink(links()[0]!.url);

  it('refuses a token whose claims were changed', () => {
    const claims = JSON.parse(Buffer.from(token().split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, x: 'resolve' })).toString('base64url');
    expect(verifyActionToken(`${forged}.${token().split('.')[1]}`, NOW, { current: KEY })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyActionToken(tamper(token(), 1), NOW, { current: KEY }).ok).toBe(false);
  });

  it('refuses garbage as malformed', () => {
    for (const bad of ['', 'abc', 'a.b', `${'x'.repeat(20)}.${'y'.repeat(43)}`, `${tamper(token(), 0, 0)}`, `${token()}.extra`]) {
      expect(verifyActionToken(bad, NOW, { current: KEY }).ok, bad).toBe(false);
    }
    expect(verifyActionToken(`${'x'.repeat(20)}.${'y'.repeat(43)}`, NOW, { current: KEY })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts a token until its expiry and refuses it from then on, still saying what it was for', () => {
    const expiry = NOW + ACTION_LINK_LIFETIME_MS;
    expect(verifyActionToken(token(), expiry - 1000, { current: KEY }).ok).toBe(true);
    const expired = verifyActionToken(token(), expiry, { current: KEY });
    expect(expired).toMatchObject({ ok: false, reason: 'expired', claims: { ownerId: '01JALERT', action: 'acknowledge' } });
  });

  it('refuses a token signed with another key', () => {
    expect(verifyActionToken(token(), NOW, { current: OTHER_KEY })).toEqual({ ok: false, reason: 'unknown_key' });
    expect(verifyActionToken(token(), NOW, undefined)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('refuses a token that names the right key id but carries another key’s MAC', () => {
    const claims: ActionClaims = { ownerType: 'alert', ownerId: 'X', accountId: 'A', accountUserId: 'P', action: 'resolve', epoch: null, expiresAt: NOW + 60_000, channel: 'push' };
    const forged = signActionToken(claims, OTHER_KEY);
    const payload = JSON.parse(Buffer.from(forged.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const relabelled = Buffer.from(JSON.stringify({ ...payload, k: keyIdOf(KEY) })).toString('base64url');
    expect(verifyActionToken(`${relabelled}.${forged.split('.')[1]}`, NOW, { current: KEY })).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('after a rotation, verifies links of the previous key and signs with the new one', () => {
    const old = token();
    const rotated = { current: OTHER_KEY, previous: KEY };
    expect(verifyActionToken(old, NOW, rotated).ok).toBe(true);
    const fresh = tokenOfLink(links(rotated)[0]!.url);
    expect(verifyActionToken(fresh, NOW, { current: OTHER_KEY }).ok).toBe(true);
    expect(verifyActionToken(fresh, NOW, { current: KEY })).toEqual({ ok: false, reason: 'unknown_key' });
    // Once the previous key is dropped, its links stop working.
    expect(verifyActionToken(old, NOW, { current: OTHER_KEY })).toEqual({ ok: false, reason: 'unknown_key' });
  });
});
