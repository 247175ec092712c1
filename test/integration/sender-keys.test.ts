// Sender keys through the gateway (docs/integrations.md, "Sender keys"): a pagerduty integration gets a generated
// routing_key, shown to admins and never to members, not settable, rotated at once; its lookup item answers the key.
import { beforeAll, describe, expect, it } from 'vitest';
import { findIntegrationBySenderKey, findIntegrationLookup } from '#lib/integrations/lookup.ts';
import { adminAccountUser, errorMessages, newAccount, request, type TestAccount, useTestStack } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let memberKey: string;
let admin: { id: string; prefix_id: string };

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Sender keys');
  admin = await adminAccountUser(acme);
  memberKey = await createMemberKey(acme);
});

const asMember = (method: string, path: string, body?: unknown) => request(method, `/api/v4${path}`, { key: memberKey, body });
const newPagerDuty = async (name = 'From PagerDuty') => {
  const reply = await acme.api('POST', '/integrations', { name, type: 'pagerduty', account_user_ids: [admin.prefix_id] });
  expect(reply.status).toBe(201);
  return reply.body;
};

describe('a pagerduty integration', () => {
  it('gets a 32-character routing_key on create, shown to admins, never to members', async () => {
    const created = await newPagerDuty();
    const key = created.options.routing_key as string;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(created.integration_type.id).toBe('pagerduty');
    expect((await acme.api('GET', `/integrations/${created.prefix_id}`)).body.options.routing_key).toBe(key);
    const mine = await asMember('GET', `/integrations/${created.prefix_id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.options).not.toHaveProperty('routing_key');
    expect(mine.text).not.toContain(key);
    const list = await asMember('GET', `/integrations?integration_type.id=pagerduty`);
    expect(list.body.data.map((i: { id: string }) => i.id)).toContain(created.id);
    expect(list.text).not.toContain(key);
    // A member cannot find it by filtering on the key either.
    const probe = await asMember('GET', `/integrations?options.routing_key=${key}`);
    expect(probe.status, probe.text).toBe(200);
    expect(probe.body.data).toEqual([]);
    expect((await acme.api('GET', `/integrations?options.routing_key=${key}`)).body.data.map((i: { id: string }) => i.id)).toEqual([created.id]);
    expect((await newPagerDuty('Another')).options.routing_key).not.toBe(key);
  });

  it('refuses a routing_key or a token set by a request, and keeps the key across other changes', async () => {
    const created = await newPagerDuty();
    const key = created.options.routing_key as string;
    const set = await acme.api('PUT', `/integrations/${created.id}`, { options: { routing_key: 'f'.repeat(32) } });
    expect(set.status).toBe(422);
    expect(errorMessages(set)).toEqual(['options.routing_key is made by Hark and cannot be set; POST /api/v4/integrations/{id}/rotate_key makes a new one']);
    const token = await acme.api('POST', '/integrations', { name: 'x', type: 'pagerduty', account_user_ids: [admin.prefix_id], options: { token: 'a-long-random-token-0123456789' } });
    expect(token.status).toBe(422);
    expect(errorMessages(token)).toEqual(['options.token is not taken by pagerduty integrations: their senders authenticate with options.routing_key']);
    // The key sent back as read changes nothing.
    const back = await acme.api('PUT', `/integrations/${created.id}`, { name: 'Renamed', options: { routing_key: key } });
    expect(back.status).toBe(200);
    expect(back.body.options.routing_key).toBe(key);
    expect((await findIntegrationBySenderKey(key))?.integrationId).toBe(created.id);
  });

  it('rotates: a new key at once, the old one finds nothing; members may not rotate', async () => {
    const created = await newPagerDuty();
    const old = created.options.routing_key as string;
    expect((await findIntegrationBySenderKey(old))?.integrationId).toBe(created.id);
    expect((await asMember('POST', `/integrations/${created.id}/rotate_key`)).status).toBe(403);
    const rotated = await acme.api('POST', `/integrations/${created.prefix_id}/rotate_key`);
    expect(rotated.status).toBe(200);
    const next = rotated.body.options.routing_key as string;
    expect(next).toMatch(/^[0-9a-f]{32}$/);
    expect(next).not.toBe(old);
    expect((await acme.api('GET', `/integrations/${created.id}`)).body.options.routing_key).toBe(next);
    // This process cached the old key's lookup: the rotation happened in the gateway's, so read the store afresh.
    const { forgetIntegrationLookups } = await import('#lib/integrations/lookup.ts');
    forgetIntegrationLookups(created.id);
    expect(await findIntegrationBySenderKey(old)).toBeUndefined();
    const found = await findIntegrationBySenderKey(next);
    expect(found).toMatchObject({ integrationId: created.id, accountId: acme.accountId, integrationTypeId: 'pagerduty', enabled: true });
    expect(JSON.stringify(found)).not.toContain(next);
    expect((await findIntegrationLookup(created.prefix_id))?.senderKeyHash).toBe(found?.senderKeyHash);
  });

  it('rotate_key on a type without a key is a 422; an unknown integration a 404', async () => {
    const webhook = await acme.api('POST', '/integrations', { name: 'Generic', account_user_ids: [admin.prefix_id] });
    const reply = await acme.api('POST', `/integrations/${webhook.body.id}/rotate_key`);
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual(['This integration is webhook, whose senders use no key; rotate_key applies to integrations of type pagerduty, opsgenie']);
    expect((await acme.api('POST', '/integrations/int_nonexistent00/rotate_key')).status).toBe(404);
  });

  it('a delete removes the key lookup with the integration', async () => {
    const created = await newPagerDuty();
    const key = created.options.routing_key as string;
    expect((await acme.api('DELETE', `/integrations/${created.id}`)).status).toBe(204);
    const { forgetIntegrationLookups } = await import('#lib/integrations/lookup.ts');
    forgetIntegrationLookups(created.id);
    expect(await findIntegrationBySenderKey(key)).toBeUndefined();
  });
});
