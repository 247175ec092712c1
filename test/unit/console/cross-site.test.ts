// Login CSRF (docs/security.md): which posts of a sign-in link count as coming from another site.
import { describe, expect, it } from 'vitest';
import { crossSiteReason } from '#lib/console/headers.ts';

const SITE = ['https://hark.example.com', 'http://127.0.0.1:3000'];

describe('crossSiteReason', () => {
  it('takes a same-origin post, a person’s own action and a client that sends neither header', () => {
    expect(crossSiteReason({ 'sec-fetch-site': 'same-origin', origin: 'https://hark.example.com' }, SITE)).toBeUndefined();
    expect(crossSiteReason({ 'sec-fetch-site': 'none' }, SITE)).toBeUndefined();
    // The console's own pages are no-referrer, so a browser's post from them carries `Origin: null`.
    expect(crossSiteReason({ 'sec-fetch-site': 'same-origin', origin: 'null' }, SITE)).toBeUndefined();
    expect(crossSiteReason({ origin: 'http://127.0.0.1:3000' }, SITE)).toBeUndefined();
    expect(crossSiteReason({}, SITE)).toBeUndefined();
  });

  it('refuses another site, a sibling site, an opaque origin, and an origin of another scheme or port', () => {
    expect(crossSiteReason({ 'sec-fetch-site': 'cross-site' }, SITE)).toBe('Sec-Fetch-Site is cross-site');
    expect(crossSiteReason({ 'sec-fetch-site': 'same-site', origin: 'https://evil.example.com' }, SITE)).toBe('Sec-Fetch-Site is same-site');
    expect(crossSiteReason({ origin: 'null' }, SITE)).toBe('Origin null is not this site');
    expect(crossSiteReason({ origin: 'http://hark.example.com' }, SITE)).toMatch(/is not this site/);
    expect(crossSiteReason({ origin: 'http://127.0.0.1:3001' }, SITE)).toMatch(/is not this site/);
    // Where Sec-Fetch-Site is sent it decides (a page cannot set it): a cross-site post is refused whatever its Origin.
    expect(crossSiteReason({ 'sec-fetch-site': 'cross-site', origin: 'https://hark.example.com' }, SITE)).toBe('Sec-Fetch-Site is cross-site');
  });
});
