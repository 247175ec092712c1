// The console's page table: for each row of the route table's `console` group, who may see it and its handler
// (docs/console.md). The router refuses to load when a row has no page or a page no row.
import type { HttpResult } from '../../http/responses.ts';
import type { ConsoleRequest, SignedIn } from '../request.ts';
import { redirect } from '../headers.ts';
import type { PageResult } from '../page.ts';
import { alertAction, alertComment, alertDetailPage, alertsPage } from './alert-pages.ts';
import { inbox } from './inbox-page.ts';
import { integrationsOf } from './integrations-page.ts';
import { invitationAnswer, mePageOf } from './me-page.ts';
import { onCall, scheduleDetail } from './oncall-pages.ts';
import { accountsPage, accountsSubmit, signInLinkPage, signInLinkSubmit, signInPage, signInSubmit, signOut } from './sign-in-pages.ts';

type Handler = (request: ConsoleRequest, who: never) => Promise<PageResult | HttpResult>;

/**
 * `none`: anyone (signing in, assets); `session`: signed in, before or without choosing an account; `account`: signed
 * in to an account, with the row's role checked by the API's requireRole.
 */
export interface PageRow {
  readonly auth: 'none' | 'session' | 'account';
  readonly role?: 'member' | 'admin';
  /** Served only while the local inbox is on (npm start); 404 otherwise. */
  readonly localOnly?: boolean;
  readonly handler: Handler;
}

const open = (handler: (request: ConsoleRequest) => Promise<PageResult | HttpResult>): PageRow => ({ auth: 'none', handler: handler as Handler });
const session = (handler: (request: ConsoleRequest, who: SignedIn) => Promise<PageResult | HttpResult>): PageRow => ({ auth: 'session', handler: handler as Handler });
const account = (handler: (request: ConsoleRequest, who: SignedIn & { caller: NonNullable<SignedIn['caller']> }) => Promise<PageResult | HttpResult>, role: 'member' | 'admin' = 'member', localOnly = false): PageRow => ({
  auth: 'account',
  role,
  ...(localOnly ? { localOnly } : {}),
  handler: handler as Handler,
});

export const CONSOLE_PAGES: Readonly<Record<string, PageRow>> = {
  'GET /': open(async () => redirect('/alerts')),
  // Served by the router itself (no session read); listed so the table and the pages stay equal.
  'GET /assets/{file}': open(async () => redirect('/alerts')),
  'GET /sign-in': open(signInPage),
  'POST /sign-in': open(signInSubmit),
  'GET /sign-in/{token}': open(signInLinkPage),
  'POST /sign-in/{token}': open(signInLinkSubmit),
  'GET /accounts': session(accountsPage),
  'POST /accounts': session(accountsSubmit),
  'POST /sign-out': session(signOut),
  'GET /alerts': account(alertsPage),
  'GET /alerts/{id}': account(alertDetailPage),
  'POST /alerts/{id}/acknowledge': account(alertAction('acknowledge')),
  'POST /alerts/{id}/resolve': account(alertAction('resolve')),
  'POST /alerts/{id}/reject': account(alertAction('reject')),
  'POST /alerts/{id}/comments': account(alertComment),
  'GET /on-call': account(onCall),
  'GET /schedules/{id}': account(scheduleDetail),
  'GET /me': account(mePageOf),
  'POST /me/invitations/{id}/accept': session(invitationAnswer('accept')),
  'POST /me/invitations/{id}/deny': session(invitationAnswer('deny')),
  'GET /integrations': account(integrationsOf, 'admin'),
  'GET /inbox': account(inbox, 'admin', true),
};
