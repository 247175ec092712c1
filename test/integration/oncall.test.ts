// The on-call views and event endpoints of schedules through the gateway: current_oncall, window_events,
// GET /schedules/:id/events, flush, and what deleting a schedule does to its events.
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, errorMessages, newAccount, request, type TestAccount, useTestStack } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;
let ann: string;
let ben: string;
let cat: string;
let dan: string;
let memberKey: string;

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('On-call'), newAccount('On-call other')]);
  ann = acme.adminAccountUserId;
  [ben, cat, dan] = (await Promise.all([addAccountUser(acme), addAccountUser(acme), addAccountUser(acme)])).map((u) => u.id) as [string, string, string];
  memberKey = await createMemberKey(acme);
});

const asMember = (method: string, path: string) => request(method, `/api/v4${path}`, { key: memberKey });

async function newSchedule(name = 'Schedule'): Promise<string> {
  return (await acme.api('POST', '/schedules', { name })).body.id;
}

async function addEvent(scheduleIds: string[], body: Record<string, unknown>) {
  const reply = await acme.api('POST', '/events', { layer: 1, time_zone: 'UTC', account_user_ids: [ann], schedule_ids: scheduleIds, ...body });
  if (reply.status !== 201) throw new Error(`event create failed: ${reply.status} ${reply.text}`);
  return reply.body;
}

const daily = { repeat: true, frequency: 1, frequency_unit: 'daily' };

async function window(scheduleId: string, start: string, end: string) {
  const reply = await acme.api('GET', `/schedules/${scheduleId}/window_events?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as Entry[];
}

interface Entry {
  id: string;
  layer: number;
  start_time: string;
  end_time: string;
  occurrence_start_time: string;
  override: boolean;
  attendees: { attendee_id: string; attendee_type: string; position: number }[];
}

const times = (entries: Entry[]) => entries.map((e) => [e.start_time, e.end_time]);
const onDuty = (entries: Entry[]) => entries.map((e) => e.attendees.map((a) => [a.attendee_id, a.position]));

describe('window_events parameters', () => {
  let s: string;
  beforeAll(async () => {
    s = await newSchedule();
  });
  const get = (qs: string) => acme.api('GET', `/schedules/${s}/window_events${qs}`);
  const FORMAT = 'a UTC time YYYY-MM-DD HH:MM:SS (ISO 8601 with an offset is accepted too)';

  it('422 naming a missing, unparseable or reversed bound, and a window longer than 366 days', async () => {
    expect(errorMessages(await get(''))).toEqual([`start is required: ${FORMAT}`, `end is required: ${FORMAT}`]);
    expect(errorMessages(await get('?start=2030-01-01%2000:00:00'))).toEqual([`end is required: ${FORMAT}`]);
    expect(errorMessages(await get('?start=yesterday&end=2030-01-01%2000:00:00'))).toEqual([`start must be ${FORMAT}, got "yesterday"`]);
    expect(errorMessages(await get('?start=2030-01-01%2000:00:00&end=2030-13-01%2000:00:00'))).toEqual([`end must be ${FORMAT}, got "2030-13-01 00:00:00"`]);
    expect(errorMessages(await get('?start=2030-01-02%2000:00:00&end=2030-01-01%2000:00:00'))).toEqual(['end must be after start']);
    expect(errorMessages(await get('?start=2030-01-01%2000:00:00&end=2030-01-01%2000:00:00'))).toEqual(['end must be after start']);
    const long = await get('?start=2030-01-01%2000:00:00&end=2031-01-02%2000:00:01');
    expect(long.status).toBe(422);
    expect(errorMessages(long)).toEqual(['end must be at most 366 days after start']);
    expect((await get('?start=2030-01-01%2000:00:00&end=2031-01-02%2000:00:00')).status).toBe(200);
  });

  it('404 for an unknown schedule and for another account’s schedule; members may read', async () => {
    const qs = '?start=2030-01-01%2000:00:00&end=2030-01-02%2000:00:00';
    for (const path of [`/schedules/sch_abcdefghijkl/window_events${qs}`, '/schedules/01ARZ3NDEKTSV4RRFFQ69G5FAV/current_oncall', '/schedules/nope/events']) {
      const reply = await acme.api('GET', path);
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Schedule not found']);
    }
    for (const view of [`window_events${qs}`, 'current_oncall', 'events']) {
      expect((await globex.api('GET', `/schedules/${s}/${view}`)).status).toBe(404);
      expect((await asMember('GET', `/schedules/${s}/${view}`)).status).toBe(200);
    }
    expect((await globex.api('DELETE', `/schedules/${s}/flush`)).status).toBe(404);
  });

  it('accepts ISO 8601 bounds with an offset, and answers [] for a schedule with nothing on', async () => {
    await addEvent([s], { start_time: '2030-01-01T00:30:00Z', end_time: '2030-01-01T01:00:00Z' });
    const iso = await get('?start=2030-01-01T02:00:00%2B02:00&end=2030-01-01T00:30:00Z');
    expect(iso.status).toBe(200);
    expect(iso.body).toEqual([]);
    const hit = await get('?start=2030-01-01T02:00:00%2B02:00&end=2030-01-01T00:30:01Z');
    expect(times(hit.body)).toEqual([['2030-01-01T00:30:00+00:00', '2030-01-01T01:00:00+00:00']]);
  });
});

describe('window_events across daylight saving changes', () => {
  it('spring forward in America/New_York: the night shift is an hour shorter, a shift starting in the gap starts at 03:00', async () => {
    const s = await newSchedule('NY');
    await addEvent([s], { ...daily, time_zone: 'America/New_York', start_time: '2030-03-08T00:00:00', end_time: '2030-03-08T06:00:00' });
    await addEvent([s], { ...daily, layer: 2, time_zone: 'America/New_York', start_time: '2030-03-08T02:30:00', end_time: '2030-03-08T04:00:00' });
    const entries = await window(s, '2030-03-09 00:00:00', '2030-03-12 00:00:00');
    expect(entries.map((e) => e.layer)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(times(entries)).toEqual([
      ['2030-03-09T00:00:00-05:00', '2030-03-09T06:00:00-05:00'],
      ['2030-03-10T00:00:00-05:00', '2030-03-10T06:00:00-04:00'],
      ['2030-03-11T00:00:00-04:00', '2030-03-11T06:00:00-04:00'],
      ['2030-03-09T02:30:00-05:00', '2030-03-09T04:00:00-05:00'],
      ['2030-03-10T03:00:00-04:00', '2030-03-10T04:00:00-04:00'],
      ['2030-03-11T02:30:00-04:00', '2030-03-11T04:00:00-04:00'],
    ]);
    const hours = (e: Entry) => (Date.parse(e.end_time) - Date.parse(e.start_time)) / 3_600_000;
    expect(entries.map(hours)).toEqual([6, 5, 6, 1.5, 1, 1.5]);
  });

  it('fall back in Australia/Sydney: the night shift is an hour longer', async () => {
    const s = await newSchedule('Sydney');
    await addEvent([s], { ...daily, time_zone: 'Sydney', start_time: '2030-04-05T00:00:00', end_time: '2030-04-05T06:00:00' });
    const entries = await window(s, '2030-04-05 12:00:00', '2030-04-08 12:00:00');
    expect(times(entries)).toEqual([
      ['2030-04-06T00:00:00+11:00', '2030-04-06T06:00:00+11:00'],
      ['2030-04-07T00:00:00+11:00', '2030-04-07T06:00:00+10:00'],
      ['2030-04-08T00:00:00+10:00', '2030-04-08T06:00:00+10:00'],
    ]);
    expect(entries.map((e) => (Date.parse(e.end_time) - Date.parse(e.start_time)) / 3_600_000)).toEqual([6, 7, 6]);
  });
});

describe('rotations, overrides, exceptions, layers', () => {
  it('a rotation of 3 hands over each day, by position', async () => {
    const s = await newSchedule('Rotation');
    const e = await addEvent([s], { ...daily, rotation: true, account_user_ids: [ann, ben, cat], start_time: '2030-05-01T09:00:00', end_time: '2030-05-01T17:00:00' });
    const entries = await window(s, '2030-05-01 00:00:00', '2030-05-05 00:00:00');
    expect(onDuty(entries)).toEqual([[[ann, 1]], [[ben, 2]], [[cat, 3]], [[ann, 1]]]);
    expect(entries[1]).toEqual({
      id: e.id,
      layer: 1,
      time_zone: 'UTC',
      rotation: true,
      parent_id: null,
      override: false,
      start_time: '2030-05-02T09:00:00+00:00',
      end_time: '2030-05-02T17:00:00+00:00',
      occurrence_start_time: '2030-05-02T09:00:00+00:00',
      attendees: [{ attendee_id: ben, attendee_type: 'AccountUser', position: 2 }],
    });
  });

  it('an override in the middle of a rotation turn splits it; the rotation goes on', async () => {
    const s = await newSchedule('Override');
    const e = await addEvent([s], {
      ...daily,
      rotation: true,
      time_zone: 'America/New_York',
      account_user_ids: [ann, ben, cat],
      start_time: '2030-05-01T09:00:00',
      end_time: '2030-05-01T17:00:00',
    });
    const o = await acme.api('POST', `/events/${e.id}/override`, {
      start_time: '2030-05-02 12:00',
      end_time: '2030-05-02 14:00',
      layer: 1,
      time_zone: 'America/New_York',
      account_user_ids: [dan],
      action_time: '2030-05-02T09:00:00-04:00',
    });
    expect(o.status).toBe(200);
    const entries = await window(s, '2030-05-02 00:00:00', '2030-05-04 00:00:00');
    expect(times(entries)).toEqual([
      ['2030-05-02T09:00:00-04:00', '2030-05-02T12:00:00-04:00'],
      ['2030-05-02T12:00:00-04:00', '2030-05-02T14:00:00-04:00'],
      ['2030-05-02T14:00:00-04:00', '2030-05-02T17:00:00-04:00'],
      ['2030-05-03T09:00:00-04:00', '2030-05-03T17:00:00-04:00'],
    ]);
    expect(entries.map((x) => x.attendees.map((a) => a.attendee_id))).toEqual([[ben], [dan], [ben], [cat]]);
    expect(entries.map((x) => x.override)).toEqual([false, true, false, false]);
    expect(entries[1]!.id).toBe(o.body.id);
    expect(entries[3]!.id).toBe(e.id);
    expect(entries[3]!.attendees[0]!.position).toBe(3);
    for (const piece of [entries[0]!, entries[2]!]) expect(piece.id).not.toBe(e.id);
  });

  it('add_exception then terminate_on, seen in the window', async () => {
    const s = await newSchedule('Exceptions');
    const e = await addEvent([s], { ...daily, start_time: '2030-06-01T08:00:00', end_time: '2030-06-01T09:00:00' });
    expect((await acme.api('POST', `/events/${e.id}/add_exception`, { action_time: '2030-06-03T08:00:00Z' })).status).toBe(200);
    expect((await acme.api('POST', `/events/${e.id}/terminate_on`, { action_time: '2030-06-05 08:00:00' })).status).toBe(200);
    const entries = await window(s, '2030-06-01 00:00:00', '2030-06-10 00:00:00');
    expect(entries.map((x) => x.start_time)).toEqual(['2030-06-01T08:00:00+00:00', '2030-06-02T08:00:00+00:00', '2030-06-04T08:00:00+00:00']);
  });

  it('overlapping events on one layer are all on call; layers sort first, then start; entries keep whole times', async () => {
    const s = await newSchedule('Layers');
    await addEvent([s], { layer: 3, start_time: '2030-07-01T08:00:00', end_time: '2030-07-01T20:00:00', account_user_ids: [cat] });
    await addEvent([s], { layer: 1, start_time: '2030-07-01T11:00:00', end_time: '2030-07-01T13:00:00', account_user_ids: [ben] });
    await addEvent([s], { layer: 1, start_time: '2030-07-01T10:00:00', end_time: '2030-07-01T12:00:00', account_user_ids: [ann, dan] });
    await addEvent([s], { layer: 2, start_time: '2030-07-01T09:00:00', end_time: '2030-07-01T10:30:00', account_user_ids: [dan] });
    const entries = await window(s, '2030-07-01 10:00:00', '2030-07-01 11:30:00');
    expect(entries.map((x) => [x.layer, x.start_time])).toEqual([
      [1, '2030-07-01T10:00:00+00:00'],
      [1, '2030-07-01T11:00:00+00:00'],
      [2, '2030-07-01T09:00:00+00:00'],
      [3, '2030-07-01T08:00:00+00:00'],
    ]);
    expect(onDuty(entries)).toEqual([[[ann, 1], [dan, 2]], [[ben, 1]], [[dan, 1]], [[cat, 1]]]);
  });
});

describe('current_oncall', () => {
  it('answers who is on call now, all layers sorted, the rotation turn on duty; [] when nobody', async () => {
    const s = await newSchedule('Now');
    expect((await acme.api('GET', `/schedules/${s}/current_oncall`)).body).toEqual([]);
    const minute = 60_000;
    const now = Math.floor(Date.now() / minute) * minute;
    const iso = (ms: number) => new Date(ms).toISOString();
    // A daily rotation whose third turn (cat) is on now; a one-off on layer 2; one that ended.
    await addEvent([s], { ...daily, rotation: true, account_user_ids: [ann, ben, cat], start_time: iso(now - 2 * 86_400_000 - 3_600_000), end_time: iso(now - 2 * 86_400_000 + 3_600_000) });
    await addEvent([s], { layer: 2, time_zone: 'Tokyo', account_user_ids: [ann, ben], start_time: iso(now - 3_600_000), end_time: iso(now + 3_600_000) });
    await addEvent([s], { start_time: iso(now - 7_200_000), end_time: iso(now - 3_600_000) });
    const reply = await acme.api('GET', `/schedules/${s}/current_oncall`);
    expect(reply.status).toBe(200);
    const entries = reply.body as Entry[];
    expect(entries.map((e) => e.layer)).toEqual([1, 2]);
    expect(onDuty(entries)).toEqual([[[cat, 3]], [[ann, 1], [ben, 2]]]);
    expect(entries[0]!.start_time).toBe(iso(now - 3_600_000).replace('.000Z', '+00:00'));
    expect(entries[1]!.start_time).toMatch(/\+09:00$/);
    expect(Date.parse(entries[1]!.start_time)).toBe(now - 3_600_000);
    const asMemberReply = await asMember('GET', `/schedules/${s}/current_oncall`);
    expect(asMemberReply.body).toEqual(entries);
  });
});

describe('GET /schedules/:id/events', () => {
  it('lists the raw events of the schedule only, with ops filters on the new and the old names', async () => {
    const s = await newSchedule('Raw');
    const other = await newSchedule('Other');
    const r = await addEvent([s], { ...daily, rotation: true, account_user_ids: [ann, ben], start_time: '2030-08-01T09:00:00', end_time: '2030-08-01T17:00:00' });
    const both = await addEvent([other, s], { start_time: '2030-08-03T09:00:00', end_time: '2030-08-03T10:00:00' });
    await addEvent([other], { start_time: '2030-08-02T09:00:00', end_time: '2030-08-02T10:00:00' });
    const all = await acme.api('GET', `/schedules/${s}/events?sort=start_time`);
    expect(all.status).toBe(200);
    expect(all.body.total_count).toBe(2);
    expect(all.body.data.map((e: { id: string }) => e.id)).toEqual([r.id, both.id]);
    // Unexpanded: the repeating event appears once, as stored.
    expect(all.body.data[0]).toEqual((await acme.api('GET', `/events/${r.id}`)).body);
    const ids = async (qs: string) => (await acme.api('GET', `/schedules/${s}/events${qs}`)).body.data.map((e: { id: string }) => e.id);
    expect(await ids('?start_datetime=2030-08-02%2000:00:00&end_datetime=2030-08-03%2010:00:00&ops=start_datetime:gte,end_datetime:lte')).toEqual([both.id]);
    expect(await ids('?start_time=2030-08-02T00:00:00Z&end_time=2030-08-03T10:00:00Z&ops=start_time:gte,end_time:lte')).toEqual([both.id]);
    expect(await ids('?start_datetime=2030-08-02&ops=start_datetime:lt')).toEqual([r.id]);
    expect(await ids('?rotation=true')).toEqual([r.id]);
    const page = await acme.api('GET', `/schedules/${s}/events?limit=1&sort=start_datetime&direction=desc`);
    expect(page.body).toMatchObject({ total_count: 2, has_more: true });
    expect(page.body.data.map((e: { id: string }) => e.id)).toEqual([both.id]);
  });
});

describe('flush and schedule deletion', () => {
  it('flush: events only in the schedule are deleted, events also elsewhere just leave it; 204', async () => {
    const s = await newSchedule('Flush');
    const keep = await newSchedule('Keep');
    const only = await addEvent([s], { start_time: '2030-09-01T09:00:00', end_time: '2030-09-01T10:00:00' });
    const shared = await addEvent([s, keep], { start_time: '2030-09-01T09:00:00', end_time: '2030-09-01T10:00:00' });
    expect((await asMember('DELETE', `/schedules/${s}/flush`)).status).toBe(403);
    const reply = await acme.api('DELETE', `/schedules/${s}/flush`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect((await acme.api('GET', `/events/${only.id}`)).status).toBe(404);
    expect((await acme.api('GET', `/events/${shared.id}`)).body.schedule_ids).toEqual([keep]);
    expect(await window(s, '2030-09-01 00:00:00', '2030-09-02 00:00:00')).toEqual([]);
    expect((await window(keep, '2030-09-01 00:00:00', '2030-09-02 00:00:00')).map((e) => e.id)).toEqual([shared.id]);
    expect((await acme.api('GET', `/schedules/${s}`)).status).toBe(200);
    expect((await acme.api('DELETE', `/schedules/${s}/flush`)).status).toBe(204);
    expect((await acme.api('DELETE', '/schedules/sch_abcdefghijkl/flush')).status).toBe(404);
  });

  it('flush removes more events than one transaction holds', async () => {
    const s = await newSchedule('Big flush');
    const keep = await newSchedule('Big keep');
    const created = await Promise.all(
      Array.from({ length: 60 }, (_, i) => addEvent(i % 10 === 0 ? [s, keep] : [s], { start_time: `2030-10-01T${String(i % 24).padStart(2, '0')}:00:00`, end_time: `2030-10-02T00:00:00` })),
    );
    expect((await acme.api('GET', `/schedules/${s}/events?limit=1`)).body.total_count).toBe(60);
    expect((await acme.api('DELETE', `/schedules/${s}/flush`)).status).toBe(204);
    expect((await acme.api('GET', `/schedules/${s}/events?limit=1`)).body.total_count).toBe(0);
    const left = (await acme.api('GET', `/schedules/${keep}/events?limit=100`)).body.data.map((e: { id: string }) => e.id).sort();
    expect(left).toEqual(created.filter((_, i) => i % 10 === 0).map((e) => e.id).sort());
  });

  it('deleting a schedule deletes its events that are in no other schedule', async () => {
    const s = await newSchedule('Doomed');
    const keep = await newSchedule('Survivor');
    const only = await addEvent([s], { start_time: '2030-09-01T09:00:00', end_time: '2030-09-01T10:00:00' });
    const shared = await addEvent([keep, s], { start_time: '2030-09-01T09:00:00', end_time: '2030-09-01T10:00:00' });
    expect((await acme.api('DELETE', `/schedules/${s}`)).status).toBe(204);
    expect((await acme.api('GET', `/events/${only.id}`)).status).toBe(404);
    expect((await acme.api('GET', `/events/${shared.id}`)).body.schedule_ids).toEqual([keep]);
    const orphan = await acme.api('POST', '/events', { layer: 1, time_zone: 'UTC', account_user_ids: [ann], schedule_ids: [s], start_time: '2030-09-01T09:00:00', end_time: '2030-09-01T10:00:00' });
    expect(errorMessages(orphan)).toEqual([`schedule_ids contains unknown schedule ${s}`]);
  });
});
