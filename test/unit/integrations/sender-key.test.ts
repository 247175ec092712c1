// Sender keys (docs/integrations.md, "Sender keys"): made by Hark, shown to admins only, never set by a request, and
// found through a lookup item keyed by the key's SHA-256, never the key itself.
import { describe, expect, it } from 'vitest';
import type { EntityItem } from '#lib/db/repository.ts';
import { hashSecret } from '#lib/ids.ts';
import { lookupItemsOf, lookupDeletes, lookupUpdates, senderKeyMatches } from '#lib/integrations/lookup.ts';
import { INTEGRATION_TYPES, typeOptionsChange, typeOptionsOf, type IntegrationData } from '#lib/integrations/schema.ts';
import { newSenderKey, SENDER_KEY_OPTIONS, senderKeyOf, senderKeyOptionOf } from '#lib/integrations/sender-key.ts';
import { renderIntegration } from '#lib/integrations/service.ts';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

const pagerduty = (key: string): EntityItem<IntegrationData> => ({
  pk: 'A#acct',
  sk: 'INTEGRATION#01J0000000000000000000000P',
  type: 'INTEGRATION',
  id: '01J0000000000000000000000P',
  prefixId: 'int_pagerdutyabc',
  tinyId: 2,
  accountId: 'acct',
  version: 1,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  meta: {},
  data: {
    name: 'From PagerDuty',
    enabled: true,
    urgency: 'high',
    integration_type: INTEGRATION_TYPES.pagerduty!,
    options: { token_hash: null, capture_additional_data: false, wrapper_key: null, routing_key: key },
    account_user_ids: ['U1'],
    router_ids: [],
    team_ids: [],
  },
});

describe('making a sender key', () => {
  it('is 32 characters of node:crypto randomness, different every time', () => {
    const keys = Array.from({ length: 200 }, newSenderKey);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is declared by the pagerduty reader under routing_key; other types have none', () => {
    expect(senderKeyOptionOf('pagerduty')).toBe('routing_key');
    expect(senderKeyOptionOf('webhook')).toBeUndefined();
    expect(SENDER_KEY_OPTIONS.has('routing_key')).toBe(true);
    expect(senderKeyOf('pagerduty', { routing_key: KEY })).toBe(KEY);
    expect(senderKeyOf('webhook', { routing_key: KEY })).toBeUndefined();
  });
});

describe('showing it', () => {
  it('shows the key to an admin and nothing of it to a member', () => {
    const item = pagerduty(KEY);
    expect((renderIntegration(item, { admin: true }).options as Record<string, unknown>).routing_key).toBe(KEY);
    const member = renderIntegration(item, { admin: false });
    expect(member.options).not.toHaveProperty('routing_key');
    expect(JSON.stringify(member)).not.toContain(KEY);
  });

  it('is no type option: a request cannot set it, though sending back the key as read is fine', () => {
    expect(typeOptionsOf(pagerduty(KEY).data.options)).toEqual({});
    expect(typeOptionsChange('pagerduty', { routing_key: 'f'.repeat(32) }, {}, KEY).problems).toEqual([
      'options.routing_key is made by Hark and cannot be set; POST /api/v4/integrations/{id}/rotate_key makes a new one',
    ]);
    expect(typeOptionsChange('pagerduty', { routing_key: KEY }, {}, KEY)).toEqual({ options: {}, problems: [] });
  });
});

describe('its lookup item', () => {
  it('is a third lookup item keyed by the SHA-256 of the key; no item holds the key itself', () => {
    const items = lookupItemsOf(pagerduty(KEY));
    expect(items.map((i) => i.pk)).toEqual(['INTEGRATION#01J0000000000000000000000P', 'INTEGRATION#int_pagerdutyabc', `INTEGRATION_KEY#${hashSecret(KEY)}`]);
    for (const item of items) expect(item).toMatchObject({ integrationId: '01J0000000000000000000000P', integrationTypeId: 'pagerduty', senderKeyHash: hashSecret(KEY) });
    expect(JSON.stringify(items)).not.toContain(KEY);
  });

  it('compares a key with the item in constant time, and only the right one matches', () => {
    const [byId] = lookupItemsOf(pagerduty(KEY));
    expect(senderKeyMatches(byId!, KEY)).toBe(true);
    expect(senderKeyMatches(byId!, KEY.replace('a', 'b'))).toBe(false);
    expect(senderKeyMatches({ ...byId!, senderKeyHash: undefined } as never, KEY)).toBe(false);
  });

  it('a rotation replaces the old key item in the same writes; a delete removes all three', () => {
    const next = 'ffffffffffffffffffffffffffffffff';
    const writes = JSON.stringify(lookupUpdates(pagerduty(next), pagerduty(KEY)));
    expect(writes).toContain(`INTEGRATION_KEY#${hashSecret(next)}`);
    expect(writes).toMatch(new RegExp(`Delete[^}]*INTEGRATION_KEY#${hashSecret(KEY)}`));
    // An update that keeps the key rewrites its item and deletes nothing.
    expect(JSON.stringify(lookupUpdates(pagerduty(KEY), pagerduty(KEY)))).not.toContain('Delete');
    expect(JSON.stringify(lookupDeletes(pagerduty(KEY)))).toContain(`INTEGRATION_KEY#${hashSecret(KEY)}`);
    expect(lookupDeletes(pagerduty(KEY))).toHaveLength(3);
  });
});
