// An API create's thirdparty_id (read and indexed as a webhook's Id: docs/alerts.md, "Create") and the tags every
// rendered alert shows beside tag_list, through the gateway.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAlertFrom } from '../../lib/alerts/create.ts';
import { newestAlertOfThirdparty } from '../../lib/alerts/store.ts';
import { MAX_ALERT_KEY_LENGTH } from '../../lib/limits.ts';
import { errorMessages, newAccount, useTestStack, type TestAccount } from './helpers.ts';

let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alert identities');
});

const create = (body: Record<string, unknown>) =>
  acme.api('POST', '/alerts', { title: 'Disk full', urgency: 'high', destination_account_user_ids: [acme.adminAccountUserId], ...body });

async function listed(query: string) {
  const reply = await acme.api('GET', `/alerts?${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { data: Record<string, any>[]; total_count: number };
}

describe('POST /alerts with thirdparty_id', () => {
  it('stores the identity as a webhook Id is read (trimmed, a number as its text, blank as none) and lists it newest first', async () => {
    const first = await create({ thirdparty_id: '  ext-1 ' });
    expect(first.status, first.text).toBe(201);
    expect(first.body.thirdparty_id).toBe('ext-1');
    const second = await create({ thirdparty_id: 'ext-1', title: 'Disk full again' });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id); // a label, not a key: each create stores an alert
    expect((await create({ thirdparty_id: 42 })).body.thirdparty_id).toBe('42');
    expect((await create({ thirdparty_id: '   ' })).body.thirdparty_id).toBeNull();
    expect((await create({ thirdparty_id: null })).body.thirdparty_id).toBeNull();
    expect((await create({ thirdparty_id: 'x'.repeat(MAX_ALERT_KEY_LENGTH) })).status).toBe(201);

    const page = await listed('limit=1&offset=0&thirdparty_id=ext-1');
    expect(page.total_count).toBe(2);
    expect(page.data.map((a) => a.id)).toEqual([second.body.id]);
    expect((await listed('thirdparty_id=42')).data.map((a) => a.thirdparty_id)).toEqual(['42']);
    // With another filter the thirdparty index is read whole and filtered (the CLI's `reject --alias`).
    await acme.api('POST', `/alerts/${second.body.id}/resolve`);
    expect((await listed('limit=1&offset=0&status=open&thirdparty_id=ext-1')).data.map((a) => a.id)).toEqual([first.body.id]);
  });

  it('422 past 1,024 characters or for another type, writing nothing', async () => {
    const before = (await listed('limit=1')).total_count;
    const long = await create({ thirdparty_id: 'x'.repeat(MAX_ALERT_KEY_LENGTH + 1) });
    expect(long.status).toBe(422);
    expect(errorMessages(long)).toEqual([`thirdparty_id is longer than ${MAX_ALERT_KEY_LENGTH} characters`]);
    for (const value of [true, { id: 'x' }, ['x']]) {
      const reply = await create({ thirdparty_id: value });
      expect(reply.status).toBe(422);
      expect(errorMessages(reply)).toEqual(['thirdparty_id must be a string']);
    }
    expect((await listed('limit=1')).total_count).toBe(before);
  });

  it('is indexed as an integration’s identity: listed with the integration’s alerts of the same Id, never found by the integration’s own lookups', async () => {
    const api = await create({ thirdparty_id: 'shared-7' });
    expect(api.status).toBe(201);
    const integrationId = '01JINTEGRATION0000000000ZZ';
    expect(await newestAlertOfThirdparty(acme.accountId, integrationId, 'shared-7')).toBeUndefined();
    const fromWebhook = await createAlertFrom(
      acme.accountId,
      { source_type: 'Integration', source_id: integrationId, source_log_id: null, thirdparty_id: 'shared-7' },
      { title: 'From a monitor', urgency: 'low', destination_team_ids: [], destination_router_ids: [], destination_account_user_ids: [] },
    );
    expect(fromWebhook.outcome).toBe('created');
    expect((await newestAlertOfThirdparty(acme.accountId, integrationId, 'shared-7'))?.id).toBe(fromWebhook.alert.id);
    const both = await listed('thirdparty_id=shared-7');
    expect(both.data.map((a) => [a.id, a.source_type])).toEqual([
      [fromWebhook.alert.id, 'Integration'],
      [api.body.id, 'AccountUser'],
    ]);
    expect(both.total_count).toBe(2);
    // PUT does not change the identity.
    const put = await acme.api('PUT', `/alerts/${api.body.id}`, { thirdparty_id: 'other', title: 'Renamed' });
    expect(put.body).toMatchObject({ title: 'Renamed', thirdparty_id: 'shared-7' });
  });
});

describe('tags beside tag_list', () => {
  it('every rendered alert shows the same list under both names: create, read, list, update, actions', async () => {
    const made = await create({ tags: ['db', 'prod', 'db'] });
    expect(made.body).toMatchObject({ tag_list: ['db', 'prod'], tags: ['db', 'prod'] });
    expect((await acme.api('GET', `/alerts/${made.body.id}`)).body.tags).toEqual(['db', 'prod']);
    const row = (await listed('limit=100')).data.find((a) => a.id === made.body.id)!;
    expect([row.tag_list, row.tags]).toEqual([['db', 'prod'], ['db', 'prod']]);
    // A filter on tags works as on tag_list.
    expect((await listed('tags=prod&ops=tags:contains&limit=100')).data.map((a) => a.id)).toContain(made.body.id);
    const updated = await acme.api('PUT', `/alerts/${made.body.id}`, { tag_list: ['net'] });
    expect(updated.body).toMatchObject({ tag_list: ['net'], tags: ['net'] });
    expect((await acme.api('POST', `/alerts/${made.body.id}/acknowledge`)).body.tags).toEqual(['net']);
  });
});
