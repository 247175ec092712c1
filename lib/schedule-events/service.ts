// Events: CRUD over EVENT items. Field rules in docs/events-api.md; semantic checks are the engine's
// eventProblems, so the API never stores an event the engine would not read.
import { nowMs } from '../clock.ts';
import { ensureGapCheck } from './gap-check-start.ts';
import { createEntity, findEntity, putNewVersion, removeEntity, touchItem, type TransactItem } from '../db/repository.ts';
import { retryOnConflict, type RetryOptions } from '../db/retry.ts';
import { accountPk, entitySk } from '../db/keys.ts';
import { conflict, invalid } from '../errors.ts';
import { issueMessages, noteFieldsRead } from '../api-shapes/validate.ts';
import type { z } from 'zod';
import { eventProblems } from '../schedule-engine/index.ts';
import { attendeeRows, attendeesInOrder, exceptionRows, toEngine, type EventItem } from './model.ts';
import { eventCreate, eventUpdate, OLD_FIELD_NAMES, type EventData, type EventUpdateInput } from './schema.ts';
import { getEvent } from './store.ts';
import { ianaOf, instantInZone, isoOfWall, readTimeInput, wallInZone, wallOfInstant, wallTextOf } from './time.ts';
import { MAX_ATTENDEES, MAX_EXCEPTIONS, MAX_SCHEDULES_PER_EVENT } from '../limits.ts';


/** The body with old field names (start_datetime, end_datetime) moved to the new ones when those are absent. */
export function withNewNames(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const [old, current] of Object.entries(OLD_FIELD_NAMES)) {
    if (out[current] === undefined && out[old] !== undefined) out[current] = out[old];
    delete out[old];
  }
  return out;
}

/** zod problems plus the requirements that depend on other fields (frequency and frequency_unit when repeat). */
function shapeProblems(body: Record<string, unknown>, error: z.ZodError | undefined, repeat: unknown): string[] {
  const problems = error ? issueMessages(error, body) : [];
  if (repeat === true) {
    for (const field of ['frequency', 'frequency_unit'] as const) {
      if (body[field] === undefined || body[field] === null) {
        const message = `${field} is required when repeat is true`;
        const i = problems.findIndex((p) => p.startsWith(`${field} `));
        if (i >= 0) problems.splice(i, 1, message);
        else problems.push(message);
      }
    }
  }
  return problems;
}

interface Resolved {
  /** Canonical id of each id sent (id or prefix_id). */
  canonical: Map<string, string>;
  unknown: string[];
}

/**
 * Resolves ids of this account's objects. Ids in `kept` (already stored on the event, canonical) are not looked up
 * again, so an edit of other fields never fails on a reference that was valid when it was stored.
 */
async function resolveIds(type: 'ACCOUNT_USER' | 'SCHEDULE' | 'EVENT', accountId: string, ids: readonly string[], kept: readonly string[] = []): Promise<Resolved> {
  const canonical = new Map<string, string>();
  const keptSet = new Set(kept);
  const lookup = [...new Set(ids)].filter((id) => {
    if (!keptSet.has(id)) return true;
    canonical.set(id, id);
    return false;
  });
  const items = await Promise.all(lookup.map((id) => findEntity<unknown>(type, accountId, id)));
  const unknown: string[] = [];
  lookup.forEach((id, i) => {
    const item = items[i];
    if (item) canonical.set(id, item.id);
    else unknown.push(id);
  });
  return { canonical, unknown };
}

/** The event's fields after a create or update, as texts and values still to be checked. */
type Draft = Omit<EventData, 'event_attendees' | 'exceptions' | 'remainder'> & {
  account_user_ids: string[];
  /** Client texts of exceptions, or undefined to keep the stored ones. */
  exceptions: string[] | undefined;
};

function exceptionTexts(input: EventUpdateInput['exceptions']): string[] | undefined {
  return input?.map((e) => (typeof e === 'string' ? e : e.start_datetime));
}

/**
 * Checks a draft against the account and the engine and builds the stored data. Every problem found is
 * reported at once (422), each naming its field.
 */
async function buildData(accountId: string, draft: Draft, previous: EventItem | undefined): Promise<{ data: EventData; scheduleKeys: string[] }> {
  const problems: string[] = [];
  const iana = ianaOf(draft.time_zone);
  if (!iana) problems.push(`time_zone ${draft.time_zone} is not a valid time zone; GET /events/time_zones lists the names (IANA ids are accepted too)`);

  const stored = previous?.data;
  const [users, schedules, parents] = await Promise.all([
    resolveIds('ACCOUNT_USER', accountId, draft.account_user_ids, stored?.event_attendees.map((a) => a.attendee_id)),
    resolveIds('SCHEDULE', accountId, draft.schedule_ids, stored?.schedule_ids),
    resolveIds('EVENT', accountId, draft.parent_id ? [draft.parent_id] : [], stored?.parent_id ? [stored.parent_id] : []),
  ]);
  for (const id of users.unknown) problems.push(`account_user_ids contains unknown account user ${id}`);
  for (const id of schedules.unknown) problems.push(`schedule_ids contains unknown schedule ${id}`);
  if (parents.unknown.length > 0) problems.push(`parent_id refers to unknown event ${draft.parent_id}`);
  const parentId = draft.parent_id ? (parents.canonical.get(draft.parent_id) ?? null) : null;
  if (parentId !== null && previous && parentId === previous.id) problems.push('parent_id cannot be the event itself');
  if (draft.schedule_ids.length > MAX_SCHEDULES_PER_EVENT) problems.push(`schedule_ids can name at most ${MAX_SCHEDULES_PER_EVENT} schedules`);
  if (draft.account_user_ids.length > MAX_ATTENDEES) problems.push(`account_user_ids can name at most ${MAX_ATTENDEES} account users`);
  if (draft.rotation && !draft.repeat) problems.push('rotation requires repeat to be true (a rotation hands over at each occurrence)');

  let start: number | undefined;
  let end: number | undefined;
  let repeatEnd: string | null = null;
  let exceptions: string[] = (previous?.data.exceptions ?? []).map((e) => e.start_datetime);
  if (iana) {
    const s = wallInZone('start_time', draft.start_time, iana);
    const e = wallInZone('end_time', draft.end_time, iana);
    if (s.ok) start = s.floating;
    else problems.push(s.message);
    if (e.ok) end = e.floating;
    else problems.push(e.message);
    if (draft.repeat_end_datetime !== null) {
      const input = readTimeInput(draft.repeat_end_datetime);
      if (!input) problems.push('repeat_end_datetime must be an ISO 8601 datetime or date');
      else {
        const floating = input.kind === 'wall' ? input.floating : wallOfInstant(input.ms, iana);
        repeatEnd = isoOfWall(Math.floor(floating / 1000) * 1000, iana);
      }
    }
    if (draft.exceptions !== undefined) {
      exceptions = [];
      draft.exceptions.forEach((text, i) => {
        const ms = instantInZone(text, iana);
        if (ms === undefined) problems.push(`exceptions[${i}].start_datetime must be an ISO 8601 datetime`);
        else exceptions.push(new Date(ms).toISOString());
      });
      if (exceptions.length > MAX_EXCEPTIONS) problems.push(`exceptions can hold at most ${MAX_EXCEPTIONS} entries`);
    }
  }
  if (problems.length > 0 || !iana || start === undefined || end === undefined) throw invalid(problems);

  const userIds = draft.account_user_ids.map((id) => users.canonical.get(id) as string);
  // A rotation may list someone twice (two turns of the cycle); everyone else is on call once.
  const attendees = draft.rotation ? userIds : [...new Set(userIds)];
  const data: EventData = {
    start_time: isoOfWall(start, iana),
    end_time: isoOfWall(end, iana),
    time_zone: draft.time_zone,
    layer: draft.layer,
    repeat: draft.repeat,
    frequency: draft.frequency,
    frequency_unit: draft.frequency_unit,
    days_of_week: [...new Set(draft.days_of_week)].sort((a, b) => a - b),
    repeat_end_datetime: repeatEnd,
    rotation: draft.rotation,
    parent_id: parentId,
    schedule_ids: [...new Set(draft.schedule_ids.map((id) => schedules.canonical.get(id) as string))],
    event_attendees: attendeeRows(attendees, previous?.data.event_attendees),
    exceptions: exceptionRows(exceptions, previous?.data.exceptions ?? [], iana),
    remainder: stored?.remainder === true && parentId === stored.parent_id,
  };
  const engineProblems = eventProblems(toEngine({ ...(previous ?? placeholderItem(accountId)), data }));
  if (engineProblems.length > 0) throw invalid(engineProblems);
  const scheduleKeys = data.schedule_ids.filter((id) => !previous?.data.schedule_ids.includes(id));
  return { data, scheduleKeys };
}

/** An item shell for checking data that has no stored event yet (only data and id are read). */
function placeholderItem(accountId: string): EventItem {
  return {
    pk: accountPk(accountId),
    sk: entitySk('EVENT', 'new'),
    type: 'EVENT',
    accountId,
    id: 'new',
    prefixId: 'evt_new',
    tinyId: 0,
    version: 0,
    createdAt: '',
    updatedAt: '',
    meta: {},
    data: undefined as unknown as EventData,
  };
}

/** Writes that make the change fail if a schedule it adds the event to is deleted meanwhile. */
const touchSchedules = (accountId: string, scheduleIds: readonly string[]): TransactItem[] =>
  scheduleIds.map((id) => touchItem({ pk: accountPk(accountId), sk: entitySk('SCHEDULE', id) }));

/**
 * Retrying a write whose transaction also touches schedules (other writes touching them can collide): after a
 * lost race, 422 when a schedule it joins is gone, otherwise read again and retry, or 409 out of attempts.
 */
const retryTouchingSchedules = (accountId: string, scheduleIds: () => readonly string[]): RetryOptions => ({
  afterLostRace: async () => {
    const { unknown } = await resolveIds('SCHEDULE', accountId, scheduleIds());
    if (unknown.length > 0) throw invalid(unknown.map((id) => `schedule_ids contains unknown schedule ${id}`));
  },
  exhausted: () => conflict('The event or one of its schedules kept changing during this request; retry'),
});

export async function createEvent(accountId: string, rawBody: Record<string, unknown>): Promise<EventItem> {
  const body = withNewNames(rawBody);
  noteFieldsRead(rawBody, eventCreate, Object.keys(OLD_FIELD_NAMES));
  const result = eventCreate.safeParse(body);
  const problems = shapeProblems(body, result.error, body.repeat);
  if (!result.success || problems.length > 0) throw invalid(problems);
  const input = result.data;
  const draft: Draft = {
    start_time: input.start_time,
    end_time: input.end_time,
    time_zone: input.time_zone,
    layer: input.layer,
    repeat: input.repeat ?? false,
    frequency: input.frequency ?? null,
    frequency_unit: input.frequency_unit ?? null,
    days_of_week: input.days_of_week ?? [],
    repeat_end_datetime: input.repeat_end_datetime ?? null,
    rotation: input.rotation ?? false,
    parent_id: input.parent_id ?? null,
    schedule_ids: input.schedule_ids,
    account_user_ids: input.account_user_ids,
    exceptions: exceptionTexts(input.exceptions),
  };
  const { data, scheduleKeys } = await buildData(accountId, draft, undefined);
  const event = await retryOnConflict(
    () => createEntity<EventData>('EVENT', accountId, data, { meta: input.meta ?? {}, extraItems: touchSchedules(accountId, scheduleKeys) }),
    retryTouchingSchedules(accountId, () => scheduleKeys),
  );
  // A schedule with events is checked for gaps daily from now on (docs/schedules.md, "Gaps").
  await Promise.all(event.data.schedule_ids.map((scheduleId) => ensureGapCheck(accountId, scheduleId, nowMs())));
  return event;
}

/** PUT: the fields sent replace the stored ones; times not sent keep their wall clock (also in a new time_zone). */
export async function updateEvent(accountId: string, id: string, rawBody: Record<string, unknown>): Promise<EventItem> {
  const body = withNewNames(rawBody);
  noteFieldsRead(rawBody, eventUpdate, Object.keys(OLD_FIELD_NAMES));
  let scheduleKeys: readonly string[] = [];
  // Another write to the event (re-read and re-applied) or to a schedule it joins.
  const event = await retryOnConflict(async () => {
    const current = await getEvent(accountId, id);
    const d = current.data;
    const result = eventUpdate.safeParse(body);
    if (!result.success) throw invalid(issueMessages(result.error, body));
    const input: EventUpdateInput = result.data;
    const keep = <T>(sent: T | undefined, stored: T): T => (sent === undefined ? stored : sent);
    const draft: Draft = {
      start_time: input.start_time ?? wallTextOf(d.start_time),
      end_time: input.end_time ?? wallTextOf(d.end_time),
      time_zone: input.time_zone ?? d.time_zone,
      layer: input.layer ?? d.layer,
      repeat: input.repeat ?? d.repeat,
      frequency: keep(input.frequency, d.frequency),
      frequency_unit: keep(input.frequency_unit, d.frequency_unit),
      days_of_week: keep(input.days_of_week, d.days_of_week) ?? [],
      repeat_end_datetime: keep(input.repeat_end_datetime, d.repeat_end_datetime === null ? null : wallTextOf(d.repeat_end_datetime)),
      rotation: input.rotation ?? d.rotation,
      parent_id: keep(input.parent_id, d.parent_id),
      schedule_ids: input.schedule_ids ?? d.schedule_ids,
      account_user_ids: input.account_user_ids ?? attendeesInOrder(d).map((a) => a.attendee_id),
      exceptions: exceptionTexts(input.exceptions),
    };
    if (draft.repeat && (draft.frequency === null || draft.frequency_unit === null)) {
      throw invalid(
        (['frequency', 'frequency_unit'] as const).filter((f) => draft[f] === null).map((f) => `${f} is required when repeat is true`),
      );
    }
    const built = await buildData(accountId, draft, current);
    scheduleKeys = built.scheduleKeys;
    return putNewVersion<EventData>(current, built.data, {
      ...(input.meta !== undefined ? { meta: input.meta } : {}),
      extraItems: () => touchSchedules(accountId, built.scheduleKeys),
    });
  }, retryTouchingSchedules(accountId, () => scheduleKeys));
  await Promise.all(event.data.schedule_ids.map((scheduleId) => ensureGapCheck(accountId, scheduleId, nowMs())));
  return event;
}

/** Deleting an event depends on nothing it holds: edits meanwhile do not make it fail. */
export async function deleteEvent(accountId: string, id: string): Promise<void> {
  await removeEntity<EventData>('EVENT', accountId, id);
}
