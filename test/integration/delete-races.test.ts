// A delete is not starved by updates (docs/storage.md, "Concurrency and idempotency"): a DELETE racing with a
// stream of concurrent PUTs on the same object succeeds in every round, and the object is gone afterwards.
// The same holds for flush, whose intent (this schedule's id leaves every event) does not depend on the
// events' other fields.
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type Reply, type TestAccount } from './helpers.ts';

const ROUNDS = 5;
const WRITERS = 4;

let acme: TestAccount;

beforeAll(async () => {
  acme = await newAccount('Delete races');
});

/**
 * Starts WRITERS loops of PUTs on `path` (each waits for its answer, then sends the next) and resolves once
 * every loop has had at least one PUT answered, so the delete races with writes under way. `stop()` ends the
 * loops and returns the statuses they saw.
 */
async function putStream(path: string, body: (n: number) => unknown) {
  let running = true;
  let sent = 0;
  const statuses: number[] = [];
  let started!: () => void;
  const allStarted = new Promise<void>((resolve) => (started = resolve));
  let startedCount = 0;
  const loops = Array.from({ length: WRITERS }, async () => {
    let first = true;
    while (running) {
      const reply: Reply = await acme.api('PUT', path, body(sent++));
      statuses.push(reply.status);
      if (first) {
        first = false;
        if (++startedCount === WRITERS) started();
      }
      if (reply.status === 404) break;
    }
  });
  await allStarted;
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

const groups: { name: string; path: string; create: () => Promise<Reply>; update: (n: number) => unknown }[] = [
  { name: 'schedules', path: '/schedules', create: () => acme.api('POST', '/schedules', { name: 'Racing' }), update: (n) => ({ name: `Racing ${n}` }) },
  {
    name: 'escalation_policies',
    path: '/escalation_policies',
    create: () => acme.api('POST', '/escalation_policies', { name: 'Racing' }),
    update: (n) => ({ name: `Racing ${n}` }),
  },
  {
    name: 'notification_rules',
    path: '/notification_rules',
    create: () => acme.api('POST', '/notification_rules', { name: 'Racing' }),
    update: (n) => ({ name: `Racing ${n}` }),
  },
];

describe.each(groups)('DELETE /$name/:id racing with PUTs', ({ path, create, update }) => {
  it(`succeeds in each of ${ROUNDS} rounds, and the object is gone`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await create();
      expect(created.status).toBe(201);
      const url = `${path}/${created.body.id}`;
      const stream = await putStream(url, update);
      const deleted = await acme.api('DELETE', url);
      const statuses = await stream.stop();
      expect({ round, status: deleted.status, body: deleted.body }).toEqual({ round, status: 204, body: undefined });
      expect((await acme.api('GET', url)).status).toBe(404);
      // The PUTs were real writes racing with the delete: each answered 200 until the object was gone.
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(WRITERS);
      expect(statuses.every((s) => s === 200 || s === 404 || s === 409)).toBe(true);
    }
  });
});

describe('DELETE /events/:id racing with PUTs', () => {
  it(`succeeds in each of ${ROUNDS} rounds`, async () => {
    const scheduleId = (await acme.api('POST', '/schedules', { name: 'Event races' })).body.id;
    for (let round = 0; round < ROUNDS; round++) {
      const created = await acme.api('POST', '/events', {
        start_time: '2030-01-15T09:00:00',
        end_time: '2030-01-15T17:00:00',
        layer: 1,
        time_zone: 'UTC',
        schedule_ids: [scheduleId],
        account_user_ids: [acme.adminAccountUserId],
      });
      expect(created.status).toBe(201);
      const url = `/events/${created.body.id}`;
      const stream = await putStream(url, (n) => ({ meta: { n } }));
      const deleted = await acme.api('DELETE', url);
      await stream.stop();
      expect({ round, status: deleted.status }).toEqual({ round, status: 204 });
      expect((await acme.api('GET', url)).status).toBe(404);
    }
  });
});

describe('DELETE /schedules/:id/flush racing with PUTs of its events', () => {
  it(`takes every event out of the schedule in each of ${ROUNDS} rounds`, async () => {
    const keep = (await acme.api('POST', '/schedules', { name: 'Kept' })).body.id;
    for (let round = 0; round < ROUNDS; round++) {
      const flushed = (await acme.api('POST', '/schedules', { name: `Flushed ${round}` })).body.id;
      const event = (
        await acme.api('POST', '/events', {
          start_time: '2030-01-15T09:00:00',
          end_time: '2030-01-15T17:00:00',
          layer: 1,
          time_zone: 'UTC',
          schedule_ids: [flushed, keep],
          account_user_ids: [acme.adminAccountUserId],
        })
      ).body;
      const url = `/events/${event.id}`;
      const stream = await putStream(url, (n) => ({ meta: { n } }));
      const flush = await acme.api('DELETE', `/schedules/${flushed}/flush`);
      await stream.stop();
      expect({ round, status: flush.status }).toEqual({ round, status: 204 });
      expect((await acme.api('GET', url)).body.schedule_ids).toEqual([keep]);
    }
  });
});
