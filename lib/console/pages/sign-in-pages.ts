// The sign-in pages (docs/console.md, "Sign-in"): the form, the link's page and its button, the account picker, and
// signing out. POST /sign-in answers the same page whatever the address and whatever the limits said.
import { logger } from '../../logger.ts';
import { emailText } from '../../people/schema.ts';
import { accountsOf } from '../person-accounts.ts';
import type { ConsoleRequest, SignedIn } from '../request.ts';
import { clearedCookie, crossSiteReason, redirect, safeNext, sessionCookie } from '../headers.ts';
import type { PageResult } from '../page.ts';
import { chooseAccount, endSession, startSession } from '../sessions.ts';
import { requestSignInLink, signInLinkIsLive, useSignInLink } from '../sign-in.ts';
import { accountPicker, signInConfirm, signInForm } from '../templates/sign-in-templates.ts';
import type { HttpResult } from '../../http/responses.ts';

export async function signInPage(request: ConsoleRequest): Promise<PageResult> {
  return { title: 'Sign in', body: signInForm({ next: safeNext(request.query.next), sent: false }) };
}

export async function signInSubmit(request: ConsoleRequest): Promise<PageResult> {
  const next = safeNext(request.form.next);
  const email = emailText.safeParse(request.form.email ?? '');
  if (!email.success) {
    return { status: 422, title: 'Sign in', body: signInForm({ next, sent: false, invalidEmail: 'email must be an email address, such as ada@example.com' }) };
  }
  const outcome = await requestSignInLink({ email: email.data, sourceIp: request.sourceIp, baseUrl: request.baseUrl, next, now: request.now });
  logger.info('Sign-in requested', { event: 'sign_in_request', outcome });
  return { title: 'Sign in', body: signInForm({ next, sent: true }) };
}

export async function signInLinkPage(request: ConsoleRequest): Promise<PageResult> {
  const token = request.params.token ?? '';
  const live = await signInLinkIsLive(token, request.now);
  return { status: live ? 200 : 410, title: 'Sign in', body: signInConfirm({ token, live }) };
}

/** The link's button: uses the link once, starts a session, and goes on (to the account picker when there is a choice). */
export async function signInLinkSubmit(request: ConsoleRequest): Promise<PageResult | HttpResult> {
  // Login CSRF: a page elsewhere posting someone's own link would sign this browser in as them.
  const host = request.event.headers?.host;
  const crossSite = crossSiteReason(request.event.headers ?? {}, [new URL(request.baseUrl).origin, ...(host ? [`http://${host}`, `https://${host}`] : [])]);
  if (crossSite) {
    logger.warn('Sign-in link post refused: it came from another site', { event: 'sign_in_cross_site_refused', reason: crossSite });
    return { status: 403, title: 'Sign in', body: signInConfirm({ token: '', live: false, crossSite: true }) };
  }
  const used = await useSignInLink(request.params.token ?? '', request.now);
  if (!used) return { status: 410, title: 'Sign in', body: signInConfirm({ token: '', live: false }) };
  const joined = (await accountsOf(used.userId)).filter((a) => a.joined);
  // A session is only ever in an account the person has joined (a link issued before they were removed starts none).
  if (joined.length === 0) {
    logger.info('Sign-in link used by a person in no account', { event: 'sign_in', accounts: 0 });
    return { status: 403, title: 'Sign in', body: signInConfirm({ token: '', live: false, noAccount: true }) };
  }
  const only = joined.length === 1 ? joined[0]!.accountId : undefined;
  const session = await startSession(used.userId, only, request.now);
  logger.info('Signed in', { event: 'sign_in', accounts: joined.length });
  const cookie = { 'set-cookie': sessionCookie(session.id, request.secure) };
  return only ? redirect(safeNext(used.next), cookie) : redirect(`/accounts?next=${encodeURIComponent(safeNext(used.next))}`, cookie);
}

export async function accountsPage(request: ConsoleRequest, who: SignedIn): Promise<PageResult> {
  const accounts = await accountsOf(who.person.id);
  const choices = (joined: boolean) =>
    accounts.filter((a) => a.joined === joined).map((a) => ({ accountId: a.accountId, name: a.name, current: a.accountId === who.session.item.accountId }));
  return { title: 'Choose an account', body: accountPicker({ accounts: choices(true), invitations: choices(false), csrf: who.csrf, next: safeNext(request.query.next) }) };
}

export async function accountsSubmit(request: ConsoleRequest, who: SignedIn): Promise<PageResult | HttpResult> {
  const accountId = request.form.account_id ?? '';
  const joined = (await accountsOf(who.person.id)).find((a) => a.accountId === accountId && a.joined);
  if (!joined) return { status: 422, title: 'Choose an account', body: '', error: 'account_id must be an account you have joined' };
  if (!(await chooseAccount(who.session, accountId))) return redirect('/sign-in');
  return redirect(safeNext(request.form.next));
}

export async function signOut(request: ConsoleRequest, who: SignedIn): Promise<HttpResult> {
  await endSession(who.session.id);
  logger.info('Signed out', { event: 'sign_out' });
  return redirect('/sign-in', { 'set-cookie': clearedCookie(request.secure) });
}
