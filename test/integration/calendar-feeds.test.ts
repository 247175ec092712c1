// Calendar feeds through the gateway: rotating the secret URL (who may, the old URL dying), the feed parsed with
// ical.js and compared with window_events (time off included), stable UIDs, ETag and 304, the person's feed
// across schedules (docs/schedules.md, "Calendar feeds").
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { addAccountUser, baseUrl, errorMessages, isoSeconds, newAccount, request, type TestAccount, useTestStack, weeklyRotation } from './helpers.ts';
import { personWithKey, type KeyedPerson } from './members.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

let acme: TestAccount;
let ann: string;
let ben: KeyedPerson;
let cat: string;
let schedule: string;
let other: string;
const names = new Map<string, string>();

async function nameOf(id: string): Promise<string> {
  const reply = await acme.api('GET', `/account_users/${id}`);
  return reply.body.user?.name ?? reply.body.name;
}

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Feeds');
  ann = acme.adminAccountUserId;
  ben = await personWithKey(acme);
  cat = (await addAccountUser(acme)).id;
  for (const id of [ann, ben.id, cat]) names.set(id, await nameOf(id));
  schedule = (await acme.api('POST', '/schedules', { name: 'Payments' })).body.id;
  other = (await acme.api('POST', '/schedules', { name: 'Database, core; "night"' })).body.id;
  const first = Math.floor((Date.now() - WEEK - DAY) / 1000) * 1000;
  const rotation = await weeklyRotation(acme, [ann, ben.id, cat], schedule, first);
  expect(rotation.status, rotation.text).toBe(201);
  const nightly = await acme.api('POST', '/events', {
    start_time: isoSeconds(first),
    end_time: isoSeconds(first + 8 * HOUR),
    time_zone: 'Europe/Berlin',
    layer: 2,
    repeat: true,
    frequency: 2,
    frequency_unit: 'daily',
    account_user_ids: [ben.id],
    schedule_ids: [other],
  });
  expect(nightly.status, nightly.text).toBe(201);
  // Ben is away for the week that is his turn now: Cat covers it.
  const leave = await ben.api('POST', '/time_off', { start_time: isoSeconds(first + WEEK), end_time: isoSeconds(first + 2 * WEEK) });
  expect(leave.status, leave.text).toBe(201);
});

const feedPath = (url: string) => url.slice(baseUrl().length);

async function rotate(path: string, key = acme.adminKey) {
  const reply = await request('POST', `/api/v4${path}/ical_token`, { key });
  expect(reply.status, reply.text).toBe(200);
  expect(Object.keys(reply.body)).toEqual(['ical_url']);
  expect(reply.body.ical_url).toMatch(new RegExp(`^${baseUrl()}/ical/[A-Za-z0-9_-]{43}\\.ics$`));
  return reply.body.ical_url as string;
}

interface FeedEvent {
  uid: string;
  summary: string;
  description: string | null;
  start: number;
  end: number;
}

async function readFeed(url: string): Promise<{ events: FeedEvent[]; etag: string; text: string }> {
  const reply = await request('GET', feedPath(url));
  expect(reply.status, reply.text).toBe(200);
  expect(reply.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(reply.text));
  const events = calendar.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return { uid: e.uid, summary: e.summary, description: e.description, start: e.startDate.toJSDate().getTime(), end: e.endDate.toJSDate().getTime() };
  });
  return { events, etag: reply.headers.get('etag') ?? '', text: reply.text };
}

/** What window_events says over the feed's span, one row per person per entry, as the feed should show it. */
async function expected(scheduleId: string, scheduleName: string, only?: string) {
  const now = Date.now();
  const q = `start=${encodeURIComponent(isoSeconds(now - 14 * DAY))}&end=${encodeURIComponent(isoSeconds(now + 90 * DAY))}`;
  const reply = await acme.api('GET', `/schedules/${scheduleId}/window_events?${q}`);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as { layer: number; start_time: string; end_time: string; attendees: { attendee_id: string; covering_for?: string }[] }[]).flatMap((e) =>
    e.attendees
      .filter((a) => only === undefined || a.attendee_id === only)
      .map((a) => ({
        summary: `On call: ${scheduleName} · layer ${e.layer} · ${names.get(a.attendee_id)}`,
        description: a.covering_for ? `Covering for ${names.get(a.covering_for)}, who is away.` : null,
        start: Date.parse(e.start_time),
        end: Date.parse(e.end_time),
      })),
  );
}
// The feed and window_events are asked at slightly different instants, so a shift at either edge of the span may be
// in one and not the other: both are compared without the shifts reaching within a day of the edges.
const inner = <T extends { start: number; end: number }>(rows: T[]) => {
  const now = Date.now();
  return rows.filter((r) => r.start >= now - 13 * DAY && r.end <= now + 89 * DAY);
};
const withoutUid = (events: FeedEvent[]) => inner(events.map(({ uid: _uid, ...rest }) => rest)).sort((a, b) => a.start - b.start || a.summary.localeCompare(b.summary));
const sorted = <T extends { start: number; end: number; summary: string }>(rows: T[]) => inner([...rows]).sort((a, b) => a.start - b.start || a.summary.localeCompare(b.summary));

describe('a schedule’s feed', () => {
  let url: string;
  beforeAll(async () => {
    url = await rotate(`/schedules/${schedule}`);
  });

  it('holds what window_events holds, one VEVENT per person per shift, with the cover naming whom they cover for', async () => {
    const { events } = await readFeed(url);
    expect(withoutUid(events)).toEqual(sorted(await expected(schedule, 'Payments')));
    expect(events.length).toBeGreaterThan(10);
    expect(events.some((e) => e.description === `Covering for ${names.get(ben.id)}, who is away.` && e.summary.endsWith(names.get(cat)!))).toBe(true);
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
  });

  it('is the same text with the same UIDs on a refresh; If-None-Match with its ETag is 304', async () => {
    const first = await readFeed(url);
    const second = await readFeed(url);
    expect(second.text).toBe(first.text);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await request('GET', feedPath(url), { headers: { 'if-none-match': first.etag } });
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await request('GET', feedPath(url), { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('is shown once: the schedule never shows the URL, and a rotation kills the old one', async () => {
    const shown = await acme.api('GET', `/schedules/${schedule}`);
    expect(JSON.stringify(shown.body)).not.toContain('/ical/');
    const next = await rotate(`/schedules/${schedule}`);
    expect(next).not.toBe(url);
    const old = await request('GET', feedPath(url));
    expect([old.status, errorMessages(old)]).toEqual([404, ['Calendar feed not found']]);
    expect((await readFeed(next)).events.length).toBeGreaterThan(0);
    url = next;
  });

  it('takes admins to rotate; a token that opens nothing is 404', async () => {
    const refused = await ben.api('POST', `/schedules/${schedule}/ical_token`);
    expect(refused.status).toBe(403);
    expect((await acme.api('POST', '/schedules/sch_abcdefghijkl/ical_token')).status).toBe(404);
    for (const path of ['/ical/nothing.ics', `/ical/${'a'.repeat(43)}.ics`, `/ical/${'a'.repeat(43)}`]) {
      expect((await request('GET', path)).status).toBe(404);
    }
  });
});

describe('a busy schedule’s feed', () => {
  it('holds at most 5,000 shifts, the ones from now on, in time order', async () => {
    const busy = (await acme.api('POST', '/schedules', { name: 'Busy' })).body.id;
    const start = Math.floor((Date.now() - 20 * DAY) / HOUR) * HOUR;
    for (let i = 0; i < 3; i++) {
      const reply = await acme.api('POST', '/events', {
        start_time: isoSeconds(start), end_time: isoSeconds(start + HOUR), time_zone: 'UTC', layer: 1 + i,
        repeat: true, frequency: 1, frequency_unit: 'hourly', account_user_ids: [ann], schedule_ids: [busy],
      });
      expect(reply.status, reply.text).toBe(201);
    }
    // 104 days of three hourly events is 7,488 shifts.
    const { events } = await readFeed(await rotate(`/schedules/${busy}`));
    // At most 5,000, cut between two hours: 1,666 hours of three shifts.
    expect(events).toHaveLength(4_998);
    const now = Date.now();
    expect(events.every((e) => e.end > now - 60_000)).toBe(true);
    expect(events[0]!.start).toBeLessThanOrEqual(now);
  });
});

describe('a person’s feed', () => {
  it('holds all their shifts across schedules, and not the week they are away', async () => {
    const url = await rotate(`/account_users/${ben.id}`, ben.key);
    const { events } = await readFeed(url);
    const want = [...(await expected(schedule, 'Payments', ben.id)), ...(await expected(other, 'Database, core; "night"', ben.id))];
    expect(withoutUid(events)).toEqual(sorted(want));
    expect(events.some((e) => e.summary.startsWith('On call: Database, core; "night" · layer 2 · '))).toBe(true);
  });

  it('gives the cover the same UID in their feed as in the schedule’s', async () => {
    const cats = await readFeed(await rotate(`/account_users/${cat}`));
    const schedules = await readFeed(await rotate(`/schedules/${schedule}`));
    const covering = cats.events.filter((e) => e.description !== null);
    expect(covering.length).toBe(1);
    expect(schedules.events.find((e) => e.uid === covering[0]!.uid)?.summary).toBe(covering[0]!.summary);
  });

  it('lets a member rotate only their own', async () => {
    const refused = await ben.api('POST', `/account_users/${cat}/ical_token`);
    expect([refused.status, errorMessages(refused)]).toEqual([403, ['Only the person or an account admin can rotate their calendar feed']]);
    expect((await acme.api('POST', '/account_users/usr_abcdefghijkl/ical_token')).status).toBe(404);
  });
});
