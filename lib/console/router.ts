// The console's dispatcher (docs/console.md): one row per page of the route table's `console` group, each saying
// whether it needs a session, an account and which role (the same requireRole as the API's rows). Every POST behind
// sign-in needs the session's CSRF token (403 page otherwise, logged, nothing changed). Every failure is an HTML page.
import { isDomainError } from '../errors.ts';
import { requireRole } from '../http/context.ts';
import { HttpError } from '../api-shapes/http-errors.ts';
import { errorResponse, STATUS_OF_KIND, unmatchedRoute, type HttpEvent, type HttpResult } from '../http/responses.ts';
import { boundedRawBody } from '../api-shapes/body.ts';
import { routesOf, type Role, type Route } from '../http/routes.ts';
import { rowOfEvent } from '../http/gateway-routes.ts';
import { isConditionFailure } from '../db/conditions.ts';
import { isUnavailable } from '../db/retry.ts';
import { logger } from '../logger.ts';
import { assetNamed } from './assets.ts';
import { consoleRequest, parseForm, signedIn, type ConsoleRequest, type SignedIn } from './request.ts';
import { CONTENT_SECURITY_POLICY, htmlResult, redirect, sessionCookie } from './headers.ts';
import { localInboxEnabled } from './local-inbox.ts';
import { isPage, type PageResult } from './page.ts';
import { CONSOLE_PAGES, type PageRow } from './pages/index.ts';
import { messageBody, renderLayout, type NavLink } from './layout.ts';
import { csrfMatches } from './tokens.ts';
import { needsTouch, touchSession } from './sessions.ts';

const NAV: readonly { href: string; label: string; role: Role; localOnly?: boolean }[] = [
  { href: '/alerts', label: 'Alerts', role: 'member' },
  { href: '/on-call', label: 'On call', role: 'member' },
  { href: '/me', label: 'Me', role: 'member' },
  { href: '/integrations', label: 'Integrations', role: 'admin' },
  { href: '/inbox', label: 'Inbox', role: 'admin', localOnly: true },
];

function navOf(who: SignedIn | undefined, path: string): NavLink[] | undefined {
  if (!who?.caller) return undefined;
  const admin = who.caller.roles.admin;
  return NAV.filter((n) => (n.role !== 'admin' || admin) && (!n.localOnly || localInboxEnabled())).map((n) => ({
    href: n.href,
    label: n.label,
    current: path === n.href || path.startsWith(`${n.href}/`) || (n.href === '/on-call' && path.startsWith('/schedules/')),
  }));
}

function pageResult(page: PageResult, who: SignedIn | undefined, path: string): HttpResult {
  const body = page.error ? `<p class="error" role="alert">${escapeText(page.error)}</p>\n${page.body}` : page.body;
  const person = who?.caller ? { name: who.person.name, accountName: who.accountName ?? '', csrf: who.csrf, switchAccounts: true } : undefined;
  const nav = navOf(who, path);
  return htmlResult(page.status ?? 200, renderLayout({ title: page.title, body, ...(nav ? { nav } : {}), ...(person ? { person } : {}), ...(page.script ? { script: true } : {}) }), page.headers);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeText = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** An error as a page: the status the API would answer, its message (never internals for a 500). */
function errorPage(error: unknown, who: SignedIn | undefined, path: string): HttpResult {
  let status = 500;
  let text = 'Something went wrong on our side. Try again in a moment.';
  if (isDomainError(error)) {
    status = STATUS_OF_KIND[error.kind];
    text = error.messages.join('; ');
  } else if (error instanceof HttpError) {
    status = error.status;
    text = error.messages.join('; ');
  } else if (isConditionFailure(error)) {
    status = 409;
    text = 'The object was changed by another request at the same time; try again.';
  } else if (isUnavailable(error)) {
    status = 503;
    text = 'The service is briefly unavailable; try again in a few seconds.';
  } else {
    logger.error('Unhandled console error', { error: error as Error });
  }
  const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status >= 500 ? 'Error' : 'Cannot do that';
  return pageResult({ status, title, body: messageBody({ title, text, kind: 'error', link: { href: '/alerts', label: 'Back to the alerts' } }) }, who, path);
}

/** The rows of the route table that the console serves, with their page rows: a row missing on either side fails at load. */
const ROWS: ReadonlyMap<string, { route: Route; page: PageRow }> = (() => {
  const rows = new Map<string, { route: Route; page: PageRow }>();
  for (const route of routesOf('console')) {
    const key = `${route.method} ${route.path}`;
    const page = CONSOLE_PAGES[key];
    if (!page) throw new Error(`The console has no page for ${key}`);
    rows.set(key, { route, page });
  }
  const extra = Object.keys(CONSOLE_PAGES).filter((k) => !rows.has(k));
  if (extra.length) throw new Error(`Console pages without a route row: ${extra.join(', ')}`);
  return rows;
})();

async function serve(request: ConsoleRequest, route: Route, page: PageRow, whoRef: { who?: SignedIn }): Promise<HttpResult> {
  if (page.auth === 'none') {
    const result = await page.handler(request, undefined as never);
    return isPage(result) ? pageResult(result, undefined, request.event.rawPath) : result;
  }
  const who = await signedIn(request);
  whoRef.who = who;
  if (!who) return redirect(`/sign-in?next=${encodeURIComponent(request.method === 'GET' ? request.target : '/alerts')}`);
  if (request.method === 'POST' && !csrfMatches(who.session.id, request.form.csrf)) {
    logger.warn('Console form refused: missing or wrong CSRF token', { event: 'csrf_refused', path: route.path });
    throw new HttpError(403, 'This form has expired or did not come from Hark. Reload the page and try again.');
  }
  // Sliding: the stored expiry moves on, and so does the cookie's Max-Age (else the browser would drop it 12 h after sign-in).
  const touched = needsTouch(who.session.item, request.now);
  if (touched) await touchSession(who.session, request.now);
  if (page.auth === 'account') {
    if (!who.caller) return redirect(`/accounts?next=${encodeURIComponent(request.method === 'GET' ? request.target : '/alerts')}`);
    requireRole({ ...route, role: page.role ?? 'member' }, who.caller);
    if (page.localOnly && !localInboxEnabled()) throw new HttpError(404, 'The local inbox exists only when npm start runs Hark');
  }
  const handled = await page.handler(request, who as never);
  const result = isPage(handled) ? pageResult(handled, who, request.event.rawPath) : handled;
  if (touched && !result.headers['set-cookie']) result.headers['set-cookie'] = sessionCookie(who.session.id, request.secure);
  return result;
}

/**
 * Answers one console request: its row is the gateway's route with the request's method. A method the page's path does
 * not take gets the fallback's JSON 404/405, as before the gateway's routes took every method (docs/decisions/0031-api-routes-in-a-nested-stack.md).
 */
export async function handleConsole(event: HttpEvent, now: number): Promise<HttpResult> {
  const found = rowOfEvent(event);
  const row = found && ROWS.get(`${found.method} ${found.path}`);
  if (!row) return errorResponse(unmatchedRoute(event.requestContext.http.method, event.requestContext.http.path));
  const whoRef: { who?: SignedIn } = {};
  try {
    if (row.route.path === '/assets/{file}') return assetResult(event.pathParameters?.file ?? '');
    const form = row.route.method === 'POST' ? parseForm(boundedRawBody(event)) : {};
    return await serve(consoleRequest(event, (event.pathParameters ?? {}) as Record<string, string>, form, now), row.route, row.page, whoRef);
  } catch (error) {
    return errorPage(error, whoRef.who, event.rawPath);
  }
}

function assetResult(file: string): HttpResult {
  const asset = assetNamed(file);
  if (!asset) return htmlResult(404, renderLayout({ title: 'Not found', body: messageBody({ title: 'Not found', text: 'No such file.', kind: 'error' }) }));
  return {
    statusCode: 200,
    headers: { 'content-type': asset.contentType, 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff', 'content-security-policy': CONTENT_SECURITY_POLICY },
    body: asset.body,
  };
}
