// Rotating a calendar feed's secret URL: admins for any schedule and any account user, a member for their own
// account user (docs/schedules.md, "Calendar feeds").
import { config, publicBaseUrlOf } from '../config.ts';
import { findEntity, getEntity } from '../db/repository.ts';
import { forbidden, notFound } from '../errors.ts';
import type { Caller } from '../caller/caller.ts';
import { rotateFeedToken } from './tokens.ts';

/** The feed URL of a token: HARK_PUBLIC_URL when set, else the address the request reached (`requestBase`). */
export const feedUrl = (token: string, requestBase: string): string => `${publicBaseUrlOf(config()) ?? requestBase}/ical/${token}.ics`;

export async function rotateScheduleFeed(caller: Caller, scheduleId: string, requestBase: string): Promise<{ ical_url: string }> {
  const schedule = await getEntity('SCHEDULE', caller.accountId, scheduleId);
  const token = await rotateFeedToken({ accountId: caller.accountId, kind: 'schedule', id: schedule.id }, schedule);
  return { ical_url: feedUrl(token, requestBase) };
}

export async function rotatePersonFeed(caller: Caller, accountUserId: string, requestBase: string): Promise<{ ical_url: string }> {
  const accountUser = await findEntity('ACCOUNT_USER', caller.accountId, accountUserId);
  if (!accountUser) throw notFound('Account user');
  if (!caller.roles.admin && caller.accountUserId !== accountUser.id) {
    throw forbidden('Only the person or an account admin can rotate their calendar feed');
  }
  const token = await rotateFeedToken({ accountId: caller.accountId, kind: 'person', id: accountUser.id }, accountUser);
  return { ical_url: feedUrl(token, requestBase) };
}
