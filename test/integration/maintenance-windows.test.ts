// Maintenance windows through the gateway: zone-aware datetimes, computed `active`, integrations that exist.
import { beforeAll, describe, expect, it } from 'vitest';
import { errorMessages, newAccount, request, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;
let grafana: { id: string; prefix_id: string };
let prometheus: { id: string; prefix_id: string };

const HOUR = 3_600_000;
const isoAt = (ms: number) => new Date(ms).toISOString();

async function integrationOf(account: TestAccount, name: string) {
  const reply = await account.api('POST', '/integrations', { name, account_user_ids: [account.adminAccountUserId] });
  if (reply.status !== 201) throw new Error(`integration: ${reply.status} ${reply.text}`);
  return reply.body as { id: string; prefix_id: string };
}

beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Windows'), newAccount('Other')]);
  [grafana, prometheus] = [await integrationOf(acme, 'Grafana'), await integrationOf(acme, 'Prometheus')];
});

const future = { start_datetime: '2030-07-01 22:00', end_datetime: '2030-07-02T02:00:00', time_zone: 'Berlin' };

describe('create', () => {
  it('reads offset-less datetimes as wall clock in time_zone and returns them with the offset', async () => {
    const reply = await acme.api('POST', '/maintenance_windows', {
      name: 'Database upgrade',
      description: 'Primary failover',
      ...future,
      integration_ids: [grafana.prefix_id, prometheus.id, grafana.id],
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^mw_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      name: 'Database upgrade',
      description: 'Primary failover',
      start_datetime: '2030-07-01T22:00:00+02:00',
      end_datetime: '2030-07-02T02:00:00+02:00',
      time_zone: 'Berlin',
      integration_ids: [grafana.id, prometheus.id],
      active: false,
      meta: {},
      created_at: expect.any(String),
      updated_at: reply.body.created_at,
    });
  });

  it('takes datetimes with an offset as instants and shows them in the window zone; IANA ids work', async () => {
    const reply = await acme.api('POST', '/maintenance_windows', {
      name: 'Tokyo',
      start_datetime: '2030-01-15T00:00:00Z',
      end_datetime: '2030-01-15T12:30:00+09:00',
      time_zone: 'Asia/Tokyo',
      integration_ids: [grafana.id],
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      start_datetime: '2030-01-15T09:00:00+09:00',
      end_datetime: '2030-01-15T12:30:00+09:00',
      time_zone: 'Asia/Tokyo',
      description: null,
    });
  });

  it('computes active at read time (start ≤ now < end)', async () => {
    const now = Date.now();
    const current = await acme.api('POST', '/maintenance_windows', {
      name: 'Happening now',
      start_datetime: isoAt(now - HOUR),
      end_datetime: isoAt(now + HOUR),
      time_zone: 'UTC',
      integration_ids: [prometheus.id],
    });
    expect(current.status).toBe(201);
    expect(current.body.active).toBe(true);
    expect((await acme.api('GET', `/maintenance_windows/${current.body.id}`)).body.active).toBe(true);
    const soon = await acme.api('POST', '/maintenance_windows', {
      name: 'Starts soon',
      start_datetime: isoAt(now + HOUR),
      end_datetime: isoAt(now + 2 * HOUR),
      time_zone: 'UTC',
      integration_ids: [prometheus.id],
    });
    expect(soon.body.active).toBe(false);
    const active = (await acme.api('GET', '/maintenance_windows?active=true&limit=100')).body.data.map((w: { name: string }) => w.name);
    expect(active).toEqual(['Happening now']);
  });

  it('422 naming each missing parameter', async () => {
    const reply = await acme.api('POST', '/maintenance_windows', {});
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([
      'name is required',
      'start_datetime is required',
      'end_datetime is required',
      'time_zone is required',
      'integration_ids is required',
    ]);
    const empty = await acme.api('POST', '/maintenance_windows', { name: 'w', ...future, integration_ids: [] });
    expect(errorMessages(empty)).toEqual(['integration_ids must name at least one integration']);
  });

  it('422 for unknown zones, unreadable or impossible datetimes, and unknown integrations', async () => {
    const zone = await acme.api('POST', '/maintenance_windows', { name: 'w', ...future, time_zone: 'Mars/Olympus', integration_ids: [grafana.id] });
    expect(errorMessages(zone)).toEqual(['time_zone must be one of the names GET /events/time_zones lists or an IANA time zone id; got "Mars/Olympus"']);
    const unreadable = await acme.api('POST', '/maintenance_windows', { name: 'w', ...future, start_datetime: 'tonight', integration_ids: [grafana.id] });
    expect(errorMessages(unreadable)).toEqual([
      'start_datetime must be an ISO 8601 datetime such as 2025-06-01T22:00:00 (wall clock in time_zone) or 2025-06-01T20:00:00Z',
    ]);
    const gap = await acme.api('POST', '/maintenance_windows', { name: 'w', ...future, start_datetime: '2030-03-31 02:30', end_datetime: '2030-03-31 05:00', integration_ids: [grafana.id] });
    expect(errorMessages(gap)).toEqual(['start_datetime 2030-03-31 02:30 does not exist in Europe/Berlin: the clocks skip it when daylight saving time starts']);
    const backwards = await acme.api('POST', '/maintenance_windows', { name: 'w', ...future, end_datetime: '2030-07-01T22:00:00+02:00', integration_ids: [grafana.id] });
    expect(errorMessages(backwards)).toEqual(['end_datetime must be after start_datetime']);
    const past = await acme.api('POST', '/maintenance_windows', { name: 'w', start_datetime: '2020-01-01', end_datetime: '2020-01-02', time_zone: 'UTC', integration_ids: [grafana.id] });
    expect(errorMessages(past)).toEqual(['end_datetime must be in the future: a window that has ended never silences anything']);
    const theirs = await integrationOf(globex, 'Theirs');
    const unknown = await acme.api('POST', '/maintenance_windows', { name: 'w', ...future, integration_ids: [theirs.id, 'int_abcdefghijkl', grafana.id] });
    expect(errorMessages(unknown)).toEqual([`integration_ids contains unknown integration ${theirs.id}`, 'integration_ids contains unknown integration int_abcdefghijkl']);
    expect((await acme.api('GET', '/maintenance_windows?name=w')).body.total_count).toBe(0);
  });
});

describe('update and delete', () => {
  it('PUT changes only what it is given; offset-less times use the zone of the request or the stored one', async () => {
    const w = (await acme.api('POST', '/maintenance_windows', { name: 'Editable', ...future, integration_ids: [grafana.id] })).body;
    const renamed = await acme.api('PUT', `/maintenance_windows/${w.prefix_id}`, { name: 'Edited', description: 'now with notes' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Edited', description: 'now with notes', start_datetime: w.start_datetime, end_datetime: w.end_datetime, time_zone: 'Berlin' });

    const later = await acme.api('PUT', `/maintenance_windows/${w.id}`, { end_datetime: '2030-07-02 04:00' });
    expect(later.body.end_datetime).toBe('2030-07-02T04:00:00+02:00');

    const rezoned = await acme.api('PUT', `/maintenance_windows/${w.id}`, { time_zone: 'London' });
    expect(rezoned.body).toMatchObject({ time_zone: 'London', start_datetime: '2030-07-01T21:00:00+01:00', end_datetime: '2030-07-02T03:00:00+01:00' });

    const both = await acme.api('PUT', `/maintenance_windows/${w.id}`, { time_zone: 'Eastern Time (US & Canada)', start_datetime: '2030-07-01 20:00' });
    expect(both.body).toMatchObject({ start_datetime: '2030-07-01T20:00:00-04:00', end_datetime: '2030-07-01T22:00:00-04:00' });

    const swap = await acme.api('PUT', `/maintenance_windows/${w.id}`, { integration_ids: [prometheus.prefix_id] });
    expect(swap.body.integration_ids).toEqual([prometheus.id]);

    expect(errorMessages(await acme.api('PUT', `/maintenance_windows/${w.id}`, { start_datetime: '2030-07-03T00:00:00Z' }))).toEqual([
      'end_datetime must be after start_datetime',
    ]);
    expect(errorMessages(await acme.api('PUT', `/maintenance_windows/${w.id}`, { integration_ids: [] }))).toEqual(['integration_ids must name at least one integration']);
    expect(errorMessages(await acme.api('PUT', `/maintenance_windows/${w.id}`, { time_zone: 'Atlantis' }))).toEqual([
      'time_zone must be one of the names GET /events/time_zones lists or an IANA time zone id; got "Atlantis"',
    ]);
    expect((await acme.api('GET', `/maintenance_windows/${w.id}`)).body).toMatchObject({ name: 'Edited', time_zone: 'Eastern Time (US & Canada)', integration_ids: [prometheus.id] });

    expect((await acme.api('DELETE', `/maintenance_windows/${w.prefix_id}`)).status).toBe(204);
    expect((await acme.api('GET', `/maintenance_windows/${w.id}`)).status).toBe(404);
    expect((await acme.api('DELETE', `/maintenance_windows/${w.id}`)).status).toBe(404);
  });

  it('404 for unknown ids in every form', async () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'mw_abcdefghijkl', 'int_abcdefghijkl', 'nonsense']) {
      for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
        const reply = await acme.api(method, `/maintenance_windows/${id}`, body);
        expect(reply.status).toBe(404);
        expect(errorMessages(reply)).toEqual(['Maintenance window not found']);
      }
    }
  });

  it("404 for another account's window, which is never listed", async () => {
    const mine = (await acme.api('POST', '/maintenance_windows', { name: 'Acme only', ...future, integration_ids: [grafana.id] })).body;
    for (const id of [mine.id, mine.prefix_id]) {
      expect((await globex.api('GET', `/maintenance_windows/${id}`)).status).toBe(404);
      expect((await globex.api('PUT', `/maintenance_windows/${id}`, { name: 'hijack' })).status).toBe(404);
      expect((await globex.api('DELETE', `/maintenance_windows/${id}`)).status).toBe(404);
    }
    expect((await globex.api('GET', '/maintenance_windows?limit=100')).body.data.map((w: { id: string }) => w.id)).not.toContain(mine.id);
  });
});

describe('lists', () => {
  it('filters on its own attributes', async () => {
    const fresh = await newAccount('Window lists');
    const a = await integrationOf(fresh, 'A');
    const b = await integrationOf(fresh, 'B');
    await fresh.api('POST', '/maintenance_windows', { name: 'Alpha', ...future, integration_ids: [a.id] });
    await fresh.api('POST', '/maintenance_windows', { name: 'Bravo', start_datetime: '2031-01-01T00:00:00Z', end_datetime: '2031-01-02T00:00:00Z', time_zone: 'UTC', integration_ids: [a.id, b.id] });
    await fresh.api('POST', '/maintenance_windows', { name: 'Charlie', description: 'kernel patching', start_datetime: '2032-05-01 01:00', end_datetime: '2032-05-01 03:00', time_zone: 'America/Chicago', integration_ids: [b.id] });
    const names = async (qs: string) => (await fresh.api('GET', `/maintenance_windows${qs}`)).body.data.map((w: { name: string }) => w.name).sort();
    expect((await fresh.api('GET', '/maintenance_windows')).body).toMatchObject({ total_count: 3, has_more: false });
    expect(await names(`?integration_ids=${b.id}&ops=integration_ids:contains`)).toEqual(['Bravo', 'Charlie']);
    expect(await names('?time_zone=UTC')).toEqual(['Bravo']);
    expect(await names('?start_datetime=2031-01-01T00:00:00Z&ops=start_datetime:gte')).toEqual(['Bravo', 'Charlie']);
    expect(await names('?start_datetime=2030-07-01T20:00:00Z')).toEqual(['Alpha']);
    expect(await names('?active=false')).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(await names('?q=KERNEL')).toEqual(['Charlie']);
    expect((await fresh.api('GET', '/maintenance_windows?sort=start_datetime&direction=desc&limit=1')).body.data[0].name).toBe('Charlie');
  });
});

describe('roles', () => {
  it('lets a member read but answers 403 on changes', async () => {
    const member = await createMemberKey(acme);
    const w = (await acme.api('POST', '/maintenance_windows', { name: 'Guarded', ...future, integration_ids: [grafana.id] })).body;
    expect((await request('GET', `/api/v4/maintenance_windows/${w.id}`, { key: member })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v4/maintenance_windows', { name: 'Nope', ...future, integration_ids: [grafana.id] }],
      ['PUT', `/api/v4/maintenance_windows/${w.id}`, { name: 'Nope' }],
      ['DELETE', `/api/v4/maintenance_windows/${w.id}`, undefined],
    ] as const) {
      const reply = await request(method, path, { key: member, body });
      expect(reply.status).toBe(403);
      expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
    }
  });
});
