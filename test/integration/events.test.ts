// The events API through the gateway: CRUD, field rules, time input and output, the three actions, time zones.
// On-call views over events: oncall.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, errorMessages, newAccount, request, type TestAccount, useTestStack } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;
let scheduleId: string;
let otherScheduleId: string;
let alice: string;
let bob: string;
let carol: string;
let member: string;

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Events'), newAccount('Events other')]);
  scheduleId = (await acme.api('POST', '/schedules', { name: 'Primary' })).body.id;
  otherScheduleId = (await acme.api('POST', '/schedules', { name: 'Secondary' })).body.id;
  alice = acme.adminAccountUserId;
  [bob, carol] = (await Promise.all([addAccountUser(acme), addAccountUser(acme)])).map((u) => u.id) as [string, string];
  member = await createMemberKey(acme);
});

const asMember = (method: string, path: string, body?: unknown) => request(method, `/api/v4${path}`, { key: member, body });

/** A valid one-off event body; override fields with `extra`. */
const oneOff = (extra: Record<string, unknown> = {}) => ({
  start_time: '2030-01-15T09:00:00',
  end_time: '2030-01-15T17:00:00',
  layer: 1,
  time_zone: 'Eastern Time (US & Canada)',
  schedule_ids: [scheduleId],
  account_user_ids: [alice],
  ...extra,
});

async function create(extra: Record<string, unknown> = {}) {
  const reply = await acme.api('POST', '/events', oneOff(extra));
  if (reply.status !== 201) throw new Error(`create failed: ${reply.status} ${reply.text}`);
  return reply.body;
}

describe('GET /events/time_zones', () => {
  it('answers the bare array of the 151 listed names, in Rails order, to any caller', async () => {
    const reply = await asMember('GET', '/events/time_zones');
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(151);
    expect(reply.body[0]).toBe('International Date Line West');
    expect(reply.body.at(-1)).toBe('Tokelau Is.');
    expect(reply.body).toContain('Mazatlán');
    expect(reply.body).toContain('Eastern Time (US & Canada)');
    expect((await request('GET', '/api/v4/events/time_zones')).status).toBe(401);
  });
});

describe('POST /events', () => {
  it('creates a one-off event: 201, wall clock of the zone out with its offset, attendees in order', async () => {
    const reply = await acme.api('POST', '/events', oneOff({ account_user_ids: [bob, alice], meta: { note: 'x' } }));
    expect(reply.status).toBe(201);
    const e = reply.body;
    expect(e).toMatchObject({
      account_id: acme.accountId,
      start_time: '2030-01-15T09:00:00-05:00',
      end_time: '2030-01-15T17:00:00-05:00',
      layer: 1,
      time_zone: 'Eastern Time (US & Canada)',
      iana_time_zone: 'America/New_York',
      repeat: false,
      frequency: null,
      frequency_unit: null,
      days_of_week: [],
      repeat_end_datetime: null,
      rotation: false,
      parent_id: null,
      schedule_ids: [scheduleId],
      exceptions: [],
      meta: { note: 'x' },
    });
    expect(e.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(e.prefix_id).toMatch(/^evt_[A-Za-z0-9]{12}$/);
    expect(e.event_attendees).toEqual([
      { id: expect.stringMatching(/^att_/), attendee_id: bob, attendee_type: 'AccountUser', position: 1 },
      { id: expect.stringMatching(/^att_/), attendee_id: alice, attendee_type: 'AccountUser', position: 2 },
    ]);
    const read = await acme.api('GET', `/events/${e.prefix_id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(e);
  });

  it('converts times with an offset to the wall clock of the event zone; accepts the old names and a space', async () => {
    const utc = await create({ start_time: '2030-07-01T12:00:00Z', end_time: '2030-07-01T20:30:00+02:00', time_zone: 'Europe/Berlin' });
    expect(utc).toMatchObject({ start_time: '2030-07-01T14:00:00+02:00', end_time: '2030-07-01T20:30:00+02:00', time_zone: 'Europe/Berlin', iana_time_zone: 'Europe/Berlin' });
    const old = await create({ start_time: undefined, end_time: undefined, start_datetime: '2030-07-01 08:00', end_datetime: '2030-07-01 09:15:30', time_zone: 'Kolkata' });
    expect(old).toMatchObject({ start_time: '2030-07-01T08:00:00+05:30', end_time: '2030-07-01T09:15:30+05:30', iana_time_zone: 'Asia/Kolkata' });
    expect(old).not.toHaveProperty('start_datetime');
    const ascii = await create({ time_zone: 'Mazatlan' });
    expect(ascii).toMatchObject({ time_zone: 'Mazatlan', iana_time_zone: 'America/Mazatlan', start_time: '2030-01-15T09:00:00-07:00' });
    // The old names are fields the events API takes: no Warning for them; a misspelled field is named in one.
    const named = await acme.api('POST', '/events', oneOff({ start_time: undefined, end_time: undefined, start_datetime: '2030-07-01 08:00', end_datetime: '2030-07-01 09:00', layr: 2 }));
    expect(named.status, named.text).toBe(201);
    expect(named.headers.get('warning')).toBe('299 - "unknown field layr"');
  });

  it('422 naming every missing required field', async () => {
    const reply = await acme.api('POST', '/events', {});
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      'start_time is required',
      'end_time is required',
      'layer is required',
      'time_zone is required',
      'schedule_ids is required',
      'account_user_ids is required',
    ]);
    for (const field of ['start_time', 'end_time', 'layer', 'time_zone', 'schedule_ids', 'account_user_ids']) {
      const one = await acme.api('POST', '/events', oneOff({ [field]: undefined }));
      expect(one.status).toBe(422);
      expect(errorMessages(one)).toEqual([`${field} is required`]);
    }
  });

  it('422 for frequency and frequency_unit missing when repeat is true', async () => {
    const both = await acme.api('POST', '/events', oneOff({ repeat: true }));
    expect(errorMessages(both)).toEqual(['frequency is required when repeat is true', 'frequency_unit is required when repeat is true']);
    const unit = await acme.api('POST', '/events', oneOff({ repeat: true, frequency: 1 }));
    expect(errorMessages(unit)).toEqual(['frequency_unit is required when repeat is true']);
    const freq = await acme.api('POST', '/events', oneOff({ repeat: true, frequency_unit: 'daily', frequency: null }));
    expect(errorMessages(freq)).toEqual(['frequency is required when repeat is true']);
    const wrongUnit = await acme.api('POST', '/events', oneOff({ repeat: true, frequency: 1, frequency_unit: 'fortnightly' }));
    expect(errorMessages(wrongUnit)).toEqual(['frequency_unit must be one of hourly, daily, weekly, monthly, yearly']);
  });

  it('422 for values the engine cannot read, each naming its field', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ layer: 0 }, ['layer must be an integer of at least 1']],
      [{ layer: 1.5 }, ['layer must be an integer of at least 1']],
      [{ layer: '1' }, ['layer must be an integer of at least 1']],
      [{ time_zone: 'Mars/Olympus' }, ['time_zone Mars/Olympus is not a valid time zone; GET /events/time_zones lists the names (IANA ids are accepted too)']],
      [{ end_time: '2030-01-15T09:00:00' }, ['end_time must be after start_time']],
      [{ end_time: '2030-01-15T08:00:00' }, ['end_time must be after start_time']],
      [{ start_time: 'tomorrow' }, ['start_time must be an ISO 8601 datetime (YYYY-MM-DDTHH:mm:ss, optionally with Z or an offset)']],
      [{ start_time: '2030-02-30T09:00:00' }, ['start_time must be an ISO 8601 datetime (YYYY-MM-DDTHH:mm:ss, optionally with Z or an offset)']],
      [{ account_user_ids: [] }, ['account_user_ids must name at least one account user']],
      [{ schedule_ids: [] }, ['schedule_ids must name at least one schedule']],
      [{ account_user_ids: [alice, 'usr_abcdefghijkl'] }, ['account_user_ids contains unknown account user usr_abcdefghijkl']],
      [{ schedule_ids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] }, ['schedule_ids contains unknown schedule 01ARZ3NDEKTSV4RRFFQ69G5FAV']],
      [{ parent_id: 'evt_abcdefghijkl' }, ['parent_id refers to unknown event evt_abcdefghijkl']],
      [{ rotation: true }, ['rotation requires repeat to be true (a rotation hands over at each occurrence)']],
      [{ repeat: true, frequency: 1, frequency_unit: 'daily', days_of_week: [1, 7] }, ['days_of_week[1] must be an integer from 0 (Sunday) to 6 (Saturday)']],
      [{ repeat: true, frequency: 1, frequency_unit: 'daily', days_of_week: 'weekdays' }, ['days_of_week must be a list of integers from 0 (Sunday) to 6 (Saturday)']],
      [{ repeat: true, frequency: 0, frequency_unit: 'daily' }, ['frequency must be an integer of at least 1']],
      [{ repeat: true, frequency: 1, frequency_unit: 'daily', repeat_end_datetime: '2030-01-14' }, ['repeat_end_datetime must not be before start_time']],
      [{ repeat: 'yes' }, ['repeat must be true or false']],
    ];
    for (const [extra, messages] of cases) {
      const reply = await acme.api('POST', '/events', oneOff(extra));
      expect(reply.status, JSON.stringify(extra)).toBe(422);
      expect(errorMessages(reply), JSON.stringify(extra)).toEqual(messages);
    }
  });

  it("422 for another account's account users and schedules", async () => {
    const theirSchedule = (await globex.api('POST', '/schedules', { name: 'Theirs' })).body;
    const reply = await acme.api('POST', '/events', oneOff({ schedule_ids: [theirSchedule.id], account_user_ids: [globex.adminAccountUserId] }));
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      `account_user_ids contains unknown account user ${globex.adminAccountUserId}`,
      `schedule_ids contains unknown schedule ${theirSchedule.id}`,
    ]);
  });

  it('rejects a wall clock the zone skips, and an instant in the repeated fall-back hour', async () => {
    const gap = await acme.api('POST', '/events', oneOff({ start_time: '2030-03-10T02:30:00', end_time: '2030-03-10T05:00:00' }));
    expect(errorMessages(gap)).toEqual([
      'start_time 2030-03-10T02:30:00 does not exist in America/New_York: the clocks skip it (daylight saving time starts); give a time outside the skipped hour',
    ]);
    // 2030-11-03 01:30 happens twice in New York; -05:00 is the second pass, which a wall clock cannot name.
    const second = await acme.api('POST', '/events', oneOff({ start_time: '2030-11-03T01:30:00-05:00', end_time: '2030-11-03T05:00:00' }));
    expect(errorMessages(second)).toEqual([
      'start_time 2030-11-03T01:30:00-05:00 falls in the repeated hour when daylight saving time ends in America/New_York; 2030-11-03 01:30:00 there means the first pass of that hour (2030-11-03T01:30:00-04:00); give that time or another time_zone',
    ]);
    const first = await create({ start_time: '2030-11-03T01:30:00', end_time: '2030-11-03T05:00:00' });
    expect(first.start_time).toBe('2030-11-03T01:30:00-04:00');
    expect(first.end_time).toBe('2030-11-03T05:00:00-05:00');
  });

  it('stores canonical ids when prefix ids are sent, and keeps a rotation that lists someone twice', async () => {
    const schedule = (await acme.api('GET', `/schedules/${scheduleId}`)).body;
    const e = await create({
      schedule_ids: [schedule.prefix_id, scheduleId, otherScheduleId],
      repeat: true,
      frequency: 1,
      frequency_unit: 'weekly',
      rotation: true,
      account_user_ids: [alice, bob, alice],
      days_of_week: [5, 1, 1],
      repeat_end_datetime: '2030-03-01T23:00:00Z',
    });
    expect(e.schedule_ids).toEqual([scheduleId, otherScheduleId]);
    expect(e.event_attendees.map((a: { attendee_id: string; position: number }) => [a.attendee_id, a.position])).toEqual([
      [alice, 1],
      [bob, 2],
      [alice, 3],
    ]);
    expect(e.days_of_week).toEqual([1, 5]);
    expect(e.repeat_end_datetime).toBe('2030-03-01T18:00:00-05:00');
    const plain = await create({ account_user_ids: [alice, bob, alice] });
    expect(plain.event_attendees.map((a: { attendee_id: string }) => a.attendee_id)).toEqual([alice, bob]);
  });

  it('takes exceptions on create and replaces them on PUT, keeping the ids of those kept', async () => {
    const e = await create({
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      exceptions: ['2030-01-17T09:00:00', { start_datetime: '2030-01-16T14:00:00Z' }],
    });
    expect(e.exceptions).toEqual([
      { id: expect.stringMatching(/^exc_/), start_datetime: '2030-01-16T09:00:00-05:00' },
      { id: expect.stringMatching(/^exc_/), start_datetime: '2030-01-17T09:00:00-05:00' },
    ]);
    const replaced = await acme.api('PUT', `/events/${e.id}`, { exceptions: [{ id: 'ignored', start_datetime: '2030-01-17T09:00:00-05:00' }] });
    expect(replaced.body.exceptions).toEqual([e.exceptions[1]]);
    const bad = await acme.api('PUT', `/events/${e.id}`, { exceptions: ['2030-01-18T09:00:00', 'whenever'] });
    expect(errorMessages(bad)).toEqual(['exceptions[1].start_datetime must be an ISO 8601 datetime']);
  });

  it('403 for a member; members may read', async () => {
    const denied = await asMember('POST', '/events', oneOff());
    expect(denied.status).toBe(403);
    expect(errorMessages(denied)).toEqual(['Only account admins can change configuration']);
    const e = await create();
    expect((await asMember('GET', `/events/${e.id}`)).status).toBe(200);
    expect((await asMember('GET', '/events')).status).toBe(200);
    expect((await asMember('PUT', `/events/${e.id}`, { layer: 2 })).status).toBe(403);
    expect((await asMember('DELETE', `/events/${e.id}`)).status).toBe(403);
    for (const action of ['override', 'add_exception', 'terminate_on']) {
      expect((await asMember('POST', `/events/${e.id}/${action}`, { action_time: e.start_time })).status).toBe(403);
    }
  });
});

describe('GET, PUT, DELETE /events/:id', () => {
  it('404 for unknown ids and for another account’s event, on every operation', async () => {
    const e = await create();
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'evt_abcdefghijkl', 'nonsense']) {
      const reply = await acme.api('GET', `/events/${id}`);
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Event not found']);
    }
    for (const id of [e.id, e.prefix_id]) {
      expect((await globex.api('GET', `/events/${id}`)).status).toBe(404);
      expect((await globex.api('PUT', `/events/${id}`, { layer: 2 })).status).toBe(404);
      expect((await globex.api('DELETE', `/events/${id}`)).status).toBe(404);
      for (const action of ['override', 'add_exception', 'terminate_on']) {
        const reply = await globex.api('POST', `/events/${id}/${action}`, { action_time: e.start_time });
        expect(reply.status).toBe(404);
        expect(errorMessages(reply)).toEqual(['Event not found']);
      }
    }
    expect((await acme.api('GET', `/events/${e.id}`)).body.layer).toBe(1);
  });

  it('PUT replaces the fields sent; times not sent keep their wall clock in a new zone; attendee ids stay', async () => {
    const e = await create({ account_user_ids: [alice, bob] });
    const reply = await acme.api('PUT', `/events/${e.id}`, { time_zone: 'London', account_user_ids: [bob, carol], layer: 3 });
    expect(reply.status).toBe(200);
    const u = reply.body;
    expect(u).toMatchObject({ id: e.id, time_zone: 'London', iana_time_zone: 'Europe/London', layer: 3, start_time: '2030-01-15T09:00:00+00:00', end_time: '2030-01-15T17:00:00+00:00' });
    const bobRow = e.event_attendees.find((a: { attendee_id: string }) => a.attendee_id === bob);
    expect(u.event_attendees).toEqual([
      { ...bobRow, position: 1 },
      { id: expect.stringMatching(/^att_/), attendee_id: carol, attendee_type: 'AccountUser', position: 2 },
    ]);
    const moved = await acme.api('PUT', `/events/${e.id}`, { start_datetime: '2030-01-15T08:00:00Z', end_time: '2030-01-15T12:00:00-05:00' });
    expect(moved.body).toMatchObject({ start_time: '2030-01-15T08:00:00+00:00', end_time: '2030-01-15T17:00:00+00:00' });
  });

  it('PUT validates the merged event: 422 naming the field, and nothing changes', async () => {
    const e = await create();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ end_time: '2030-01-15T08:00:00' }, ['end_time must be after start_time']],
      [{ repeat: true }, ['frequency is required when repeat is true', 'frequency_unit is required when repeat is true']],
      [{ account_user_ids: [] }, ['account_user_ids must name at least one account user']],
      [{ layer: null }, ['layer must be an integer of at least 1']],
      [{ time_zone: 'Nowhere' }, ['time_zone Nowhere is not a valid time zone; GET /events/time_zones lists the names (IANA ids are accepted too)']],
      [{ parent_id: e.id }, ['parent_id cannot be the event itself']],
    ];
    for (const [body, messages] of cases) {
      const reply = await acme.api('PUT', `/events/${e.id}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expect(errorMessages(reply), JSON.stringify(body)).toEqual(messages);
    }
    const repeating = await acme.api('PUT', `/events/${e.id}`, { repeat: true, frequency: 2, frequency_unit: 'daily' });
    expect(repeating.body).toMatchObject({ repeat: true, frequency: 2, frequency_unit: 'daily' });
    expect((await acme.api('PUT', `/events/${e.id}`, { repeat: true })).status).toBe(200);
    expect((await acme.api('GET', `/events/${e.id}`)).body).toMatchObject({ layer: 1, start_time: '2030-01-15T09:00:00-05:00', time_zone: 'Eastern Time (US & Canada)' });
  });

  it('DELETE answers 204, then 404', async () => {
    const e = await create();
    const reply = await acme.api('DELETE', `/events/${e.prefix_id}`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect((await acme.api('GET', `/events/${e.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/events/${e.id}`)).status).toBe(404);
  });
});

describe('GET /events', () => {
  let fresh: TestAccount;
  let sched: string;
  beforeAll(async () => {
    fresh = await newAccount('Event lists');
    sched = (await fresh.api('POST', '/schedules', { name: 'S' })).body.id;
    for (const day of ['01', '02', '03', '04']) {
      const reply = await fresh.api('POST', '/events', {
        start_time: `2030-06-${day}T08:00:00`,
        end_time: `2030-06-${day}T10:00:00`,
        layer: Number(day),
        time_zone: 'UTC',
        schedule_ids: [sched],
        account_user_ids: [fresh.adminAccountUserId],
      });
      expect(reply.status).toBe(201);
    }
  });

  it('lists with the envelope, filters on start_time and on its old name start_datetime, sorts by either', async () => {
    const all = await fresh.api('GET', '/events');
    expect(all.body).toMatchObject({ total_count: 4, has_more: false });
    const layers = (reply: { body: { data: { layer: number }[] } }) => reply.body.data.map((e) => e.layer);
    expect(layers(await fresh.api('GET', '/events?start_time=2030-06-02T08:00:00Z&ops=start_time:gte&sort=start_time'))).toEqual([2, 3, 4]);
    expect(layers(await fresh.api('GET', '/events?start_datetime=2030-06-02%2008:00:00&ops=start_datetime:gte&sort=start_datetime'))).toEqual([2, 3, 4]);
    expect(
      layers(await fresh.api('GET', '/events?start_datetime=2030-06-02&end_datetime=2030-06-03T10:00:00Z&ops=start_datetime:gte,end_datetime:lte&sort=start_time&direction=desc')),
    ).toEqual([3, 2]);
    expect(layers(await fresh.api('GET', '/events?layer=3'))).toEqual([3]);
    expect((await fresh.api('GET', '/events?q=etc/utc')).body.total_count).toBe(4);
    expect((await fresh.api('GET', '/events?q=berlin')).body.total_count).toBe(0);
    const both = await fresh.api('GET', '/events?start_datetime=2030-06-02&start_time=2030-06-03&ops=start_datetime:gte,start_time:lte');
    expect(both.status).toBe(422);
    expect(errorMessages(both)).toEqual([
      'start_datetime is the old name of start_time; filter with one of them (a range fits in one: start_time=from..to&ops=start_time:between)',
    ]);
    expect(layers(await fresh.api('GET', '/events?start_time=2030-06-02..2030-06-03T08:00:00Z&ops=start_time:between&sort=layer'))).toEqual([2, 3]);
  });
});

describe('actions', () => {
  /** Daily 09:00–17:00 New York rotation of alice, bob, carol from 2030-04-01. */
  const rotation = (extra: Record<string, unknown> = {}) =>
    create({
      start_time: '2030-04-01T09:00:00',
      end_time: '2030-04-01T17:00:00',
      time_zone: 'America/New_York',
      repeat: true,
      frequency: 1,
      frequency_unit: 'daily',
      rotation: true,
      account_user_ids: [alice, bob, carol],
      ...extra,
    });

  it('add_exception: adds the occurrence start, in the event zone, and answers the event', async () => {
    const e = await rotation();
    const reply = await acme.api('POST', `/events/${e.id}/add_exception`, { action_time: '2030-04-03T13:00:00Z' });
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(e.id);
    expect(reply.body.exceptions).toEqual([{ id: expect.stringMatching(/^exc_/), start_datetime: '2030-04-03T09:00:00-04:00' }]);
    // Without an offset action_time is a wall clock of the event zone.
    const second = await acme.api('POST', `/events/${e.id}/add_exception`, { action_time: '2030-04-05T09:00:00' });
    expect(second.body.exceptions.map((x: { start_datetime: string }) => x.start_datetime)).toEqual(['2030-04-03T09:00:00-04:00', '2030-04-05T09:00:00-04:00']);
    expect(second.body.exceptions[0].id).toBe(reply.body.exceptions[0].id);
  });

  it('422 naming the nearest occurrence starts when action_time is not an occurrence start', async () => {
    const e = await rotation();
    const reply = await acme.api('POST', `/events/${e.id}/add_exception`, { action_time: '2030-04-03T10:00:00-04:00' });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      'action_time 2030-04-03T10:00:00-04:00 is not the start of an occurrence of this event; the nearest occurrences start at 2030-04-03T09:00:00-04:00 and 2030-04-04T09:00:00-04:00',
    ]);
    const before = await acme.api('POST', `/events/${e.id}/terminate_on`, { action_time: '2030-03-01T09:00:00-05:00' });
    expect(errorMessages(before)).toEqual([
      'action_time 2030-03-01T09:00:00-05:00 is not the start of an occurrence of this event; the next occurrence starts at 2030-04-01T09:00:00-04:00',
    ]);
    const excepted = await acme.api('POST', `/events/${e.id}/add_exception`, { action_time: '2030-04-02T09:00:00' });
    expect(excepted.status).toBe(200);
    expect((await acme.api('POST', `/events/${e.id}/add_exception`, { action_time: '2030-04-02T09:00:00' })).status).toBe(422);
  });

  it('422 when action_time is missing or unreadable', async () => {
    const e = await rotation();
    for (const action of ['add_exception', 'terminate_on']) {
      expect(errorMessages(await acme.api('POST', `/events/${e.id}/${action}`, {}))).toEqual(['action_time is required']);
      expect(errorMessages(await acme.api('POST', `/events/${e.id}/${action}`, { action_time: 'soon' }))).toEqual([
        'action_time must be an ISO 8601 datetime (without an offset it is a wall clock in the event time_zone)',
      ]);
    }
  });

  it('terminate_on: repeat_end becomes the last kept day; at the first occurrence the event is deleted', async () => {
    const e = await rotation();
    const reply = await acme.api('POST', `/events/${e.id}/terminate_on`, { action_time: '2030-04-10T13:00:00Z' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: e.id, deleted: false, repeat_end_datetime: '2030-04-09T00:00:00-04:00' });
    const gone = await acme.api('POST', `/events/${e.id}/terminate_on`, { action_time: '2030-04-01T09:00:00-04:00' });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ id: e.id, deleted: true, repeat_end_datetime: '2030-04-09T00:00:00-04:00' });
    expect((await acme.api('GET', `/events/${e.id}`)).status).toBe(404);
  });

  it('override: 422 naming each missing field', async () => {
    const e = await rotation();
    const all = await acme.api('POST', `/events/${e.id}/override`, {});
    expect(all.status).toBe(422);
    expect(errorMessages(all)).toEqual([
      'start_time is required',
      'end_time is required',
      'layer is required',
      'time_zone is required',
      'account_user_ids is required',
      'action_time is required',
    ]);
    const body = { start_time: '2030-04-02 12:00', end_time: '2030-04-02 14:00', layer: 1, time_zone: 'America/New_York', account_user_ids: [carol], action_time: '2030-04-02T09:00:00-04:00' };
    for (const field of Object.keys(body)) {
      const reply = await acme.api('POST', `/events/${e.id}/override`, { ...body, [field]: undefined });
      expect(errorMessages(reply)).toEqual([`${field} is required`]);
    }
    const outside = await acme.api('POST', `/events/${e.id}/override`, { ...body, start_time: '2030-04-02 18:00', end_time: '2030-04-02 19:00' });
    expect(errorMessages(outside)).toEqual([
      'start_time and end_time must overlap the occurrence being overridden (2030-04-02T13:00:00.000Z to 2030-04-02T21:00:00.000Z)',
    ]);
    const unknownUser = await acme.api('POST', `/events/${e.id}/override`, { ...body, account_user_ids: ['usr_abcdefghijkl'], time_zone: 'Atlantis' });
    expect(errorMessages(unknownUser)).toEqual([
      'time_zone Atlantis is not a valid time zone; GET /events/time_zones lists the names (IANA ids are accepted too)',
      'account_user_ids contains unknown account user usr_abcdefghijkl',
    ]);
    const reversed = await acme.api('POST', `/events/${e.id}/override`, { ...body, end_time: '2030-04-02 11:00' });
    expect(errorMessages(reversed)).toEqual(['end_time must be after start_time']);
  });

  it('override: answers the override event and splits the occurrence into remainders', async () => {
    const e = await rotation();
    const reply = await acme.api('POST', `/events/${e.id}/override`, {
      start_time: '2030-04-02 12:00',
      end_time: '2030-04-02 14:00',
      layer: 1,
      time_zone: 'Eastern Time (US & Canada)',
      account_user_ids: [carol],
      action_time: '2030-04-02T13:00:00Z',
    });
    expect(reply.status).toBe(200);
    const o = reply.body;
    expect(o).toMatchObject({
      start_time: '2030-04-02T12:00:00-04:00',
      end_time: '2030-04-02T14:00:00-04:00',
      time_zone: 'Eastern Time (US & Canada)',
      layer: 1,
      repeat: false,
      rotation: false,
      parent_id: e.id,
      remainder: false,
      schedule_ids: [scheduleId],
    });
    expect(o.event_attendees.map((a: { attendee_id: string }) => a.attendee_id)).toEqual([carol]);
    const original = (await acme.api('GET', `/events/${e.id}`)).body;
    expect(original.exceptions.map((x: { start_datetime: string }) => x.start_datetime)).toEqual(['2030-04-02T09:00:00-04:00']);
    const pieces = (await acme.api('GET', `/events?parent_id=${e.id}&sort=start_time&limit=100`)).body.data;
    expect(pieces.map((p: { start_time: string; end_time: string; remainder: boolean }) => [p.start_time, p.end_time, p.remainder])).toEqual([
      ['2030-04-02T09:00:00-04:00', '2030-04-02T12:00:00-04:00', true],
      ['2030-04-02T12:00:00-04:00', '2030-04-02T14:00:00-04:00', false],
      ['2030-04-02T14:00:00-04:00', '2030-04-02T17:00:00-04:00', true],
    ]);
    // The remainders keep the occurrence's on-duty attendee (bob, second turn).
    expect(pieces[0].event_attendees.map((a: { attendee_id: string }) => a.attendee_id)).toEqual([bob]);
    // Deleting the original leaves the pieces; they stay editable although their parent is gone.
    expect((await acme.api('DELETE', `/events/${e.id}`)).status).toBe(204);
    const edited = await acme.api('PUT', `/events/${o.id}`, { layer: 2 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ layer: 2, parent_id: e.id, remainder: false });
    const remainder = await acme.api('PUT', `/events/${pieces[0].id}`, { account_user_ids: [alice] });
    expect(remainder.body).toMatchObject({ parent_id: e.id, remainder: true });
  });
});
