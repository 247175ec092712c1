// Dedup keys through the gateway: a create sharing a key with a non-resolved alert answers 200 with that alert
// (dedup_count + 1, a `deduplicated` log entry, nobody paged, nothing stored); concurrent creates with one key
// store one alert; a resolved or deleted alert's key is taken by the next create. Rules: docs/alerts.md, "Dedup keys".
import { beforeAll, describe, expect, it } from 'vitest';
import { createAlertFrom } from '../../lib/alerts/create.ts';
import { addAccountUser, newAccount, useTestStack, type AccountUserRef, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let bob: AccountUserRef;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alert dedup');
  bob = await addAccountUser(acme);
});

const create = (dedupKeys: string[], title = 'Disk full') =>
  acme.api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: [bob.id], dedup_keys: dedupKeys });
const logsOf = async (id: string) => (await acme.api('GET', `/alerts/${id}/logs?limit=100`)).body.data as { event: string; message: string }[];
const notificationCount = async (id: string) => (await acme.api('GET', `/alerts/${id}/notifications`)).body.total_count as number;
const alertCount = async () => (await acme.api('GET', '/alerts?limit=1')).body.total_count as number;

describe('dedup keys', () => {
  it('a create sharing a key with an open alert answers 200 with that alert, counted, and pages nobody', async () => {
    const first = await create(['disk-db1']);
    expect(first.status, first.text).toBe(201);
    expect(first.body.dedup_count).toBe(0);
    const pages = await notificationCount(first.body.id);
    const total = await alertCount();

    const second = await create(['other-key', 'disk-db1'], 'Disk full again');
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, title: 'Disk full', dedup_count: 1, status: 'open' });
    expect(await alertCount()).toBe(total);
    expect(await notificationCount(first.body.id)).toBe(pages);
    const deduplicated = (await logsOf(first.body.id)).filter((l) => l.event === 'deduplicated');
    expect(deduplicated.map((l) => l.message)).toEqual([`A new alert from account user ${acme.adminAccountUserId} shares the dedup key "disk-db1" with this alert: dedup_count + 1, nobody is paged.`]);

    // Acknowledged still takes duplicates.
    expect((await acme.api('POST', `/alerts/${first.body.id}/acknowledge`)).status).toBe(200);
    expect((await create(['disk-db1'])).body).toMatchObject({ id: first.body.id, dedup_count: 2, status: 'acknowledged' });
  });

  it('concurrent creates with one new key store one alert; the others fold into it', async () => {
    const replies = await Promise.all([1, 2, 3, 4].map(() => create(['race-key'])));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    const id = replies.find((r) => r.status === 201)!.body.id;
    expect(new Set(replies.map((r) => r.body.id))).toEqual(new Set([id]));
    expect((await acme.api('GET', `/alerts/${id}`)).body.dedup_count).toBe(3);
    expect((await acme.api('GET', '/alerts?q=Disk&limit=100')).body.data.filter((a: { dedup_keys: string[] }) => a.dedup_keys.includes('race-key'))).toHaveLength(1);
  });

  it('a resolved alert no longer takes duplicates: the next create is a new alert, which takes the key over', async () => {
    const first = (await create(['cpu-web'])).body;
    expect((await acme.api('POST', `/alerts/${first.id}/resolve`)).status).toBe(200);
    const second = await create(['cpu-web']);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.id);
    const third = await create(['cpu-web']);
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ id: second.body.id, dedup_count: 1 });
    expect((await acme.api('GET', `/alerts/${first.id}`)).body.dedup_count).toBe(0);
  });

  it('a deleted alert releases its keys', async () => {
    const first = (await create(['mem-api'])).body;
    expect((await acme.api('DELETE', `/alerts/${first.id}`)).status).toBe(204);
    const second = await create(['mem-api']);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.id);
  });

  it('a PUT claims the keys it adds (when free) and releases the keys it removes', async () => {
    const first = (await create([])).body;
    const held = (await create(['held-key'])).body;
    const put = await acme.api('PUT', `/alerts/${first.id}`, { dedup_keys: ['put-key', 'held-key'] });
    expect(put.status, put.text).toBe(200);
    expect((await create(['put-key'])).body).toMatchObject({ id: first.id, dedup_count: 1 });
    // A key another open alert holds stays that alert's.
    expect((await create(['held-key'])).body).toMatchObject({ id: held.id, dedup_count: 1 });
    expect((await acme.api('PUT', `/alerts/${first.id}`, { dedup_keys: [] })).status).toBe(200);
    const after = await create(['put-key']);
    expect(after.status).toBe(201);
    expect(after.body.id).not.toBe(first.id);
  });

  it('an integration create folds in too (outcome deduplicated)', async () => {
    const first = (await create(['int-key'])).body;
    const { alert, outcome } = await createAlertFrom(
      acme.accountId,
      { source_type: 'Integration', source_id: 'int_x', source_log_id: null, thirdparty_id: 'ext-9' },
      { title: 'From a webhook', urgency: 'low', dedup_keys: ['int-key'], destination_team_ids: [], destination_router_ids: [], destination_account_user_ids: [bob.id] },
    );
    expect(outcome).toBe('deduplicated');
    expect(alert.id).toBe(first.id);
    expect(alert.data.dedup_count).toBe(1);
    expect((await logsOf(first.id)).some((l) => l.event === 'deduplicated' && l.message.startsWith('A new alert from integration int_x'))).toBe(true);
  });
});
