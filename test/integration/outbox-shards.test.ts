// Outbox messages in shards, through the gateway: pages written across the account's outbox partitions list newest
// first with the older messages still in the account partition (a table from before sharding), page by page; a
// message is found by id and prefix id wherever it is; delivery marks the sharded message; deleting an alert removes
// its messages and aliases from the shards and from the account partition. Rules: docs/decisions/0027-sharded-outbox.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { getItem, queryPrefix, transact } from '#lib/db/items.ts';
import { accountPk, alertPk, entitySk, outboxAliasKey, outboxKey, outboxPartitions, prefixAliasSk, unshardedOutboxKey } from '#lib/db/keys.ts';
import { deleteAny, putNew } from '#lib/db/writes.ts';
import { newId, newPrefixId } from '#lib/ids.ts';
import { addAccountUser, newAccount, pollUntil, useTestStack, type Ref, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let globex: TestAccount;
let ann: Ref;
/** The message written as a version before sharding wrote it: in the account partition, alias beside it. */
let old: { id: string; prefixId: string };

interface Message {
  id: string;
  prefix_id: string;
  created_at: string;
  status: string;
  template: string;
}
interface Page {
  data: Message[];
  has_more: boolean;
  total_count: number;
}

const outboxPage = async (account: TestAccount, qs: string): Promise<Page> => {
  const reply = await account.api('GET', `/outbox${qs}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as Page;
};
const notificationsOf = async (account: TestAccount, alertId: string) =>
  (await account.api('GET', `/alerts/${alertId}/notifications?limit=100`)).body.data as { id: string; outbox_id: string | null }[];

async function pageAnn(title: string): Promise<{ id: string }> {
  const reply = await acme.api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: [ann.id] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

/** Writes an outbox message and its alias with the keys every version before sharding used. */
async function writeUnsharded(account: TestAccount, createdMs: number): Promise<{ id: string; prefixId: string }> {
  const id = newId(createdMs);
  const prefixId = newPrefixId('OUTBOX');
  const at = new Date(createdMs).toISOString();
  const item = {
    ...unshardedOutboxKey(account.accountId, id),
    type: 'OUTBOX',
    accountId: account.accountId,
    id,
    prefixId,
    tinyId: 900,
    version: 1,
    createdAt: at,
    updatedAt: at,
    meta: {},
    data: {
      channel: 'email',
      to: 'before@example.test',
      template: 'alert_page',
      subject: 'Written before sharding',
      body: 'An older page',
      sealed_fields: [],
      status: 'sent',
      user_id: null,
      account_user_id: null,
      created_by_account_user_id: null,
      sent_at: at,
      sealed_until: null,
    },
  };
  await transact([putNew(item), putNew({ pk: accountPk(account.accountId), sk: prefixAliasSk(prefixId), targetSk: item.sk })]);
  return { id, prefixId };
}

/** Every outbox item (messages) of the account as stored, by partition. */
async function storedMessages(accountId: string): Promise<Map<string, string[]>> {
  const byPartition = new Map<string, string[]>();
  for (const pk of outboxPartitions(accountId)) byPartition.set(pk, (await queryPrefix<{ id: string }>(pk, entitySk('OUTBOX', ''))).map((m) => m.id));
  return byPartition;
}

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Outbox shards'), newAccount('Outbox shards other')]);
  old = await writeUnsharded(acme, Date.now() - 3_600_000);
  ann = await addAccountUser(acme);
  for (let i = 0; i < 8; i++) await pageAnn(`Shard storm ${i}`);
});

describe('where messages are written', () => {
  it('new messages (pages, people messages) spread over the shards; the account partition keeps only the older one', async () => {
    const stored = await storedMessages(acme.accountId);
    expect(stored.get(accountPk(acme.accountId))).toEqual([old.id]);
    const sharded = [...stored.entries()].filter(([pk]) => pk !== accountPk(acme.accountId));
    // 16 pages and ann's credentials message: the chance of fewer than 4 distinct shards out of 16 is below 1e-9.
    expect(sharded.filter(([, ids]) => ids.length > 0).length).toBeGreaterThanOrEqual(4);
    for (const [pk, ids] of sharded) for (const id of ids) expect(outboxKey(acme.accountId, id).pk).toBe(pk);
    expect(sharded.flatMap(([, ids]) => ids)).toHaveLength(17);
  });
});

describe('GET /outbox across the shards and the account partition', () => {
  it('lists every message newest first, the older unsharded one last, with the exact count once it reads to the end', async () => {
    const stored = [...(await storedMessages(acme.accountId)).values()].flat();
    const all = await outboxPage(acme, '?limit=100');
    expect(all.total_count).toBe(18);
    expect(all.has_more).toBe(false);
    expect(all.data.map((m) => m.id)).toEqual([...stored].sort().reverse());
    expect(all.data.at(-1)!.id).toBe(old.id);
    const created = all.data.map((m) => m.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.data.filter((m) => m.template === 'alert_page')).toHaveLength(17);
  });

  it('pages of 5 walk the merged order without gaps or repeats, into the account partition', async () => {
    const all = (await outboxPage(acme, '?limit=100')).data.map((m) => m.id);
    const walked: string[] = [];
    for (let offset = 0; offset < 20; offset += 5) {
      const page = await outboxPage(acme, `?limit=5&offset=${offset}`);
      expect(page.data.map((m) => m.id)).toEqual(all.slice(offset, offset + 5));
      expect(page.has_more).toBe(offset + 5 < all.length);
      // Never fewer than what was read; exact when the page reaches the end (docs/people.md, "The outbox").
      expect(page.total_count).toBeGreaterThanOrEqual(Math.min(all.length, offset + 6));
      if (offset + 5 >= all.length) expect(page.total_count).toBe(all.length);
      walked.push(...page.data.map((m) => m.id));
    }
    expect(walked).toEqual(all);
    const oldestFirst = await outboxPage(acme, '?limit=3&direction=asc');
    expect(oldestFirst.data.map((m) => m.id)).toEqual(all.slice(-3).reverse());
  });

  it('filtered and searched lists read every partition', async () => {
    const byTemplate = await outboxPage(acme, '?template=alert_page&limit=100');
    expect(byTemplate.total_count).toBe(17);
    const searched = await outboxPage(acme, '?q=before%40example&limit=100');
    expect(searched.data.map((m) => m.id)).toEqual([old.id]);
    expect(searched.total_count).toBe(1);
  });

  it('another account sees none of them', async () => {
    // Positive control: the other account's list works and holds exactly its own messages (a person added sends one,
    // and an older unsharded one), so an empty answer cannot come from a listing broken for everyone.
    // Waits for both to be stored (read from the table), then lists once: a listing that answers nothing fails here at once.
    const own = await writeUnsharded(globex, Date.now() - 3_600_000);
    await addAccountUser(globex);
    const stored = await pollUntil(async () => {
      const ids = [...(await storedMessages(globex.accountId)).values()].flat();
      return ids.length >= 2 ? ids : undefined;
    });
    const theirs = await outboxPage(globex, '?limit=100');
    expect(theirs.data.map((m) => m.id).sort(), 'the other account’s own messages, as listed').toEqual([...stored].sort());
    expect(theirs.data.map((m) => m.id)).toContain(own.id);
    expect(theirs.total_count).toBe(theirs.data.length);
    const acmeIds = new Set((await outboxPage(acme, '?limit=100')).data.map((m) => m.id));
    expect(acmeIds.size).toBeGreaterThan(0);
    expect(theirs.data.filter((m) => acmeIds.has(m.id))).toEqual([]);
  });
});

describe('GET /outbox/:id wherever the message is', () => {
  it('finds a sharded message and the older unsharded one by id and by prefix id; 404 for another account', async () => {
    const newest = (await outboxPage(acme, '?limit=1')).data[0]!;
    expect(await getItem(outboxAliasKey(acme.accountId, newest.prefix_id))).toMatchObject({ targetSk: entitySk('OUTBOX', newest.id) });
    for (const [id, prefixId] of [
      [newest.id, newest.prefix_id],
      [old.id, old.prefixId],
    ] as const) {
      const byId = await acme.api('GET', `/outbox/${id}`);
      expect(byId.status, byId.text).toBe(200);
      expect(byId.body.id).toBe(id);
      const byPrefix = await acme.api('GET', `/outbox/${prefixId}`);
      expect(byPrefix.status, byPrefix.text).toBe(200);
      expect(byPrefix.body).toEqual(byId.body);
      expect((await globex.api('GET', `/outbox/${id}`)).status).toBe(404);
      expect((await globex.api('GET', `/outbox/${prefixId}`)).status).toBe(404);
    }
  });
});

describe('delivery and deletion', () => {
  it('delivery marks the sharded message (no provider in the test stack: suppressed)', async () => {
    const alert = await pageAnn('Delivered');
    const ids = (await notificationsOf(acme, alert.id)).map((n) => n.outbox_id).filter((id): id is string => id !== null);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const stored = await pollUntil(async () => {
        const item = await getItem<{ data: { status: string } }>(outboxKey(acme.accountId, id));
        return item && item.data.status !== 'queued' ? item : undefined;
      });
      expect(stored.data.status).toBe('suppressed');
      expect((await acme.api('GET', `/outbox/${id}`)).body.status).toBe('suppressed');
    }
  });

  it('a broadcast’s messages go to the shards too; neither notifications list shows where they are stored', async () => {
    const created = await acme.api('POST', '/broadcasts', { title: 'Sharded broadcast', destination_account_user_ids: [ann.id] });
    expect(created.status, created.text).toBe(201);
    const records = await pollUntil(async () => {
      const data = (await acme.api('GET', `/broadcasts/${created.body.id}/notifications?limit=100`)).body.data as Record<string, unknown>[];
      return data.length > 0 && data.every((r) => r.status !== 'queued') ? data : undefined;
    });
    const ids = records.map((r) => r.outbox_id).filter((id): id is string => typeof id === 'string');
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(await getItem(outboxKey(acme.accountId, id))).toMatchObject({ id, data: { template: 'broadcast' } });
    for (const r of records) expect(r).not.toHaveProperty('outbox_sharded');
    const alert = await pageAnn('Listed records');
    for (const r of await notificationsOf(acme, alert.id)) expect(r).not.toHaveProperty('outbox_sharded');
  });

  it('deleting an alert removes its sharded messages and aliases, and one written before sharding from the account partition', async () => {
    const alert = await pageAnn('Deleted');
    const records = await notificationsOf(acme, alert.id);
    const messages = await Promise.all(records.filter((r) => r.outbox_id).map(async (r) => (await acme.api('GET', `/outbox/${r.outbox_id}`)).body as Message));
    expect(messages).toHaveLength(2);
    for (const m of messages) await pollUntil(async () => ((await acme.api('GET', `/outbox/${m.id}`)).body.status !== 'queued' ? true : undefined));
    // Make the second one look written before sharding: its record without the flag, the message and alias in A#<account>.
    const moved = messages[1]!;
    const record = records.find((r) => r.outbox_id === moved.id)!;
    const stored = (await getItem<Record<string, unknown>>(outboxKey(acme.accountId, moved.id)))!;
    await transact([
      deleteAny(outboxKey(acme.accountId, moved.id)),
      deleteAny(outboxAliasKey(acme.accountId, moved.prefix_id)),
      putNew({ ...stored, ...unshardedOutboxKey(acme.accountId, moved.id) }),
      putNew({ pk: accountPk(acme.accountId), sk: prefixAliasSk(moved.prefix_id), targetSk: entitySk('OUTBOX', moved.id) }),
      { Update: { Key: { pk: alertPk(acme.accountId, alert.id), sk: `NOTIF#${record.id}` }, UpdateExpression: 'REMOVE outbox_sharded', ConditionExpression: 'attribute_exists(pk)' } },
    ]);
    expect((await acme.api('GET', `/outbox/${moved.prefix_id}`)).body.id).toBe(moved.id);

    expect((await acme.api('DELETE', `/alerts/${alert.id}`)).status).toBe(204);
    for (const m of messages) {
      expect((await acme.api('GET', `/outbox/${m.id}`)).status).toBe(404);
      expect((await acme.api('GET', `/outbox/${m.prefix_id}`)).status).toBe(404);
    }
    const sharded = messages[0]!;
    expect(await getItem(outboxKey(acme.accountId, sharded.id))).toBeUndefined();
    expect(await getItem(outboxAliasKey(acme.accountId, sharded.prefix_id))).toBeUndefined();
    expect(await getItem(unshardedOutboxKey(acme.accountId, moved.id))).toBeUndefined();
    expect(await getItem({ pk: accountPk(acme.accountId), sk: prefixAliasSk(moved.prefix_id) })).toBeUndefined();
    const left = [...(await storedMessages(acme.accountId)).values()].flat();
    for (const m of messages) expect(left).not.toContain(m.id);
  });
});
