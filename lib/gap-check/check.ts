// The durable daily gap check of each schedule: a chain of `schedule` timers, each firing committing the next in
// the same transaction as what it told, so a restart or a lost wake-up never loses it (docs/timers.md). The team's
// admins get one email per new gap starting within GAP_NOTICE_DAYS (docs/schedules.md, "Gaps").
import { timeScale } from '../config.ts';
import { getItem, transact } from '../db/items.ts';
import { gapCheckKey, scheduleCheckPk } from '../db/keys.ts';
import { findEntity, listEntities } from '../db/repository.ts';
import { aliasCreate, deleteAny, putNew, versionedPut, type TransactItem } from '../db/writes.ts';
import { scaledWait } from '../escalation-engine/timers.ts';
import { toEngine } from '../schedule-events/model.ts';
import { eventsOfSchedule } from '../schedule-events/store.ts';
import { GAP_NOTICE_DAYS } from '../limits.ts';
import { prepareOutboxMessage } from '../outbox/outbox.ts';
import { listAccountUserItems } from '../people/lookups.ts';
import { getUsers } from '../people/user-store.ts';
import { gapsBetween } from '../schedule-engine/index.ts';
import type { ScheduleData } from '../schedules/schema.ts';
import type { TeamData } from '../teams/schema.ts';
import { absencesOf } from '../time-off/service.ts';
import { sendWakeUps, timerFiredItem, timerPutItems, type DurableTimer } from '../timers/index.ts';
import { gapNoticeText, gapsToTell, keysToKeep } from './notice.ts';
import { checkTimer, type CheckState } from '../schedule-events/gap-check-start.ts';

const DAY_MS = 86_400_000;

/** The admins of the teams that use the schedule and want gap notices, each with an email address, once. */
async function recipients(accountId: string, scheduleId: string) {
  const teams = (await listEntities<TeamData>('TEAM', accountId)).filter((t) => t.data.schedule_id === scheduleId && t.data.notify_schedule_gaps !== false);
  if (teams.length === 0) return [];
  const accountUsers = new Map((await listAccountUserItems(accountId)).filter((a) => a.data.status === 'active').map((a) => [a.id, a]));
  const people = await getUsers([...accountUsers.values()].map((a) => a.data.user_id));
  const seen = new Set<string>();
  const out: { accountUserId: string; email: string; teamName: string }[] = [];
  for (const team of teams) {
    for (const id of team.data.admin_account_user_ids) {
      const accountUser = accountUsers.get(id);
      const person = accountUser ? people.get(accountUser.data.user_id) : undefined;
      const email = person?.emails.find((e) => e.primary)?.email ?? person?.emails[0]?.email;
      if (!email || seen.has(id)) continue;
      seen.add(id);
      out.push({ accountUserId: id, email, teamName: team.data.name });
    }
  }
  return out;
}

/** Fires one check: tells the new gaps, remembers the current ones, and schedules the next check, in one transaction. */
export async function onScheduleTimer(timer: DurableTimer, now: Date): Promise<void> {
  const pk = scheduleCheckPk(timer.accountId, timer.ownerId);
  const key = gapCheckKey(timer.accountId, timer.ownerId);
  const fired = timerFiredItem(pk, timer, now);
  const state = await getItem<CheckState>(key);
  if (!state || state.nextTimerId !== timer.timerId) return void (await transact([fired]));
  const schedule = await findEntity<ScheduleData>('SCHEDULE', timer.accountId, timer.ownerId);
  // A deleted schedule ends its chain.
  if (!schedule) return void (await transact([fired, deleteAny(key)]));
  const nowMs = now.getTime();
  const [events, away] = await Promise.all([eventsOfSchedule(timer.accountId, schedule.id), absencesOf(timer.accountId)]);
  const gaps = gapsBetween(events.map(toEngine), nowMs, nowMs + GAP_NOTICE_DAYS * DAY_MS, away);
  const fresh = gapsToTell(gaps, state.told, nowMs);
  const writes: TransactItem[] = [];
  if (fresh.length > 0) {
    for (const to of await recipients(timer.accountId, schedule.id)) {
      const { subject, body } = gapNoticeText(schedule.data.name, to.teamName, fresh);
      const message = await prepareOutboxMessage(timer.accountId, { channel: 'email', to: to.email, template: 'schedule_gap', subject, body, account_user_id: to.accountUserId });
      writes.push(putNew(message.item), aliasCreate(message.item), ...message.writes);
    }
  }
  const next = checkTimer(timer.accountId, schedule.id, nowMs + scaledWait(DAY_MS, timeScale()));
  const nextState: CheckState = { ...state, version: state.version + 1, nextTimerId: next.timerId, told: keysToKeep(gaps, nowMs) };
  await transact([fired, versionedPut(nextState, state.version), ...timerPutItems(pk, [next], now.toISOString()), ...writes]);
  await sendWakeUps([next]);
}
