// Time off through the gateway: the /time_off resource (who may record what, clear 422s) and its effect on every
// on-call answer: window_events, current_oncall and whom an alert pages (docs/schedules.md, "Time off").
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, errorMessages, isoSeconds, newAccount, pollUntil, type TestAccount, useTestStack, weeklyRotation } from './helpers.ts';
import { personWithKey, type KeyedPerson } from './members.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

let acme: TestAccount;
let other: TestAccount;
let ann: string;
let ben: KeyedPerson;
let cat: string;

beforeAll(async () => {
  useTestStack();
  [acme, other] = await Promise.all([newAccount('Time off'), newAccount('Time off other')]);
  ann = acme.adminAccountUserId;
  ben = await personWithKey(acme);
  cat = (await addAccountUser(acme)).id;
});

describe('the /time_off resource', () => {
  it('records a member’s own time off by default, in UTC unless told, and renders it', async () => {
    const reply = await ben.api('POST', '/time_off', { start_time: '2030-07-01 00:00', end_time: '2030-07-15 00:00', reason: 'Holiday' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      account_user_id: ben.id,
      start_time: '2030-07-01T00:00:00+00:00',
      end_time: '2030-07-15T00:00:00+00:00',
      time_zone: 'UTC',
      reason: 'Holiday',
    });
    expect(reply.body.prefix_id).toMatch(/^tof_/);
    const got = await acme.api('GET', `/time_off/${reply.body.prefix_id}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(reply.body.id);
    const zoned = await acme.api('POST', '/time_off', { account_user_id: cat, start_time: '2030-07-01 09:00', end_time: '2030-07-01 17:00', time_zone: 'Europe/Berlin' });
    expect(zoned.status, zoned.text).toBe(201);
    expect([zoned.body.start_time, zoned.body.end_time, zoned.body.reason]).toEqual(['2030-07-01T09:00:00+02:00', '2030-07-01T17:00:00+02:00', null]);
    const listed = await acme.api('GET', `/time_off?account_user_id=${cat}`);
    expect(listed.body.data.map((t: { id: string }) => t.id)).toEqual([zoned.body.id]);
  });

  it('lets a member change only their own; an admin anyone’s', async () => {
    const catsLeave = (await acme.api('POST', '/time_off', { account_user_id: cat, start_time: '2030-08-01', end_time: '2030-08-02' })).body;
    const forOther = await ben.api('POST', '/time_off', { account_user_id: cat, start_time: '2030-08-01', end_time: '2030-08-02' });
    expect(forOther.status).toBe(403);
    expect(errorMessages(forOther)).toEqual(['Only account admins can record or change the time off of other account users']);
    expect((await ben.api('PUT', `/time_off/${catsLeave.id}`, { reason: 'mine now' })).status).toBe(403);
    expect((await ben.api('DELETE', `/time_off/${catsLeave.id}`)).status).toBe(403);
    expect((await acme.api('GET', `/time_off/${catsLeave.id}`)).body.reason).toBeNull();
    const own = (await ben.api('POST', '/time_off', { start_time: '2030-09-01', end_time: '2030-09-02' })).body;
    const moved = await ben.api('PUT', `/time_off/${own.id}`, { end_time: '2030-09-03', reason: 'Longer' });
    expect(moved.status, moved.text).toBe(200);
    expect([moved.body.start_time, moved.body.end_time, moved.body.reason]).toEqual(['2030-09-01T00:00:00+00:00', '2030-09-03T00:00:00+00:00', 'Longer']);
    expect((await ben.api('DELETE', `/time_off/${own.id}`)).status).toBe(204);
    expect((await acme.api('DELETE', `/time_off/${catsLeave.id}`)).status).toBe(204);
    expect((await acme.api('GET', `/time_off/${catsLeave.id}`)).status).toBe(404);
  });

  it('refuses bad input with a 422 naming the field, and writes nothing', async () => {
    const before = (await acme.api('GET', '/time_off?limit=100')).body.total_count;
    expect(errorMessages(await acme.api('POST', '/time_off', {}))).toEqual(['start_time is required', 'end_time is required']);
    expect(errorMessages(await acme.api('POST', '/time_off', { start_time: 'soon', end_time: '2030-01-01', time_zone: 'Mars/Base' }))).toEqual([
      'time_zone must be one of the names GET /events/time_zones lists or an IANA time zone id; got "Mars/Base"',
    ]);
    expect(errorMessages(await acme.api('POST', '/time_off', { start_time: 'soon', end_time: '2030-01-01' }))).toEqual([
      'start_time must be an ISO 8601 datetime such as 2025-06-01T22:00:00 (wall clock in time_zone) or 2025-06-01T20:00:00Z',
    ]);
    expect(errorMessages(await acme.api('POST', '/time_off', { start_time: '2030-01-02', end_time: '2030-01-01' }))).toEqual(['end_time must be after start_time']);
    expect(errorMessages(await acme.api('POST', '/time_off', { start_time: '2030-01-01', end_time: '2031-01-03' }))).toEqual([
      'end_time must be at most 366 days after start_time; record a longer absence as several',
    ]);
    expect(errorMessages(await acme.api('POST', '/time_off', { account_user_id: 'usr_abcdefghijkl', start_time: '2030-01-01', end_time: '2030-01-02' }))).toEqual([
      'account_user_id refers to unknown account user usr_abcdefghijkl',
    ]);
    expect(errorMessages(await acme.api('POST', '/time_off', { account_user_id: 'a/b', start_time: '2030-01-01', end_time: '2030-01-02' }))[0]).toMatch(/^account_user_id is not an id/);
    expect(errorMessages(await acme.api('POST', '/time_off', { start_time: '2030-01-01', end_time: '2030-01-02', reason: 'x'.repeat(1001) }))).toEqual([
      'reason is longer than 1000 characters',
    ]);
    // Another account's people are unknown here.
    expect(errorMessages(await other.api('POST', '/time_off', { account_user_id: ann, start_time: '2030-01-01', end_time: '2030-01-02' }))).toEqual([
      `account_user_id refers to unknown account user ${ann}`,
    ]);
    expect((await acme.api('GET', '/time_off?limit=100')).body.total_count).toBe(before);
  });
});

describe('a week of time off in a weekly rotation', () => {
  let team: { id: string; schedule_id: string };
  let weekStart: number;
  let leaveId: string;

  beforeAll(async () => {
    team = (await acme.api('POST', '/teams', { name: 'Payments' })).body;
    // Turn 0 (ann) ended a day ago; turn 1 (ben) holds now; then cat, then ann again.
    const first = Math.floor((Date.now() - WEEK - DAY) / 1000) * 1000;
    weekStart = first + WEEK;
    const event = await weeklyRotation(acme, [ann, ben.id, cat], team.schedule_id, first);
    expect(event.status, event.text).toBe(201);
    const leave = await ben.api('POST', '/time_off', { start_time: isoSeconds(weekStart), end_time: isoSeconds(weekStart + WEEK), reason: 'Holiday' });
    expect(leave.status, leave.text).toBe(201);
    leaveId = leave.body.id;
  });

  const windowOf = async () => {
    const q = `start=${encodeURIComponent(isoSeconds(weekStart - WEEK))}&end=${encodeURIComponent(isoSeconds(weekStart + 3 * WEEK - 1000))}`;
    const reply = await acme.api('GET', `/schedules/${team.schedule_id}/window_events?${q}`);
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as { start_time: string; attendees: { attendee_id: string; covering_for?: string }[] }[]).map((e) => [
      Date.parse(e.start_time) - weekStart,
      e.attendees.map((a) => [a.attendee_id, a.covering_for ?? null]),
    ]);
  };

  it('hands that week to the next person and leaves every other week as it was', async () => {
    expect(await windowOf()).toEqual([
      [-WEEK, [[ann, null]]],
      [0, [[cat, ben.id]]],
      [WEEK, [[cat, null]]],
      [2 * WEEK, [[ann, null]]],
    ]);
  });

  it('shows the cover in current_oncall, of the schedule and of the team', async () => {
    for (const path of [`/schedules/${team.schedule_id}/current_oncall`, `/teams/${team.id}/current_oncall`]) {
      const reply = await acme.api('GET', path);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.map((e: { attendees: unknown[] }) => e.attendees)).toEqual([[{ attendee_id: cat, attendee_type: 'AccountUser', position: 3, covering_for: ben.id }]]);
    }
  });

  it('pages the cover, not the person away', async () => {
    const alert = await acme.api('POST', '/alerts', { title: 'Payments down', urgency: 'high', destination_team_ids: [team.id] });
    expect(alert.status, alert.text).toBe(201);
    const paged = await pollUntil(async () => {
      const logs = (await acme.api('GET', `/alerts/${alert.body.id}/logs?limit=100`)).body.data as { event: string; account_user_id?: string }[];
      const found = logs.filter((l) => l.event === 'paged').map((l) => l.account_user_id);
      return found.length > 0 ? found : undefined;
    });
    expect(paged).toEqual([cat]);
  });

  it('puts the person back once the time off is deleted', async () => {
    expect((await ben.api('DELETE', `/time_off/${leaveId}`)).status).toBe(204);
    expect((await windowOf())[1]).toEqual([0, [[ben.id, null]]]);
  });
});
