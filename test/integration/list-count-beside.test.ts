// The count kept beside a collection's items (docs/lists.md, Cost): GET /schedules' first page is one Query that reads
// the newest schedules and the count, once the copy has been checked against the counter; a table written before the
// copy existed (no copy, or one that only gathered changes) answers the counter's value and checks the copy once.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../../lib/db/client.ts';
import { deleteItem, getItem, transact } from '../../lib/db/items.ts';
import { besideCountCheck } from '../../lib/db/pages.ts';
import { besideCountKey, counterKey } from '../../lib/db/writes.ts';
import { scheduleListSource } from '../../lib/schedules/service.ts';
import { newAccount, useTestStack, type TestAccount } from './helpers.ts';

beforeAll(() => {
  useTestStack();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A filter every schedule passes: it makes the engine read (and count) the whole collection. */
const WHOLE = 'name=%00none&ops=name:ne';

async function createSchedules(account: TestAccount, n: number): Promise<string[]> {
  const replies = await Promise.all(Array.from({ length: n }, (_, i) => account.api('POST', '/schedules', { name: `S${i}` })));
  for (const reply of replies) expect(reply.status, reply.text).toBe(201);
  return replies.map((r) => (r.body as { id: string }).id);
}

const firstPage = async (account: TestAccount, query = '?limit=10') => {
  const reply = await account.api('GET', `/schedules${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { data: { id: string }[]; has_more: boolean; total_count: number };
};

const copyOf = (account: TestAccount) => getItem<{ itemCount?: number; exact?: boolean }>(besideCountKey(account.accountId, 'SCHEDULE'));
const counterOf = async (account: TestAccount) => Number((await getItem<{ itemCount?: number }>(counterKey(account.accountId, 'SCHEDULE')))?.itemCount ?? 0);

/** The storage calls one read of the first page makes, by command name. */
async function callsOfFirstPage(account: TestAccount): Promise<{ calls: string[]; total: number; ids: string[] }> {
  const client = documentClient();
  const original = client.send.bind(client);
  const calls: string[] = [];
  const spy = vi.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string } }, ...rest: unknown[]) => {
    calls.push(command.constructor.name);
    return (original as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
  }) as never);
  try {
    const page = await scheduleListSource(account.accountId).firstInKeyOrder(11, true);
    return { calls, total: page.total, ids: page.objects.map((o) => o.id as string) };
  } finally {
    spy.mockRestore();
  }
}

describe('the count beside the schedules', () => {
  it('makes the first page one Query once checked, with the same answer as reading the whole collection', async () => {
    const acme = await newAccount('Count beside');
    await createSchedules(acme, 14);
    // A new account's copy gathered the creates but was never checked: the first list checks it.
    expect(await copyOf(acme)).toMatchObject({ itemCount: 14 });
    expect((await copyOf(acme))?.exact).toBeUndefined();
    const first = await callsOfFirstPage(acme);
    expect(first.calls).toEqual(['QueryCommand', 'GetCommand', 'TransactWriteCommand']);
    expect(first.total).toBe(14);
    expect(await copyOf(acme)).toMatchObject({ itemCount: 14, exact: true });

    const again = await callsOfFirstPage(acme);
    expect(again.calls).toEqual(['QueryCommand']);
    expect(again).toMatchObject({ total: 14, ids: first.ids });
    expect(again.ids).toHaveLength(11);
    const whole = (await firstPage(acme, `?limit=11&${WHOLE}`)).data.map((s) => s.id);
    expect(again.ids).toEqual(whole);
    expect(await firstPage(acme)).toEqual(await firstPage(acme, `?limit=10&${WHOLE}`));
  });

  it('stays equal to the counter through concurrent creates and deletes', async () => {
    const acme = await newAccount('Count beside, concurrent');
    const ids = await createSchedules(acme, 6);
    expect((await firstPage(acme)).total_count).toBe(6); // checks the copy
    const [created] = await Promise.all([
      createSchedules(acme, 12),
      Promise.all(ids.slice(0, 4).map((id) => acme.api('DELETE', `/schedules/${id}`).then((r) => expect(r.status, r.text).toBe(204)))),
    ]);
    expect(created).toHaveLength(12);
    expect(await copyOf(acme)).toEqual(expect.objectContaining({ itemCount: 14, exact: true }));
    expect(await counterOf(acme)).toBe(14);
    const page = await firstPage(acme);
    expect(page).toMatchObject({ total_count: 14, has_more: true });
    expect(page).toEqual(await firstPage(acme, `?limit=10&${WHOLE}`));
    expect((await callsOfFirstPage(acme)).calls).toEqual(['QueryCommand']);
  });

  it('a table written before the copy existed answers the counter, then keeps the copy exact', async () => {
    const acme = await newAccount('Count beside, older table');
    await createSchedules(acme, 5);
    // As an older version left it: no copy at all.
    await deleteItem(besideCountKey(acme.accountId, 'SCHEDULE'));
    expect(await firstPage(acme)).toMatchObject({ total_count: 5, has_more: false });
    expect(await copyOf(acme)).toMatchObject({ itemCount: 5, exact: true });

    // A copy that only gathered the changes made since (here: wrong by far) is not trusted, and is checked.
    await transact([{ Put: { Item: { ...besideCountKey(acme.accountId, 'SCHEDULE'), itemCount: 999 } } }]);
    await createSchedules(acme, 7);
    expect(await copyOf(acme)).toMatchObject({ itemCount: 1006 });
    expect(await firstPage(acme)).toMatchObject({ total_count: 12, has_more: true });
    expect(await copyOf(acme)).toMatchObject({ itemCount: 12, exact: true });
  });

  it('the check holds only while the counter still holds the value read', async () => {
    const acme = await newAccount('Count beside, check');
    await createSchedules(acme, 3);
    await expect(transact(besideCountCheck(acme.accountId, 'SCHEDULE', 2))).rejects.toThrow();
    expect((await copyOf(acme))?.exact).toBeUndefined();
    await transact(besideCountCheck(acme.accountId, 'SCHEDULE', 3));
    expect(await copyOf(acme)).toMatchObject({ itemCount: 3, exact: true });
  });

  it('an empty collection counts 0 in one Query once checked; oldest first still reads the counter', async () => {
    const acme = await newAccount('Count beside, empty');
    expect(await firstPage(acme)).toEqual({ data: [], has_more: false, total_count: 0 });
    expect(await copyOf(acme)).toMatchObject({ itemCount: 0, exact: true });
    expect((await callsOfFirstPage(acme)).calls).toEqual(['QueryCommand']);
    await createSchedules(acme, 2);
    expect(await firstPage(acme, '?direction=asc')).toMatchObject({ total_count: 2, has_more: false });
    // The copy sorts after every schedule: an oldest-first page never sees it among the schedules.
    const raw = await documentClient().send(
      new QueryCommand({
        TableName: process.env.HARK_TABLE_NAME,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': `A#${acme.accountId}`, ':p': 'SCHEDULE#' },
        ConsistentRead: true,
      }),
    );
    expect(raw.Items).toHaveLength(2);
  });
});
