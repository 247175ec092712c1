// Gaps through the gateway: GET /schedules/:id/gaps (docs/schedules.md, "Gaps"), and the daily check that emails a
// team's admins once per gap. The check runs on a stack of this file's own with HARK_TIME_SCALE=3600, so a day
// between checks is 24 seconds.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryPrefix } from '#lib/db/items.ts';
import { scheduleCheckPk } from '#lib/db/keys.ts';
import type { TimerItem } from '#lib/timers/index.ts';
import { errorMessages, isoSeconds, newAccount, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let stack: OwnStack;
let acme: TestAccount;

beforeAll(async () => {
  process.env.HARK_TIME_SCALE = '3600';
  stack = await startOwnStack('gaps', {});
  acme = await newAccount('Gaps', stack);
});

afterAll(async () => {
  await stack?.stop();
  delete process.env.HARK_TIME_SCALE;
});

/** Next Tuesday 20:00 UTC, at least an hour from now (within the next 7 days). */
function nextTuesdayNight(now: number): number {
  const d = new Date(now);
  let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 20);
  while (new Date(t).getUTCDay() !== 2 || t < now + HOUR) t += DAY;
  return t;
}

async function event(scheduleId: string, startMs: number, endMs: number, layer = 1) {
  const reply = await acme.api('POST', '/events', {
    start_time: isoSeconds(startMs),
    end_time: isoSeconds(endMs),
    time_zone: 'UTC',
    layer,
    account_user_ids: [acme.adminAccountUserId],
    schedule_ids: [scheduleId],
  });
  expect(reply.status, reply.text).toBe(201);
}

const firedChecks = async (scheduleId: string) =>
  (await queryPrefix<TimerItem>(scheduleCheckPk(acme.accountId, scheduleId), 'TIMER#')).filter((t) => t.state === 'fired').length;
const gapMails = async (scheduleName: string) =>
  ((await acme.api('GET', '/outbox?template=schedule_gap&limit=100')).body.data as { subject: string; body: string; account_user_id: string; to: string }[]).filter((m) =>
    m.subject.includes(scheduleName),
  );

describe('GET /schedules/:id/gaps', () => {
  it('lists each layer’s times with nobody on call, cut to the window', async () => {
    const schedule = (await acme.api('POST', '/schedules', { name: 'Gapped' })).body.id;
    const from = Date.UTC(2030, 0, 7);
    await event(schedule, from, from + 8 * HOUR);
    await event(schedule, from + 12 * HOUR, from + DAY);
    await event(schedule, from, from + DAY, 2);
    const reply = await acme.api('GET', `/schedules/${schedule}/gaps?start=2030-01-06%2000:00:00&end=2030-01-08%2006:00:00`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({
      data: [
        { layer: 1, start_time: '2030-01-06T00:00:00+00:00', end_time: '2030-01-07T00:00:00+00:00' },
        { layer: 1, start_time: '2030-01-07T08:00:00+00:00', end_time: '2030-01-07T12:00:00+00:00' },
        { layer: 1, start_time: '2030-01-08T00:00:00+00:00', end_time: '2030-01-08T06:00:00+00:00' },
        { layer: 2, start_time: '2030-01-06T00:00:00+00:00', end_time: '2030-01-07T00:00:00+00:00' },
        { layer: 2, start_time: '2030-01-08T00:00:00+00:00', end_time: '2030-01-08T06:00:00+00:00' },
      ],
    });
  });

  it('refuses a window over a year, or without its bounds, with a 422 naming them', async () => {
    const schedule = (await acme.api('POST', '/schedules', { name: 'Bounds' })).body.id;
    expect(errorMessages(await acme.api('GET', `/schedules/${schedule}/gaps?start=2030-01-01%2000:00:00&end=2031-01-03%2000:00:00`))).toEqual([
      'end must be at most 366 days after start',
    ]);
    expect(errorMessages(await acme.api('GET', `/schedules/${schedule}/gaps`))[0]).toMatch(/^start is required/);
    expect((await acme.api('GET', '/schedules/sch_abcdefghijkl/gaps?start=2030-01-01&end=2030-01-02')).status).toBe(404);
  });
});

describe('the daily gap check', { timeout: 120_000 }, () => {
  it('emails the team’s admins once about a hole next Tuesday night, and nothing once it is filled or when the team opts out', async () => {
    const now = Date.now();
    const hole = nextTuesdayNight(now);
    const payments = (await acme.api('POST', '/teams', { name: 'Payments', admin_account_user_ids: [acme.adminAccountUserId] })).body;
    expect(payments.notify_schedule_gaps).toBe(true);
    const quiet = (await acme.api('POST', '/teams', { name: 'Quiet', admin_account_user_ids: [acme.adminAccountUserId], notify_schedule_gaps: false })).body;
    expect(quiet.notify_schedule_gaps).toBe(false);
    for (const team of [payments, quiet]) {
      // The later shift first: the first check runs at once and sees only a hole that starts now, which is not told.
      await event(team.schedule_id, hole + 10 * HOUR, now + 30 * DAY);
      await event(team.schedule_id, now - HOUR, hole);
    }
    await vi.waitFor(async () => expect(await gapMails('Payments Schedule')).toHaveLength(1), { timeout: 60_000, interval: 500 });
    const [mail] = await gapMails('Payments Schedule');
    expect(mail!.account_user_id).toBe(acme.adminAccountUserId);
    const day = new Date(hole).toUTCString().slice(0, 3);
    expect(mail!.body).toContain(`- layer 1: nobody on call from ${day} `);
    expect(mail!.body).toContain('20:00 UTC');
    expect(mail!.body).toContain('(10 hours)');

    // Filled: the next check finds nothing new to tell.
    await event(payments.schedule_id, hole, hole + 10 * HOUR);
    const checks = await firedChecks(payments.schedule_id);
    await vi.waitFor(async () => expect(await firedChecks(payments.schedule_id)).toBeGreaterThan(checks), { timeout: 60_000, interval: 500 });
    expect(await gapMails('Payments Schedule')).toHaveLength(1);
    expect((await acme.api('GET', `/schedules/${payments.schedule_id}/gaps?start=${encodeURIComponent(isoSeconds(now))}&end=${encodeURIComponent(isoSeconds(now + 7 * DAY))}`)).body.data).toEqual([]);
    // The team that turned notices off heard nothing, though its schedule was checked too (its own timer, which may
    // fire a moment after the other's).
    await vi.waitFor(async () => expect(await firedChecks(quiet.schedule_id)).toBeGreaterThan(1), { timeout: 60_000, interval: 500 });
    expect(await gapMails('Quiet Schedule')).toEqual([]);
  });
});
