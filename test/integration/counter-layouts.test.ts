// Counts read exactly across the layouts a table may hold, with no migration: each count in an unsharded item of its
// own (the oldest), in per-counter shard items (decision 0022's first layout, still how team and integration counts
// are written) and, for the account's bounded counts (all alerts, per status, all request logs), as an attribute of
// the account's counter group items. Alert counts (GET /alerts total_count, by status and team) and the request log's
// counts (GET /logs total_count, the account's and one integration's) through the gateway; and the counts one
// transaction moves in one group go as one Update of one group item, a webhook's alert counts and its log count
// together. Rules: docs/decisions/0022-sharded-alert-counters.md, "One item per change".
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertCountChanges, alertCounter, type AlertCountScope } from '../../lib/alerts/items.ts';
import { transactAlert } from '../../lib/alerts/store.ts';
import { COUNTER_GROUP_SK, counterReadKeys, readShardedCounter, shardedCounterKey } from '../../lib/db/counters.ts';
import { deleteItem, getItems, transact } from '../../lib/db/items.ts';
import { accountPk } from '../../lib/db/keys.ts';
import { logCounter, logCounterWrites } from '../../lib/ingest/source-log.ts';
import { COUNTER_SHARDS } from '../../lib/limits.ts';
import { addAccountUser, addTeam, alertsWithThirdpartyId, alertTotals, newAccount, request, totalCount, useTestStack, type TestAccount } from './helpers.ts';

beforeAll(() => {
  useTestStack();
});

type Row = Record<string, unknown> & { pk: string; sk: string };
type Counter = { key: { pk: string; sk: string }; grouped: boolean };

const logTotals = async (account: TestAccount, integrationId: string) => ({
  all: await totalCount(account, '/logs?limit=1'),
  integration: await totalCount(account, `/logs?owner_id=${integrationId}&limit=1`),
});

/** The account's counter group items, as stored, by shard partition. */
async function groupItems(accountId: string): Promise<Map<string, Row>> {
  const items = await getItems<Row>(Array.from({ length: COUNTER_SHARDS }, (_, shard) => shardedCounterKey({ pk: accountPk(accountId), sk: COUNTER_GROUP_SK }, shard)));
  return new Map(items.map((item) => [item.pk, item]));
}

/** The per-counter items (unsharded and shards) of the counters, to check what writes them. */
const ownItems = async (counters: readonly Counter[]) =>
  (await getItems<Row>(counters.flatMap((c) => counterReadKeys(c.key))))
    .map((item) => ({ key: `${item.pk} ${item.sk}`, itemCount: Number(item.itemCount) }))
    .sort((a, b) => a.key.localeCompare(b.key));

/**
 * Rewrites the counters as older versions stored them: the group items and the per-counter shards go, and each count
 * is split between its unsharded item (`ADD`, so the tiny id sequence kept there stays) and its own item in `shard`.
 */
async function toOlderLayouts(accountId: string, counters: readonly Counter[], shard: number): Promise<void> {
  const sums = new Map<Counter, number>();
  for (const counter of counters) {
    const items = await getItems<Row>(counterReadKeys(counter.key, counter.grouped));
    sums.set(counter, items.reduce((n, item) => n + Number((item.sk === COUNTER_GROUP_SK ? item[counter.key.sk] : item.itemCount) ?? 0), 0));
  }
  for (const group of (await groupItems(accountId)).values()) await deleteItem(group);
  for (const counter of counters) {
    for (let s = 0; s < COUNTER_SHARDS; s++) await deleteItem(shardedCounterKey(counter.key, s));
    const sum = sums.get(counter)!;
    const unsharded = Math.ceil(sum / 2);
    await transact([
      { Update: { Key: counter.key, UpdateExpression: 'ADD itemCount :n', ExpressionAttributeValues: { ':n': unsharded } } },
      { Put: { Item: { ...shardedCounterKey(counter.key, shard), itemCount: sum - unsharded } } },
    ]);
  }
}

/** Each group item's change from `before` to `after`, by attribute (items that did not change left out). */
function groupChanges(before: Map<string, Row>, after: Map<string, Row>): Record<string, number>[] {
  const changes: Record<string, number>[] = [];
  for (const [pk, item] of after) {
    const change: Record<string, number> = {};
    for (const [name, value] of Object.entries(item)) {
      const n = Number(value) - Number(before.get(pk)?.[name] ?? 0);
      if (name !== 'pk' && name !== 'sk' && n !== 0) change[name] = n;
    }
    if (Object.keys(change).length > 0) changes.push(change);
  }
  return changes;
}

describe('counts across the layouts', () => {
  it('alert and request-log totals add the unsharded items, the per-counter shards and the group items', async () => {
    const acme = await newAccount('Counter layouts');
    const person = await addAccountUser(acme);
    const team = await addTeam(acme, 'Layouts');
    const hook = (await acme.api('POST', '/integrations', { name: 'Layouts', team_ids: [team.id], account_user_ids: [person.id] })).body as { id: string; prefix_id: string };
    const fire = async (n: number) => {
      const ids = Array.from({ length: n }, () => `layout-${randomUUID()}`);
      for (const id of ids) expect((await request('POST', `/integration/${hook.prefix_id}`, { body: { event_type: 'create', Id: id, Title: `Disk ${id}` } })).status).toBe(200);
      return Promise.all(ids.map(async (id) => (await alertsWithThirdpartyId(acme, id))[0] as { id: string; status: string }));
    };

    // Four alerts by webhook (four requests logged), two by the API; all open, all paging the team.
    const hooked = await fire(4);
    const direct = await Promise.all(
      [1, 2].map(async (i) => (await acme.api('POST', '/alerts', { title: `direct ${i}`, urgency: 'high', destination_team_ids: [team.id], destination_account_user_ids: [person.id] })).body as { id: string }),
    );
    expect(hooked.every((a) => a.status === 'open')).toBe(true);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 6, open: 6, acknowledged: 0, resolved: 0, team: 6 });
    expect(await logTotals(acme, hook.id)).toEqual({ all: 4, integration: 4 });

    // As a table written by older versions holds them: no group item, each count half in its unsharded item, half in
    // its own item of one shard.
    const scopes: AlertCountScope[] = [{ by: 'account' }, { by: 'status', status: 'open' }, { by: 'team', teamId: team.id }];
    const counters = [...scopes.map((scope) => alertCounter(acme.accountId, scope)), logCounter(acme.accountId), logCounter(acme.accountId, hook.id)];
    await toOlderLayouts(acme.accountId, counters, 5);
    expect(await groupItems(acme.accountId)).toEqual(new Map());
    const grouped = counters.filter((c) => c.grouped);
    const older = await ownItems(grouped);
    expect(older.map((item) => item.itemCount).sort()).toEqual([2, 2, 3, 3, 3, 3]);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 6, open: 6, acknowledged: 0, resolved: 0, team: 6 });
    expect(await logTotals(acme, hook.id)).toEqual({ all: 4, integration: 4 });

    // Changes of those alerts and new ones: the bounded counts land in the group items, the team's and the
    // integration's in their own shard items; every total stays exact.
    for (const alert of [hooked[0]!, hooked[1]!, direct[0]!]) expect((await acme.api('POST', `/alerts/${alert.id}/resolve`)).status).toBe(200);
    expect((await acme.api('POST', `/alerts/${hooked[2]!.id}/acknowledge`)).status).toBe(200);
    expect((await acme.api('DELETE', `/alerts/${direct[1]!.id}`)).status).toBe(204);
    await fire(3);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 8, open: 4, acknowledged: 1, resolved: 3, team: 8 });
    expect(await logTotals(acme, hook.id)).toEqual({ all: 7, integration: 7 });

    // The older items of the grouped counts were only read. The group items hold the bounded counts and nothing else:
    // no team's or integration's count, however many an account has.
    expect(await ownItems(grouped)).toEqual(older);
    const groups = [...(await groupItems(acme.accountId)).values()];
    const sumOf = (name: string) => groups.reduce((n, item) => n + Number(item[name] ?? 0), 0);
    expect([sumOf('COUNTER#ALERT'), sumOf('COUNTER#LOG')]).toEqual([3 - 1, 3]);
    const names = new Set(groups.flatMap((item) => Object.keys(item)));
    expect([...names].sort()).toEqual(['COUNTER#ALERT', 'COUNTER#ALERT#STATUS#acknowledged', 'COUNTER#ALERT#STATUS#open', 'COUNTER#ALERT#STATUS#resolved', 'COUNTER#LOG', 'pk', 'sk']);

    // A newer layout's read alone: a second integration's requests count only in the group items and its own shards.
    const second = (await acme.api('POST', '/integrations', { name: 'Second', account_user_ids: [person.id] })).body as { id: string; prefix_id: string };
    expect((await request('POST', `/integration/${second.prefix_id}`, { body: { event_type: 'create', Id: `second-${randomUUID()}`, Title: 'Other' } })).status).toBe(200);
    await expect.poll(() => totalCount(acme, `/logs?owner_id=${second.id}&limit=1`), { timeout: 15_000 }).toBe(1);
    expect(await logTotals(acme, hook.id)).toEqual({ all: 8, integration: 7 });
  }, 120_000);

  it('a webhook create and its resolve each move the alert counts and the log count as one Update of one group item', async () => {
    const acme = await newAccount('Counter webhook');
    const person = await addAccountUser(acme);
    const team = await addTeam(acme, 'Webhook');
    const hook = (await acme.api('POST', '/integrations', { name: 'Webhook', team_ids: [team.id], account_user_ids: [person.id] })).body as { id: string; prefix_id: string };
    const id = `merge-${randomUUID()}`;
    const send = async (event_type: string) => expect((await request('POST', `/integration/${hook.prefix_id}`, { body: { event_type, Id: id, Title: 'Disk full' } })).status).toBe(200);

    // The request's log, its counts and the alert are one transaction: sent as two Updates of the group, the counts
    // would land in two group items (or, in one shard, DynamoDB would refuse the transaction naming one item twice).
    await send('create');
    await alertsWithThirdpartyId(acme, id);
    const created = await groupItems(acme.accountId);
    expect(groupChanges(new Map(), created)).toEqual([{ 'COUNTER#ALERT': 1, 'COUNTER#ALERT#STATUS#open': 1, 'COUNTER#LOG': 1 }]);

    await send('resolve');
    await alertsWithThirdpartyId(acme, id, (alerts) => alerts[0]?.status === 'resolved');
    await expect.poll(() => totalCount(acme, '/logs?limit=1'), { timeout: 15_000 }).toBe(2);
    expect(groupChanges(created, await groupItems(acme.accountId))).toEqual([{ 'COUNTER#ALERT#STATUS#open': -1, 'COUNTER#ALERT#STATUS#resolved': 1, 'COUNTER#LOG': 1 }]);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 1, open: 0, acknowledged: 0, resolved: 1, team: 1 });
    expect(await logTotals(acme, hook.id)).toEqual({ all: 2, integration: 2 });
  }, 60_000);

  it('the counts of one transaction that pick different shards go as one Update per group and per counter, and all count', async () => {
    const acme = await newAccount('Counter merge');
    const message = { accountId: acme.accountId, integrationId: 'int1' };
    await transactAlert([
      ...alertCountChanges(acme.accountId, { all: 1, statuses: { open: 1 }, teams: { t1: 1 } }, 3),
      ...logCounterWrites(message, 6),
      ...alertCountChanges(acme.accountId, { statuses: { open: -1, resolved: 1 }, teams: { t1: 1 } }, 3),
      ...logCounterWrites(message, 1),
    ]);
    expect(await totalCount(acme, '/alerts?limit=1')).toBe(1);
    expect(await totalCount(acme, '/alerts?status=resolved&limit=1')).toBe(1);
    // (No log is stored, so GET /logs, listing none, reports none: the count is read as it would.)
    expect(await readShardedCounter(logCounter(acme.accountId).key, true)).toBe(2);
    const groups = [...(await groupItems(acme.accountId)).values()];
    expect(groups).toEqual([{ ...shardedCounterKey({ pk: accountPk(acme.accountId), sk: COUNTER_GROUP_SK }, 3), 'COUNTER#ALERT': 1, 'COUNTER#ALERT#STATUS#resolved': 1, 'COUNTER#LOG': 2 }]);
    const own = await ownItems([alertCounter(acme.accountId, { by: 'team', teamId: 't1' }), logCounter(acme.accountId, 'int1')]);
    expect(own.map((item) => [item.key.split(' ')[0]!.split('#').at(-1), item.itemCount])).toEqual([
      ['3', 2],
      ['6', 2],
    ]);
  });
});
