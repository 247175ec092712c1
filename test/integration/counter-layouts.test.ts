// Counts read exactly across the three layouts a table may hold, with no migration: each count in an unsharded item
// of its own (the oldest), in per-counter shard items (decision 0022's first layout) and as an attribute of the
// group items every change writes now. Alert counts (GET /alerts total_count, by status and team) and the request
// log's counts (GET /logs total_count, the account's and one integration's) through the gateway; and two count
// changes of one transaction landing on the same group item go as one Update. Rules:
// docs/decisions/0022-sharded-alert-counters.md, "One item per change".
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { alertCountChanges, alertCounter, type AlertCountScope } from '../../lib/alerts/items.ts';
import { transactAlert } from '../../lib/alerts/store.ts';
import { groupCounterReadKeys, shardedCounterKey, type GroupCounter } from '../../lib/db/counters.ts';
import { deleteItem, getItems, transact } from '../../lib/db/items.ts';
import { ALERT_COUNTS_SK } from '../../lib/db/keys.ts';
import { logCounter, LOG_COUNTS_SK } from '../../lib/ingest/source-log.ts';
import { COUNTER_SHARDS } from '../../lib/limits.ts';
import { addAccountUser, addTeam, alertsWithThirdpartyId, newAccount, request, useTestStack, type TestAccount } from './helpers.ts';

beforeAll(() => {
  useTestStack();
});

type Row = Record<string, unknown> & { pk: string; sk: string };

const totalOf = async (account: TestAccount, path: string): Promise<number> => {
  const reply = await account.api('GET', path);
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as { total_count: number }).total_count;
};

async function alertTotals(account: TestAccount, teamId: string) {
  const [all, open, acknowledged, resolved, team] = await Promise.all([
    totalOf(account, '/alerts?limit=1'),
    totalOf(account, '/alerts?status=open&limit=1'),
    totalOf(account, '/alerts?status=acknowledged&limit=1'),
    totalOf(account, '/alerts?status=resolved&limit=1'),
    totalOf(account, `/teams/${teamId}/alerts?limit=1`),
  ]);
  return { all, open, acknowledged, resolved, team };
}

const logTotals = async (account: TestAccount, integrationId: string) => ({
  all: await totalOf(account, '/logs?limit=1'),
  integration: await totalOf(account, `/logs?owner_id=${integrationId}&limit=1`),
});

/** Every item of the three layouts holding `counter`, as stored. */
const itemsOf = (counter: GroupCounter) => getItems<Row>(groupCounterReadKeys(counter));

/**
 * Rewrites the counts of a group as older versions stored them: the group items go, and each count is split
 * between its unsharded item (`ADD`, so the tiny id sequence kept there stays) and its own item in `shard`.
 */
async function toOlderLayouts(counters: readonly GroupCounter[], shard: number): Promise<void> {
  const sums = new Map<GroupCounter, number>();
  for (const counter of counters) {
    const items = (await itemsOf(counter)).filter((item) => item.sk === counter.group.sk);
    sums.set(counter, items.reduce((n, item) => n + Number(item[counter.attribute] ?? 0), 0));
  }
  for (let s = 0; s < COUNTER_SHARDS; s++) await deleteItem(shardedCounterKey(counters[0]!.group, s));
  for (const counter of counters) {
    const sum = sums.get(counter)!;
    const unsharded = Math.ceil(sum / 2);
    await transact([
      { Update: { Key: counter.legacy, UpdateExpression: 'ADD itemCount :n', ExpressionAttributeValues: { ':n': unsharded } } },
      { Put: { Item: { ...shardedCounterKey(counter.legacy, shard), itemCount: sum - unsharded } } },
    ]);
  }
}

/** The older layouts' items of the counters, to check that nothing writes them any more. */
const olderItems = async (counters: readonly GroupCounter[]) =>
  (await getItems<Row>(counters.flatMap((c) => [c.legacy, ...Array.from({ length: COUNTER_SHARDS }, (_, s) => shardedCounterKey(c.legacy, s))])))
    .map((item) => ({ key: `${item.pk} ${item.sk}`, itemCount: Number(item.itemCount) }))
    .sort((a, b) => a.key.localeCompare(b.key));

describe('counts across the three layouts', () => {
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
    const alertCounters = scopes.map((scope) => alertCounter(acme.accountId, scope));
    const logCounters = [logCounter(acme.accountId), logCounter(acme.accountId, hook.id)];
    await toOlderLayouts(alertCounters, 5);
    await toOlderLayouts(logCounters, 2);
    const older = await olderItems([...alertCounters, ...logCounters]);
    expect(older.map((item) => item.itemCount).sort()).toEqual([2, 2, 2, 2, 3, 3, 3, 3, 3, 3]);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 6, open: 6, acknowledged: 0, resolved: 0, team: 6 });
    expect(await logTotals(acme, hook.id)).toEqual({ all: 4, integration: 4 });

    // Changes of those alerts and new ones land in the group items; every total stays exact.
    for (const alert of [hooked[0]!, hooked[1]!, direct[0]!]) expect((await acme.api('POST', `/alerts/${alert.id}/resolve`)).status).toBe(200);
    expect((await acme.api('POST', `/alerts/${hooked[2]!.id}/acknowledge`)).status).toBe(200);
    expect((await acme.api('DELETE', `/alerts/${direct[1]!.id}`)).status).toBe(204);
    await fire(3);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 8, open: 4, acknowledged: 1, resolved: 3, team: 8 });
    expect(await logTotals(acme, hook.id)).toEqual({ all: 7, integration: 7 });

    // The older items were only read; the new counts are attributes of group items.
    expect(await olderItems([...alertCounters, ...logCounters])).toEqual(older);
    const groups = (await itemsOf(alertCounters[0]!)).filter((item) => item.sk === ALERT_COUNTS_SK);
    expect(groups.reduce((n, item) => n + Number(item.ALL ?? 0), 0)).toBe(3 - 1);
    const logGroups = (await itemsOf(logCounters[0]!)).filter((item) => item.sk === LOG_COUNTS_SK);
    expect(logGroups.reduce((n, item) => n + Number(item[`INT#${hook.id}`] ?? 0), 0)).toBe(3);

    // A third layout's read alone: a second integration's requests count only in the group items.
    const second = (await acme.api('POST', '/integrations', { name: 'Second', account_user_ids: [person.id] })).body as { id: string; prefix_id: string };
    expect((await request('POST', `/integration/${second.prefix_id}`, { body: { event_type: 'create', Id: `second-${randomUUID()}`, Title: 'Other' } })).status).toBe(200);
    await expect.poll(() => totalOf(acme, `/logs?owner_id=${second.id}&limit=1`), { timeout: 15_000 }).toBe(1);
    expect(await logTotals(acme, hook.id)).toEqual({ all: 8, integration: 7 });
  }, 120_000);

  it('two count changes of one transaction on the same group item go as one Update, and both count', async () => {
    const acme = await newAccount('Counter merge');
    const shard = 3;
    // Without the merge DynamoDB refuses the transaction: it names one item twice.
    await transactAlert([
      ...alertCountChanges(acme.accountId, { all: 1, statuses: { open: 1 }, teams: { t1: 1 } }, shard),
      ...alertCountChanges(acme.accountId, { statuses: { open: -1, resolved: 1 } }, shard),
      ...alertCountChanges(acme.accountId, { all: 1, statuses: { open: 1 } }, shard),
    ]);
    expect(await totalOf(acme, '/alerts?limit=1')).toBe(2);
    expect(await totalOf(acme, '/alerts?status=open&limit=1')).toBe(1);
    expect(await totalOf(acme, '/alerts?status=resolved&limit=1')).toBe(1);
    const [group] = await getItems<Row>([shardedCounterKey(alertCounter(acme.accountId, { by: 'account' }).group, shard)]);
    expect(group).toMatchObject({ ALL: 2, 'STATUS#open': 1, 'STATUS#resolved': 1, 'TEAM#t1': 1 });
  });
});
