// What the alerts issue asks to see through the gateway beyond test/integration/alerts.test.ts: escalation with
// repeat (repeat 1 → two passes) ending in a drop with the team's drop notifications, the router `ignore` and
// `incident` actions, and the refusals of every transition from every status that refuses it.
// Rules: docs/alerts.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { onAlertTimer } from '../../lib/alerts/index.ts';
import { queryPrefix } from '../../lib/db/items.ts';
import { alertPk } from '../../lib/db/keys.ts';
import { timerOf, type TimerItem } from '../../lib/timers/items.ts';
import { addAccountUser, errorMessages, newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';

let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alerts audit');
});

const data = async (path: string) => (await acme.api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100`)).body.data as Record<string, any>[];
const pendingTimers = async (alertId: string) =>
  (await queryPrefix<TimerItem>(alertPk(acme.accountId, alertId), 'TIMER#')).filter((t) => t.state === 'pending' && t.kind === 'layer_timeout');
/** Fires every pending layer timeout at its due time, as the timers worker would. */
async function fireDue(alertId: string): Promise<number> {
  const timers = await pendingTimers(alertId);
  for (const t of timers) await onAlertTimer(timerOf(t), new Date(Date.parse(t.dueAt)));
  return timers.length;
}

async function router(name: string, rules: string): Promise<string> {
  const reply = await acme.api('POST', '/routers', { name, rules, default_receiver_account_user_id: acme.adminAccountUserId });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.id;
}

describe('escalation with repeat, then drop', () => {
  it('repeat 1: the layer is paged on two passes; then the alert is dropped and the team drop notification goes out', async () => {
    const [ann, watcher] = await Promise.all([addAccountUser(acme), addAccountUser(acme)]);
    const team = await teamWithOnCall(acme, [[ann.id]], 'Repeat');
    const policy = await acme.api('PUT', `/escalation_policies/${team.escalation_policy_id}`, { repeat: 1 });
    expect(policy.status, policy.text).toBe(200);
    const teamUpdate = await acme.api('PUT', `/teams/${team.id}`, { drop_notifications: 'specific_users', drop_notification_account_user_ids: [watcher.id] });
    expect(teamUpdate.status, teamUpdate.text).toBe(200);

    const alert = (await acme.api('POST', '/alerts', { title: 'Repeat me', urgency: 'high', destination_team_ids: [team.id] })).body;
    expect(alert.status).toBe('open');
    expect(await fireDue(alert.id)).toBe(1); // pass 1 times out (layers 2 and 3 have nobody: skipped) → pass 2
    expect((await acme.api('GET', `/alerts/${alert.id}`)).body.status).toBe('open');
    expect(await fireDue(alert.id)).toBe(1); // pass 2 times out → nobody left
    expect(await pendingTimers(alert.id)).toEqual([]);

    expect((await acme.api('GET', `/alerts/${alert.id}`)).body.status).toBe('dropped');
    const logs = await data(`/alerts/${alert.id}/logs`);
    expect(logs.filter((l) => l.event === 'paged').map((l) => [l.account_user_id, l.layer, l.pass])).toEqual([
      [ann.id, 1, 1],
      [ann.id, 1, 2],
    ]);
    expect(logs.filter((l) => l.event === 'repeated')).toHaveLength(1);
    expect(logs.filter((l) => l.event === 'dropped')).toHaveLength(1);
    const notifications = await data(`/alerts/${alert.id}/notifications`);
    const dropped = notifications.filter((n) => n.type === 'alert.dropped');
    expect(dropped.length).toBeGreaterThan(0);
    expect(new Set(dropped.map((n) => n.account_user_id))).toEqual(new Set([watcher.id]));
    const workflows = await data(`/alerts/${alert.id}/workflows`);
    expect(workflows.filter((w) => w.kind === 'account_user').map((w) => [w.pass, w.status])).toEqual([
      [1, 'timed_out'],
      [2, 'timed_out'],
    ]);
  });
});

describe('router actions', () => {
  it('ignore: the alert is suppressed and nobody is paged', async () => {
    const r = await router('Ignore noise', 'rules:\n- match: {alert.title: {$regex: noise}}\n  actions: [{type: ignore}]\n');
    const reply = await acme.api('POST', '/alerts', { title: 'just noise', urgency: 'low', destination_router_ids: [r] });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.status).toBe('suppressed');
    expect(await data(`/alerts/${reply.body.id}/notifications`)).toEqual([]);
    expect((await data(`/alerts/${reply.body.id}/logs`)).some((l) => l.event === 'suppressed' && l.router_id === r)).toBe(true);
  });

  it('incident: sets meta.incident, its severity and a rendered message; the default receiver is paged', async () => {
    const r = await router('Incidents', 'rules:\n- match: {always: true}\n  actions: [{type: incident, severity: sev-1, handlebars: true, message: "Checkout: {{alert.title}}"}]\n');
    const reply = await acme.api('POST', '/alerts', { title: 'payments down', urgency: 'critical', destination_router_ids: [r] });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.meta).toMatchObject({ incident: true, incident_severity: 'SEV-1', incident_message: 'Checkout: payments down' });
    expect(reply.body.status).toBe('open');
    expect((await data(`/alerts/${reply.body.id}/logs`)).filter((l) => l.event === 'paged').map((l) => l.account_user_id)).toEqual([acme.adminAccountUserId]);
  });
});

describe('every refusal of every transition', () => {
  it('acknowledge, resolve and reject from each status that refuses them: 422 naming the status', async () => {
    const ann = await addAccountUser(acme);
    const ack = (s: string) => `status is ${s}; only an open, dropped or suppressed alert can be acknowledged`;
    const resolve = (s: string) => `status is ${s}; only an open, dropped or acknowledged alert can be resolved`;
    const reject = (s: string) => `status is ${s}; only an open alert can be rejected`;
    /** The 422 message of an action, or its status when it is accepted. */
    const act = async (id: string, action: string) => {
      const reply = await acme.api('POST', `/alerts/${id}/${action}`);
      return reply.status === 422 ? errorMessages(reply)[0] : reply.status;
    };

    // suppressed: resolve and reject refused
    const ignore = await router('Ignore all', 'rules:\n- match: {always: true}\n  actions: [{type: ignore}]\n');
    const suppressed = (await acme.api('POST', '/alerts', { title: 's', urgency: 'low', destination_router_ids: [ignore] })).body;
    expect((await acme.api('POST', `/alerts/${suppressed.id}/resolve`)).body).toEqual({ errors: [{ message: resolve('suppressed') }], code: 422 });
    expect(await act(suppressed.id, 'reject')).toBe(reject('suppressed'));

    // dropped (a team with nobody on call): reject refused
    const empty = await teamWithOnCall(acme, [], 'Nobody');
    const dropped = (await acme.api('POST', '/alerts', { title: 'd', urgency: 'low', destination_team_ids: [empty.id] })).body;
    expect(dropped.status).toBe('dropped');
    expect(await act(dropped.id, 'reject')).toBe(reject('dropped'));

    // open: a reject by someone without an open workflow is refused
    const open = (await acme.api('POST', '/alerts', { title: 'o', urgency: 'low', destination_account_user_ids: [ann.id] })).body;
    expect(await act(open.id, 'reject')).toBe(`account user ${acme.adminAccountUserId} has no open workflow on this alert; only a person being paged can reject it`);

    // acknowledged: acknowledge and reject refused
    expect(await act(open.id, 'acknowledge')).toBe(200);
    expect(await act(open.id, 'acknowledge')).toBe(ack('acknowledged'));
    expect(await act(open.id, 'reject')).toBe(reject('acknowledged'));

    // resolved: everything refused
    expect(await act(open.id, 'resolve')).toBe(200);
    expect([await act(open.id, 'acknowledge'), await act(open.id, 'resolve'), await act(open.id, 'reject')]).toEqual([ack('resolved'), resolve('resolved'), reject('resolved')]);
    expect((await acme.api('GET', `/alerts/${open.id}`)).body.status).toBe('resolved');

    // and the moves allowed out of suppressed and dropped
    expect(await act(suppressed.id, 'acknowledge')).toBe(200);
    expect(await act(dropped.id, 'resolve')).toBe(200);
  });
});
