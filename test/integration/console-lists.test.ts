// The console's alert list reads what it shows (docs/console.md, "The alert list"): a team's view is a page of the team
// index with the team's counter; urgency and text search only the newest CONSOLE_SEARCH_WINDOW alerts of the narrowest
// index, stop once the page is found, and say so with a link to the API, which searches every alert. The account is
// seeded with 1,030 alerts through the storage helpers (the items a create writes for the lists).
import { beforeAll, describe, expect, it } from 'vitest';
import { alertCountChanges, teamIndexItem, type AlertItem } from '#lib/alerts/items.ts';
import { cookieName } from '#lib/console/headers.ts';
import { startSession } from '#lib/console/sessions.ts';
import { putItems, transact } from '#lib/db/items.ts';
import { CONSOLE_SEARCH_WINDOW } from '#lib/limits.ts';
import { seededAlertItem } from '../support/seeded-alert.ts';
import { ConsoleClient } from './console-client.ts';
import { baseUrl, newAccount, useTestStack, type TestAccount } from './helpers.ts';

const COUNT = CONSOLE_SEARCH_WINDOW + 30;
let account: TestAccount;
let teamId: string;
const client = () => {
  const c = new ConsoleClient(baseUrl());
  c.cookie = cookie;
  return c;
};
let cookie: string;

/** The i-th alert from the newest: every 5th open, the rest resolved; every 3rd low; the even ones to the team. */
function seeded(i: number, createdMs: number): AlertItem {
  return seededAlertItem(account.accountId, i + 1, createdMs, {
    title: i === COUNT - 1 ? 'Needle beyond the window' : `Seeded number ${i}.`,
    description: null,
    urgency: i % 3 === 0 ? 'low' : 'high',
    status: i % 5 === 0 ? 'open' : 'resolved',
    tag_list: [],
    source_id: account.adminAccountUserId,
    destination_team_ids: i % 2 === 0 ? [teamId] : [],
  });
}

beforeAll(async () => {
  useTestStack();
  account = await newAccount('Console lists');
  const team = await account.api('POST', '/teams', { name: 'Payments' });
  expect(team.status, team.text).toBe(201);
  teamId = team.body.id;
  const now = Date.now() - 60_000;
  const alerts = Array.from({ length: COUNT }, (_, i) => seeded(i, now - i * 1000));
  await putItems(alerts.flatMap((a) => [a, ...a.data.destination_team_ids.map((t) => teamIndexItem(a, t))]));
  const statuses: Record<string, number> = {};
  for (const a of alerts) statuses[a.data.status] = (statuses[a.data.status] ?? 0) + 1;
  await transact(alertCountChanges(account.accountId, { all: COUNT, statuses, teams: { [teamId]: COUNT / 2 } }));
  const me = await account.api('GET', `/account_users/${account.adminAccountUserId}`);
  const session = await startSession(me.body.user_id, account.accountId, Date.now());
  cookie = `${cookieName(false)}=${session.id}`;
}, 240_000);

const titles = (text: string) => [...text.matchAll(/<h2><a href="\/alerts\/[^"]+">([^<]+)<\/a><\/h2>/g)].map((m) => m[1]);

describe('the console alert list at more alerts than a search reads', () => {
  it('a team alone is one page of the team index, newest first, counted by the team counter', async () => {
    const page = await client().get(`/alerts?team=${teamId}`);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(`Alerts 1–25 of ${COUNT / 2}.`);
    expect(titles(page.text)).toEqual(Array.from({ length: 25 }, (_, k) => `Seeded number ${2 * k}.`));
    expect(page.text).not.toContain('This search reads');
    expect(page.text).toContain(`href="/alerts?team&#x3D;${teamId}&amp;page&#x3D;2" rel="next"`);
  });

  it('an urgency search stops at the page and one more, says it reads only the newest, and links the API', async () => {
    const page = await client().get('/alerts?urgency=low');
    expect(page.text).toContain('Alerts 1–25 of more than 25.');
    expect(titles(page.text)).toEqual(Array.from({ length: 25 }, (_, k) => `Seeded number ${3 * k}.`));
    expect(page.text).toContain(`This search reads only the newest ${CONSOLE_SEARCH_WINDOW.toLocaleString('en')} alerts of the account.`);
    expect(page.text).toContain('<a href="/api/v4/alerts?urgency&#x3D;low">');
    expect(page.text).toContain('href="/alerts?urgency&#x3D;low&amp;page&#x3D;2" rel="next"');
    const second = await client().get('/alerts?urgency=low&page=2');
    expect(titles(second.text)[0]).toBe('Seeded number 75.');
  });

  it('a text search does not reach past the newest alerts; the API it links to does', async () => {
    const page = await client().get('/alerts?q=needle');
    expect(page.status).toBe(200);
    expect(page.text).toContain('No alerts match.');
    expect(page.text).toContain('<a href="/api/v4/alerts?q&#x3D;needle">');
    const api = await account.api('GET', '/alerts?q=needle');
    expect(api.body.total_count).toBe(1);
    expect(api.body.data[0].title).toBe('Needle beyond the window');
  });

  it('a team with a status reads the team’s list of that status and counts exactly once it has read it to the end', async () => {
    const page = await client().get(`/alerts?team=${teamId}&status=open&page=5`);
    const open = Math.ceil(COUNT / 10);
    expect(page.text).toContain(`Alerts 101–${open} of ${open}.`);
    expect(titles(page.text)).toEqual(Array.from({ length: open - 100 }, (_, k) => `Seeded number ${10 * (100 + k)}.`));
    expect(page.text).toContain('alerts of Payments with status open.');
    expect(page.text).not.toContain('rel="next"');
    // Its first page stops at the page and one more: the status list holds nothing but matches.
    expect((await client().get(`/alerts?team=${teamId}&status=open`)).text).toContain('Alerts 1–25 of more than 25.');
  });

  it('moves an alert between its team’s status lists when its status changes', async () => {
    const created = await account.api('POST', '/alerts', { title: 'Moves between lists', urgency: 'high', destination_team_ids: [teamId] });
    expect(created.status, created.text).toBe(201);
    const listed = async (status: string) => titles((await client().get(`/alerts?team=${teamId}&status=${status}`)).text).includes('Moves between lists');
    // The team lists are a global secondary index: read until it shows the change.
    await expect.poll(() => listed(created.body.status), { timeout: 10_000 }).toBe(true);
    const acknowledged = await account.api('POST', `/alerts/${created.body.id}/acknowledge`, {});
    expect(acknowledged.status, acknowledged.text).toBeLessThan(300);
    await expect.poll(() => listed('acknowledged'), { timeout: 10_000 }).toBe(true);
    expect(await listed(created.body.status)).toBe(false);
  });
});
