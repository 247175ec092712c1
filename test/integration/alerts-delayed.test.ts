// Router `assign` with `delay`, through the gateway: the delayed destination is held back by a durable
// `delayed_start` timer (fired here directly through the timers handler, as the timers worker does) and starts
// when it fires, unless the alert was acknowledged first. Rules: docs/alerts.md, "Router destinations";
// docs/routing.md, "Duplicates and delays".
import { beforeAll, describe, expect, it } from 'vitest';
import { onAlertTimer } from '../../lib/alerts/index.ts';
import { logsOf } from '../../lib/alerts/store.ts';
import { queryPrefix } from '../../lib/db/items.ts';
import { alertPk } from '../../lib/db/keys.ts';
import { timerOf, type TimerItem } from '../../lib/timers/items.ts';
import { addAccountUser, newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';

let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alerts delayed');
});

async function router(name: string, rules: string): Promise<{ id: string }> {
  const reply = await acme.api('POST', '/routers', { name, rules, default_receiver_account_user_id: acme.adminAccountUserId });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const timersOf = async (alertId: string, kind: string) => (await queryPrefix<TimerItem>(alertPk(acme.accountId, alertId), 'TIMER#')).filter((t) => t.kind === kind);
const fire = (t: TimerItem) => onAlertTimer(timerOf(t), new Date(Date.parse(t.dueAt)));
const pagedIds = async (alertId: string) => (await logsOf(acme.accountId, alertId)).filter((l) => l.event === 'paged').map((l) => l.account_user_id);

describe('router assign with delay', () => {
  it('the delayed team and person start when their one timer fires, 10 minutes later; the team without delay at once', async () => {
    const [now1, later1, lead] = await Promise.all([addAccountUser(acme), addAccountUser(acme), addAccountUser(acme)]);
    const [front, dba] = await Promise.all([teamWithOnCall(acme, [[now1.id]], 'Front'), teamWithOnCall(acme, [[later1.id]], 'DBA')]);
    const r = await router('Delays', `rules:\n- match: {always: true}\n  actions:\n  - {type: assign, receiver: [${front.prefix_id}]}\n  - {type: assign, receiver: [${dba.prefix_id}, ${lead.prefix_id}], delay: 10m}\n`);
    const reply = await acme.api('POST', '/alerts', { title: 'Slow queries', urgency: 'high', destination_router_ids: [r.id] });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.status).toBe('open');
    const alertId = reply.body.id as string;
    expect(await pagedIds(alertId)).toEqual([now1.id]);

    const [delayed, ...more] = await timersOf(alertId, 'delayed_start');
    expect(more).toEqual([]);
    expect(delayed!.state).toBe('pending');
    expect(Date.parse(delayed!.dueAt) - Date.parse(delayed!.createdAt)).toBe(10 * 60_000);
    const logs = await logsOf(acme.accountId, alertId);
    expect(logs.some((l) => l.message.includes('not applied'))).toBe(false);
    expect(logs.find((l) => l.event === 'routed' && l.team_id === dba.id && l.message.includes('starts after 10 minutes'))).toBeDefined();

    // Early: nothing yet. Due: the DBA team is paged, once, even when the firing is repeated.
    await onAlertTimer(timerOf(delayed!), new Date(Date.parse(delayed!.dueAt) - 1000));
    expect(await pagedIds(alertId)).toEqual([now1.id]);
    await fire(delayed!);
    await fire(delayed!);
    expect(await pagedIds(alertId)).toEqual([now1.id, later1.id, lead.id]);
    const paged = (await logsOf(acme.accountId, alertId)).find((l) => l.event === 'paged' && l.account_user_id === later1.id);
    expect(paged!.message).toContain("the router's delay before this destination ended");
    expect((await timersOf(alertId, 'delayed_start'))[0]!.state).toBe('fired');
    // The started team and person wait on their own timeouts.
    expect((await timersOf(alertId, 'layer_timeout')).filter((t) => t.state === 'pending')).toHaveLength(3);
  });

  it('an alert whose only receiver is delayed is open and pages nobody yet; acknowledged first, the delay pages nobody', async () => {
    const person = await addAccountUser(acme);
    const r = await router('Only later', `rules:\n- match: {always: true}\n  actions:\n  - {type: assign, receiver: [${person.prefix_id}], delay: 5m}\n`);
    const reply = await acme.api('POST', '/alerts', { title: 'Later', urgency: 'low', destination_router_ids: [r.id] });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.status).toBe('open');
    const alertId = reply.body.id as string;
    expect(await pagedIds(alertId)).toEqual([]);

    const ack = await acme.api('POST', `/alerts/${alertId}/acknowledge`);
    expect(ack.status, ack.text).toBe(200);
    const [delayed] = await timersOf(alertId, 'delayed_start');
    await fire(delayed!);
    expect(await pagedIds(alertId)).toEqual([]);
    expect((await timersOf(alertId, 'delayed_start'))[0]!.state).toBe('fired');
    expect((await acme.api('GET', `/alerts/${alertId}`)).body.status).toBe('acknowledged');
  });

  it('a create holding back more delays than its transaction holds stores them through one deliver timer, each once', { timeout: 240_000 }, async () => {
    // More distinct delays than a create keeps in its own transaction (half of it, docs/alerts.md).
    const DELAYS = 60;
    const people: Awaited<ReturnType<typeof addAccountUser>>[] = [];
    for (let i = 0; i < DELAYS; i += 10) people.push(...(await Promise.all(Array.from({ length: Math.min(10, DELAYS - i) }, () => addAccountUser(acme)))));
    // A router names at most 90 receivers: two routers hold back the people, each by its own delay.
    const actions = people.map((p, i) => `  - {type: assign, receiver: [${p.prefix_id}], delay: ${i + 1}m}`);
    const halves = [actions.slice(0, DELAYS / 2), actions.slice(DELAYS / 2)];
    const routers = await Promise.all(halves.map((half, i) => router(`Many delays ${i}`, `rules:\n- match: {always: true}\n  actions:\n${half.join('\n')}\n`)));
    const reply = await acme.api('POST', '/alerts', { title: 'Fan-out later', urgency: 'low', destination_router_ids: routers.map((r) => r.id) });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.status).toBe('open');
    const alertId = reply.body.id as string;
    // Stored with the alert: one deliver timer carrying every delayed start (the stack's own worker may already have
    // fired it; firing it again, twice, stores nothing twice).
    // (A second deliver timer carries the `routed` log entries, which do not fit either.)
    const carriers = (await timersOf(alertId, 'deliver')).filter((t) => (t.payload as { timers?: unknown[] }).timers !== undefined);
    expect(carriers).toHaveLength(1);
    const carrier = carriers[0];
    expect((carrier!.payload as { timers: unknown[] }).timers).toHaveLength(DELAYS);
    await fire({ ...carrier!, state: 'pending' });
    await fire(carrier!);
    const delayed = await timersOf(alertId, 'delayed_start');
    expect(delayed).toHaveLength(DELAYS);
    expect(new Set(delayed.map((t) => Date.parse(t.dueAt) - Date.parse(reply.body.created_at))).size).toBe(DELAYS);
    expect(delayed.every((t) => t.state === 'pending')).toBe(true);
    const routed = (await logsOf(acme.accountId, alertId)).filter((l) => l.event === 'routed' && l.message.includes('starts after'));
    expect(routed).toHaveLength(DELAYS);
    // The first one starts its person when it fires.
    const first = delayed.sort((a, b) => a.dueAt.localeCompare(b.dueAt))[0]!;
    await fire(first);
    expect(await pagedIds(alertId)).toEqual([people[0]!.id]);
  });
});
