// Time off: stretches when an account user is away. The on-call function takes them as absences (lib/schedule-engine
// time-off.ts); this module stores them and reads them for it (docs/schedules.md, "Time off").
import type { Caller } from '../caller/caller.ts';
import { createEntity, findEntity, getEntity, listEntities, removeEntity, render, touchItem, updateEntity, type EntityItem } from '../db/repository.ts';
import { entityCollection } from '../db/pages.ts';
import { cachedEntities } from '../db/config-reads.ts';
import { forbidden, invalid } from '../errors.ts';
import type { Absence } from '../schedule-engine/index.ts';
import { formatInZone, readWindowSpan } from '../maintenance/time.ts';
import { MAX_TIME_OFF_DAYS, MAX_TIME_OFF_MS } from '../limits.ts';
import type { TimeOffCreateInput, TimeOffData, TimeOffUpdateInput } from './schema.ts';

export type TimeOffItem = EntityItem<TimeOffData>;

const DEFAULT_ZONE = 'UTC';
const ONLY_ADMINS = 'Only account admins can record or change the time off of other account users';

export const renderTimeOff = (item: TimeOffItem): Record<string, unknown> => render(item);
export const getTimeOff = (accountId: string, id: string) => getEntity<TimeOffData>('TIME_OFF', accountId, id);
export const timeOffListSource = (accountId: string) => entityCollection('TIME_OFF', accountId, (items: TimeOffItem[]) => items.map(renderTimeOff));

const absencesOfItems = (items: readonly TimeOffItem[]): Absence[] =>
  items.map((t) => ({ accountUserId: t.data.account_user_id, startMs: Date.parse(t.data.start_time), endMs: Date.parse(t.data.end_time) }));

/** Every time off of the account as absences for the on-call function: one Query of a bounded collection. */
export async function absencesOf(accountId: string): Promise<Absence[]> {
  return absencesOfItems(await listEntities<TimeOffData>('TIME_OFF', accountId));
}

/** The same, for an escalation step (a create's included): from the short configuration cache (docs/alerts.md). */
export async function cachedAbsencesOf(accountId: string): Promise<Absence[]> {
  return absencesOfItems(await cachedEntities<TimeOffData>('TIME_OFF', accountId));
}

const mayChange = (caller: Caller, accountUserId: string): boolean => caller.roles.admin === true || caller.accountUserId === accountUserId;

interface Draft {
  time_zone: string;
  start: { text: string } | { ms: number };
  end: { text: string } | { ms: number };
  account_user_id: string;
}

/** Zone, times and the account user together, so one 422 lists every problem. */
async function checked(caller: Caller, draft: Draft) {
  const problems: string[] = [];
  const { iana, startMs, endMs } = readWindowSpan(draft.time_zone, draft.start, draft.end, { start: 'start_time', end: 'end_time' }, problems);
  if (startMs !== undefined && endMs !== undefined && endMs > startMs && endMs - startMs > MAX_TIME_OFF_MS) {
    problems.push(`end_time must be at most ${MAX_TIME_OFF_DAYS} days after start_time; record a longer absence as several`);
  }
  const accountUser = await findEntity('ACCOUNT_USER', caller.accountId, draft.account_user_id);
  if (!accountUser) problems.push(`account_user_id refers to unknown account user ${draft.account_user_id}`);
  else if (!mayChange(caller, accountUser.id)) throw forbidden(ONLY_ADMINS);
  if (problems.length || !accountUser) throw invalid(problems);
  return {
    account_user_id: accountUser.id,
    start_time: formatInZone(startMs!, iana!),
    end_time: formatInZone(endMs!, iana!),
    // The write touches the account user, so it cannot race the account user's delete.
    touches: [touchItem(accountUser)],
  };
}

export async function createTimeOff(caller: Caller, input: TimeOffCreateInput): Promise<TimeOffItem> {
  const timeZone = input.time_zone ?? DEFAULT_ZONE;
  const c = await checked(caller, {
    time_zone: timeZone,
    start: { text: input.start_time },
    end: { text: input.end_time },
    account_user_id: input.account_user_id ?? caller.accountUserId,
  });
  const data: TimeOffData = { account_user_id: c.account_user_id, start_time: c.start_time, end_time: c.end_time, time_zone: timeZone, reason: input.reason ?? null };
  return createEntity<TimeOffData>('TIME_OFF', caller.accountId, data, { meta: input.meta ?? {}, extraItems: c.touches });
}

/** Partial update; times without an offset are wall clocks in the time_zone of the request, or the stored one. */
export async function updateTimeOff(caller: Caller, id: string, input: TimeOffUpdateInput): Promise<TimeOffItem> {
  return updateEntity<TimeOffData>('TIME_OFF', caller.accountId, id, async (current) => {
    if (!mayChange(caller, current.data.account_user_id)) throw forbidden(ONLY_ADMINS);
    const timeZone = input.time_zone ?? current.data.time_zone;
    const c = await checked(caller, {
      time_zone: timeZone,
      start: input.start_time !== undefined ? { text: input.start_time } : { ms: Date.parse(current.data.start_time) },
      end: input.end_time !== undefined ? { text: input.end_time } : { ms: Date.parse(current.data.end_time) },
      account_user_id: input.account_user_id ?? current.data.account_user_id,
    });
    return {
      data: {
        account_user_id: c.account_user_id,
        start_time: c.start_time,
        end_time: c.end_time,
        time_zone: timeZone,
        reason: input.reason !== undefined ? input.reason : current.data.reason,
      },
      ...(input.meta !== undefined ? { meta: input.meta } : {}),
      extraItems: () => c.touches,
    };
  });
}

export async function deleteTimeOff(caller: Caller, id: string): Promise<void> {
  await removeEntity<TimeOffData>('TIME_OFF', caller.accountId, id, (current) => {
    if (!mayChange(caller, current.data.account_user_id)) throw forbidden(ONLY_ADMINS);
  });
}
