// An alert's log as stored, through the gateway: the entries one change writes share one log item, GET
// /alerts/:id/logs shows them as it always has (one row per entry, same fields, in the order written), items of
// both shapes — written before grouping and after — list together in id order, and a delete removes them all.
// Layout: docs/storage.md, "Alerts"; docs/alerts.md, "Log entries".
import { beforeAll, describe, expect, it } from 'vitest';
import { logEntry, logItem, logItems, type AlertLogItem } from '../../lib/alerts/log-items.ts';
import { partitionOf } from '../../lib/alerts/store.ts';
import { queryPrefix, transact } from '../../lib/db/items.ts';
import { alertPk } from '../../lib/db/keys.ts';
import { putNew } from '../../lib/db/writes.ts';
import { newId } from '../../lib/ids.ts';
import { addAccountUser, newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';

let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alert log items');
});

const logItemsOf = (alertId: string) => queryPrefix<AlertLogItem>(alertPk(acme.accountId, alertId), 'LOG#');
const logsOf = async (alertId: string) => {
  const reply = await acme.api('GET', `/alerts/${alertId}/logs?limit=100`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as Record<string, unknown>[];
};

/** The fields an entry of GET /alerts/:id/logs may have (docs/alerts.md, "Per-alert views"). */
const FIELDS = ['id', 'alert_id', 'created_at', 'event', 'message', 'account_user_id', 'team_id', 'router_id', 'layer', 'pass', 'comment_id'];

async function threePaged() {
  const people = [await addAccountUser(acme), await addAccountUser(acme), await addAccountUser(acme)].map((p) => p.id);
  const team = await teamWithOnCall(acme, [people], 'Three');
  const reply = await acme.api('POST', '/alerts', { title: 'Three paged', urgency: 'high', destination_team_ids: [team.id] });
  expect(reply.status, reply.text).toBe(201);
  return { alert: reply.body as { id: string; created_at: string }, team, people };
}

describe('the log entries of one change', () => {
  it('a create paging three people: one log item, and GET /alerts/:id/logs lists its eight entries as before', async () => {
    const { alert, team, people } = await threePaged();
    const logs = await logsOf(alert.id);
    expect(logs.map((l) => l.event)).toEqual(['created', 'routed', 'paged', 'paged', 'paged', 'notified', 'notified', 'notified']);
    const paged = logs.filter((l) => l.event === 'paged');
    expect(paged.map((l) => l.account_user_id).sort()).toEqual([...people].sort());
    expect(paged.every((l) => l.team_id === team.id && l.layer === 1 && l.pass === 1)).toBe(true);
    // A person's notified entry follows the order of the pages.
    expect(logs.filter((l) => l.event === 'notified').map((l) => l.account_user_id)).toEqual(paged.map((l) => l.account_user_id));
    expect(logs[0]).toMatchObject({ alert_id: alert.id, created_at: alert.created_at, message: `Alert created by account user ${acme.adminAccountUserId}.` });
    expect(logs[1]).toMatchObject({ event: 'routed', team_id: team.id });
    for (const log of logs) {
      expect(FIELDS).toEqual(expect.arrayContaining(Object.keys(log)));
      expect(log).toMatchObject({ id: expect.stringMatching(/^[0-9A-Z]{26}$/), alert_id: alert.id, created_at: alert.created_at, message: expect.any(String) });
    }
    // Distinct ids, in the order written.
    const ids = logs.map((l) => String(l.id));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(8);

    // Stored: one item keyed by the first entry, holding all eight.
    const items = await logItemsOf(alert.id);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ sk: `LOG#${ids[0]}`, type: 'ALERT_LOG', alertId: alert.id });
    expect(items[0]!.entries?.map((e) => e.id)).toEqual(ids);

    // A change of one entry writes the single-entry item; the acknowledgement's entries (it tells the others) share one.
    expect((await acme.api('PUT', `/alerts/${alert.id}`, { title: 'Three paged, renamed' })).status).toBe(200);
    expect((await acme.api('POST', `/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    const later = (await logsOf(alert.id)).slice(8);
    expect(later.map((l) => l.event)).toEqual(['updated', 'acknowledged', 'notified', 'notified', 'notified']);
    const after = await logItemsOf(alert.id);
    expect(after).toHaveLength(3);
    expect(after[1]).toMatchObject({ event: 'updated', sk: `LOG#${String(later[0]!.id)}` });
    expect(after[1]).not.toHaveProperty('entries');
    expect(after[2]).toMatchObject({ sk: `LOG#${String(later[1]!.id)}` });
    expect(after[2]!.entries?.map((e) => e.id)).toEqual(later.slice(1).map((l) => l.id));
  });

  it('items written before grouping and grouped items list together in id order, also an entry between a group’s entries', async () => {
    const { alert } = await threePaged();
    const created = Date.parse(alert.created_at);
    const own = await logsOf(alert.id);
    const pk = alertPk(acme.accountId, alert.id);
    // An entry written before grouping, older than the create's, with fields of its own.
    const oldId = newId(created - 60_000);
    const old = logItem(acme.accountId, alert.id, oldId, new Date(created - 60_000).toISOString(), { event: 'commented', message: 'Account user x commented: “early”', account_user_id: 'au_x', comment_id: 'cmt_1' });
    // A group of two entries and, between their ids, another writer's lone entry; all three in one instant.
    const at = new Date(created + 5_000).toISOString();
    const [first, between, last] = [1_000, 2_000, 3_000].map((ms) => newId(created + ms));
    const group = logItems(acme.accountId, alert.id, [
      logEntry(first!, at, { event: 'timeout', message: 'Layer 1 of team t timed out.', team_id: 'team_t', layer: 1, pass: 1 }),
      logEntry(last!, at, { event: 'paged', message: 'Account user y is paged.', account_user_id: 'au_y', team_id: 'team_t', layer: 2, pass: 1 }),
    ]);
    expect(group).toHaveLength(1);
    const lone = logItem(acme.accountId, alert.id, between!, at, { event: 'updated', message: 'Alert updated: title.', account_user_id: 'au_z' });
    await transact([putNew(old), putNew(group[0]!), putNew(lone)]);
    expect(pk).toBe(old.pk);

    const logs = await logsOf(alert.id);
    expect(logs).toEqual([
      { id: oldId, alert_id: alert.id, created_at: old.created_at, event: 'commented', message: 'Account user x commented: “early”', account_user_id: 'au_x', comment_id: 'cmt_1' },
      ...own,
      { id: first, alert_id: alert.id, created_at: at, event: 'timeout', message: 'Layer 1 of team t timed out.', team_id: 'team_t', layer: 1, pass: 1 },
      { id: between, alert_id: alert.id, created_at: at, event: 'updated', message: 'Alert updated: title.', account_user_id: 'au_z' },
      { id: last, alert_id: alert.id, created_at: at, event: 'paged', message: 'Account user y is paged.', account_user_id: 'au_y', team_id: 'team_t', layer: 2, pass: 1 },
    ]);
    // The list parameters work on entries, not items: a page of two, newest first, a search.
    const page = (await acme.api('GET', `/alerts/${alert.id}/logs?limit=2&offset=1`)).body;
    expect(page).toMatchObject({ total_count: own.length + 4, has_more: true });
    expect(page.data.map((l: { id: string }) => l.id)).toEqual([own[0]!.id, own[1]!.id]);
    const newest = (await acme.api('GET', `/alerts/${alert.id}/logs?sort=created_at&direction=desc&limit=1`)).body.data;
    expect(newest.map((l: { created_at: string }) => l.created_at)).toEqual([at]);
    const search = (await acme.api('GET', `/alerts/${alert.id}/logs?q=${encodeURIComponent('Account user y')}`)).body.data;
    expect(search.map((l: { id: string }) => l.id)).toEqual([last]);

    // A delete takes every item, whichever its shape.
    expect((await acme.api('DELETE', `/alerts/${alert.id}`)).status).toBe(204);
    expect(await partitionOf(acme.accountId, alert.id)).toEqual([]);
  });
});
