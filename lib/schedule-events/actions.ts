// Event actions (override, add_exception, terminate_on): the engine plans the change, this module applies the
// plan in one transaction (the original's update or delete under a version check, plus the new events).
import { collectionFull, countOf, findEntity, newEntityItem } from '../db/repository.ts';
import { transact } from '../db/items.ts';
import { retryOnConflict } from '../db/retry.ts';
import { COLLECTION_LIMIT, countChange, deleteItems, entityCreates, unchangedCheck, versionWrite, type TransactItem } from '../db/writes.ts';
import { conflict, invalid } from '../errors.ts';
import { validate } from '../api-shapes/validate.ts';
import {
  NotAnOccurrenceError,
  planAddException,
  planOverride,
  planTerminateOn,
  ScheduleInputError,
  type EventDraft,
  type EventPlan,
  type OverridePlan,
  type ScheduleEvent,
} from '../schedule-engine/index.ts';
import type { AccountUserData } from '../accounts/account-users.ts';
import { dataFromEngine, ianaOfEvent, toEngine, type EventItem } from './model.ts';
import { actionInput, overrideInput, type EventData } from './schema.ts';
import { getEvent } from './store.ts';
import { formatWall, ianaOf, instantInZone, isoInZone, wallInZone } from './time.ts';


/** What applying a plan did. */
export interface Applied {
  /** The original after the change; undefined when the plan deleted it. */
  updated: EventItem | undefined;
  created: EventItem[];
  /** The original as it was read (for a deleted event's answer). */
  original: EventItem;
}

/** The engine's 422: a wrong action_time names the nearest occurrence starts, in the event's zone. */
function actionFailure(error: unknown, item: EventItem): never {
  if (error instanceof NotAnOccurrenceError) {
    const iana = ianaOfEvent(item.data);
    const at = (ms: number) => isoInZone(ms, iana);
    const { actionMs, previousStartMs: before, nextStartMs: after } = error;
    let nearest: string;
    if (before !== undefined && after !== undefined) nearest = `the nearest occurrences start at ${at(before)} and ${at(after)}`;
    else if (before !== undefined) nearest = `the last occurrence starts at ${at(before)}`;
    else if (after !== undefined) nearest = `the next occurrence starts at ${at(after)}`;
    else nearest = 'the event has no occurrences';
    throw invalid(`action_time ${at(actionMs)} is not the start of an occurrence of this event; ${nearest}`);
  }
  if (error instanceof ScheduleInputError) throw invalid(error.messages);
  throw error;
}

function actionMsOf(text: string, item: EventItem): number {
  const ms = instantInZone(text, ianaOfEvent(item.data));
  if (ms === undefined) throw invalid('action_time must be an ISO 8601 datetime (without an offset it is a wall clock in the event time_zone)');
  return ms;
}

/**
 * Plans against the stored event and applies the plan in one transaction; when another request changed the
 * event in between, reads it again and plans again.
 */
async function planAndApply(
  accountId: string,
  id: string,
  plan: (item: EventItem, engineEvent: ScheduleEvent) => EventPlan,
  zoneTexts: readonly string[] = [],
): Promise<Applied & { plan: EventPlan }> {
  let creates = 0;
  return retryOnConflict(
    async () => {
      const original = await getEvent(accountId, id);
      let planned: EventPlan;
      try {
        planned = plan(original, toEngine(original));
      } catch (error) {
        actionFailure(error, original);
      }
      creates = planned.create.length;
      return { ...(await applyPlan(original, planned, zoneTexts)), plan: planned };
    },
    {
      // The plan depends on the event as read: any change of it meanwhile means planning again.
      afterLostRace: async () => {
        if (creates > 0 && (await countOf(accountId, 'EVENT')) + creates > COLLECTION_LIMIT) throw collectionFull('EVENT');
      },
      exhausted: () => conflict('Event was changed by other requests while this action ran; retry'),
    },
  );
}

/** One transaction: the original's new version (version-checked) or its deletion, and the new events. */
async function applyPlan(original: EventItem, plan: EventPlan, zoneTexts: readonly string[]): Promise<Applied> {
  const zones = [original.data.time_zone, ...zoneTexts];
  // The override event keeps the zone text the client sent with it; pieces of the original keep the original's.
  const zonesOf = (draft: EventDraft) => (draft === (plan as Partial<OverridePlan>).override ? [...zoneTexts, original.data.time_zone] : zones);
  const created = await Promise.all(
    plan.create.map((draft) => newEntityItem<EventData>('EVENT', original.accountId, dataFromEngine(draft, undefined, zonesOf(draft)), { meta: {} })),
  );
  const writes: TransactItem[] = [];
  let updated: EventItem | undefined;
  if (plan.deleteOriginal) {
    writes.push(...deleteItems(original, { count: false }));
  } else {
    if (plan.updateOriginal) {
      const next = versionWrite(original, dataFromEngine(plan.updateOriginal, original.data, zones));
      updated = next.next;
      writes.push(next.write);
    } else {
      updated = original;
      writes.push(unchangedCheck(original));
    }
  }
  for (const item of created) writes.push(...entityCreates(item));
  const delta = created.length - (plan.deleteOriginal ? 1 : 0);
  if (delta !== 0) writes.push(...countChange(original.accountId, 'EVENT', delta));
  await transact(writes);
  return { updated, created, original };
}

/** POST /events/:id/add_exception: the occurrence starting at action_time no longer happens. */
export async function addException(accountId: string, id: string, body: Record<string, unknown>): Promise<EventItem> {
  await getEvent(accountId, id);
  const input = validate(actionInput, body);
  const { updated } = await planAndApply(accountId, id, (item, event) => planAddException(event, actionMsOf(input.action_time, item)));
  return updated as EventItem;
}

/**
 * POST /events/:id/terminate_on: the occurrence starting at action_time and all later ones no longer happen.
 * When no occurrence is left the event is deleted (`deleted: true`, the event as it was).
 */
export async function terminateOn(accountId: string, id: string, body: Record<string, unknown>): Promise<{ item: EventItem; deleted: boolean }> {
  await getEvent(accountId, id);
  const input = validate(actionInput, body);
  const { updated, original } = await planAndApply(accountId, id, (item, event) => planTerminateOn(event, actionMsOf(input.action_time, item)));
  return updated ? { item: updated, deleted: false } : { item: original, deleted: true };
}

/**
 * POST /events/:id/override: [start_time, end_time) on layer goes to account_user_ids instead of the occurrence
 * starting at action_time; the engine splits the original. Answers the override event.
 */
export async function overrideEvent(accountId: string, id: string, body: Record<string, unknown>): Promise<EventItem> {
  await getEvent(accountId, id);
  const input = validate(overrideInput, body);
  const iana = ianaOf(input.time_zone);
  const problems: string[] = [];
  if (!iana) problems.push(`time_zone ${input.time_zone} is not a valid time zone; GET /events/time_zones lists the names (IANA ids are accepted too)`);
  const users = await Promise.all(input.account_user_ids.map((u) => findEntity<AccountUserData>('ACCOUNT_USER', accountId, u)));
  input.account_user_ids.forEach((u, i) => {
    if (!users[i]) problems.push(`account_user_ids contains unknown account user ${u}`);
  });
  let start: string | undefined;
  let end: string | undefined;
  if (iana) {
    const s = wallInZone('start_time', input.start_time, iana);
    const e = wallInZone('end_time', input.end_time, iana);
    if (s.ok) start = formatWall(s.floating);
    else problems.push(s.message);
    if (e.ok) end = formatWall(e.floating);
    else problems.push(e.message);
  }
  if (problems.length > 0 || !iana || start === undefined || end === undefined) throw invalid(problems);
  const attendees = [...new Set(users.map((u) => (u as { id: string }).id))];
  const { created, plan } = await planAndApply(
    accountId,
    id,
    (item, event) =>
      planOverride(event, actionMsOf(input.action_time, item), { start, end, layer: input.layer, timeZone: iana, attendees }),
    [input.time_zone],
  );
  // The override is the last draft of the plan.
  return created[plan.create.length - 1] as EventItem;
}
