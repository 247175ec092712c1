// What every console response carries (docs/console.md, "Security"): a strict Content-Security-Policy with no
// inline script or style, no framing, no referrer, no caching of pages; and the session cookie's attributes.
import type { HttpResult } from '../http/responses.ts';
import { SESSION_HOURS } from '../limits.ts';

/** Only the console's own stylesheet, script and forms; nothing inline, nothing from elsewhere, never framed. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
};

export const htmlResult = (status: number, body: string, headers: Record<string, string> = {}): HttpResult => ({
  statusCode: status,
  headers: { ...PAGE_HEADERS, ...headers },
  body,
});

/** 303 See Other: after a form, the browser GETs the page (a reload does not post again). */
export const redirect = (location: string, headers: Record<string, string> = {}): HttpResult => ({
  statusCode: 303,
  headers: { ...PAGE_HEADERS, location, ...headers },
  body: '',
});

/** The cookie's name and attributes: `__Host-` and `Secure` whenever the public URL is https. */
export function cookieName(secure: boolean): string {
  return secure ? '__Host-hark_session' : 'hark_session';
}

export function sessionCookie(id: string, secure: boolean): string {
  return `${cookieName(secure)}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_HOURS * 3600}${secure ? '; Secure' : ''}`;
}

export function clearedCookie(secure: boolean): string {
  return `${cookieName(secure)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}

/** Cookies of a request: API Gateway payload 2.0 puts them in `cookies`, the local gateway in the header. */
export function readCookies(cookies: readonly string[] | undefined, header: string | undefined): Map<string, string> {
  const found = new Map<string, string>();
  const parts = [...(cookies ?? []), ...(header ? header.split(';') : [])];
  for (const part of parts) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (!found.has(name)) found.set(name, part.slice(at + 1).trim());
  }
  return found;
}

/**
 * Where to go after signing in: a same-site path only (`/alerts?status=open`), never `//host`, `/\host` or a URL,
 * so a crafted sign-in link cannot send anyone elsewhere. Anything else is the alert list.
 */
export function safeNext(value: string | undefined): string {
  if (!value || value.length > 512) return '/alerts';
  if (!/^\/(?![/\\])[\x21-\x7e]*$/.test(value)) return '/alerts';
  if (value.startsWith('/sign-in') || value.startsWith('/sign-out') || value.startsWith('/assets/')) return '/alerts';
  return value;
}

/**
 * Why a form post came from another site, or undefined when it did not (login CSRF, docs/security.md): browsers
 * send `Sec-Fetch-Site` and `Origin` with a form post, and a page elsewhere cannot set either. `same-origin` (and
 * `none`, a person's own action) pass and decide; without it, an `Origin` other than the site's (HARK_PUBLIC_URL, or the
 * host asked) is refused, `null` included. A browser that sends `Sec-Fetch-Site` posts from a no-referrer page with
 * `Origin: null`, so the origin is read only when that header is absent. A client that sends neither (curl) is no
 * browser to forge a post from. Pure.
 */
export function crossSiteReason(headers: Readonly<Record<string, string | undefined>>, siteOrigins: readonly string[]): string | undefined {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'same-origin' || fetchSite === 'none' ? undefined : `Sec-Fetch-Site is ${fetchSite}`;
  const origin = headers.origin;
  if (origin !== undefined && !siteOrigins.includes(origin)) return `Origin ${origin.slice(0, 100)} is not this site`;
  return undefined;
}
