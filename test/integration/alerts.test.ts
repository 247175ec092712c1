// Alerts through the gateway: create (validation, routing to teams and people, dropped when nobody is on call),
// the actions and every refusal, escalation by timers (fired here directly through the timers handler, as the
// timers worker does), reject, acknowledgement stopping all paging, concurrent acknowledges, the per-alert views,
// lists with exact counts, updates, deletes and other accounts' alerts. Rules: docs/alerts.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { queryPrefix } from '../../lib/db/items.ts';
import { alertPk } from '../../lib/db/keys.ts';
import { onAlertTimer } from '../../lib/alerts/index.ts';
import { partitionOf } from '../../lib/alerts/store.ts';
import { timerOf, type TimerItem } from '../../lib/timers/items.ts';
import { addAccountUser, errorMessages, newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';
import { personWithKey } from './members.ts';


let acme: TestAccount;
let globex: TestAccount;

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Alerts'), newAccount('Alerts other')]);
});

const person = personWithKey;

async function createAlert(account: TestAccount, body: Record<string, unknown>) {
  const reply = await account.api('POST', '/alerts', { title: 'Disk full', urgency: 'high', ...body });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const list = async (account: TestAccount, path: string) => {
  const reply = await account.api('GET', path);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { data: any[]; has_more: boolean; total_count: number };
};
const logsOf = async (account: TestAccount, id: string) => (await list(account, `/alerts/${id}/logs?limit=100`)).data;
const workflowsOf = async (account: TestAccount, id: string) => (await list(account, `/alerts/${id}/workflows?limit=100`)).data;
const notificationsOf = async (account: TestAccount, id: string) => (await list(account, `/alerts/${id}/notifications?limit=100`)).data;
const paged = async (account: TestAccount, id: string) =>
  (await logsOf(account, id)).filter((l) => l.event === 'paged').map((l) => [l.account_user_id, l.layer, l.pass]);

/** The alert's own pending timers, as stored (the delivery timers of its records, in the same partition, left out). */
async function pendingTimers(account: TestAccount, alertId: string): Promise<TimerItem[]> {
  const items = await queryPrefix<TimerItem>(alertPk(account.accountId, alertId), 'TIMER#');
  return items.filter((t) => t.state === 'pending' && t.ownerType === 'alert');
}

/**
 * A record's status once queued: the test stack configures no provider, so its timers worker may already have sent
 * it meanwhile, as `suppressed` (docs/notifications.md).
 */
const queuedStatus = (status: string) => (status === 'suppressed' ? 'queued' : status);

/** Fires every pending timer of the alert at its due time, as the timers worker does. */
async function fireTimers(account: TestAccount, alertId: string): Promise<number> {
  const timers = await pendingTimers(account, alertId);
  for (const t of timers) await onAlertTimer(timerOf(t), new Date(Date.parse(t.dueAt)));
  return timers.length;
}

describe('POST /alerts: validation', () => {
  it('422 naming each missing or invalid field, and nothing is written', async () => {
    const user = await addAccountUser(acme);
    const before = (await list(acme, '/alerts?limit=1')).total_count;
    expect(errorMessages(await acme.api('POST', '/alerts', { destination_account_user_ids: [user.id] }))).toEqual(['title is required', 'urgency is required']);
    expect(errorMessages(await acme.api('POST', '/alerts', { title: 'x', urgency: 'urgent', destination_account_user_ids: [user.id] }))).toEqual([
      'urgency must be one of low, medium, high, critical',
    ]);
    expect(errorMessages(await acme.api('POST', '/alerts', { title: 'x', urgency: 'low' }))).toEqual([
      'destination_team_ids, destination_router_ids or destination_account_user_ids must name at least one destination',
    ]);
    const unknown = await acme.api('POST', '/alerts', {
      title: 'x',
      urgency: 'low',
      destination_team_ids: ['tem_abcdefghijkl'],
      destination_account_user_ids: [user.id, 'usr_abcdefghijkl'],
      destination_router_ids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    });
    expect(unknown.status).toBe(422);
    expect(errorMessages(unknown)).toEqual([
      'destination_team_ids contains unknown team tem_abcdefghijkl',
      'destination_router_ids contains unknown router 01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'destination_account_user_ids contains unknown account user usr_abcdefghijkl',
    ]);
    expect(errorMessages(await acme.api('POST', '/alerts', { title: 'x', urgency: 'low', destination_account_user_ids: [user.id], meta: { incident: true } }))).toEqual([
      'meta.incident_severity is required when meta.incident is true: one of SEV-1, SEV-2, SEV-3, SEV-4, SEV-5, SEV-UNKNOWN',
    ]);
    expect(errorMessages(await acme.api('POST', '/alerts', { title: 'x', urgency: 'low', destination_account_user_ids: [user.id], meta: { incident: 'yes', incident_severity: 'SEV-9' } }))).toEqual([
      'meta.incident must be true or false',
      'meta.incident_severity must be one of SEV-1, SEV-2, SEV-3, SEV-4, SEV-5, SEV-UNKNOWN',
    ]);
    // Another account's team is unknown here.
    const foreign = (await globex.api('POST', '/teams', { name: 'Theirs' })).body;
    expect(errorMessages(await acme.api('POST', '/alerts', { title: 'x', urgency: 'low', destination_team_ids: [foreign.id] }))).toEqual([
      `destination_team_ids contains unknown team ${foreign.id}`,
    ]);
    expect((await list(acme, '/alerts?limit=1')).total_count).toBe(before);
  });
});

describe('POST /alerts: routing', () => {
  it('a team destination copies the policy and pages who is on call on layer 1 now, on their default channels', async () => {
    const ann = await person(acme);
    const team = await teamWithOnCall(acme, [[ann.id]]);
    const alert = await createAlert(acme, {
      description: 'on /var',
      tags: ['disk', 'db', 'disk'],
      meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'Checkout degraded' },
      dedup_keys: ['host-1'],
      destination_team_ids: [team.prefix_id],
    });
    expect(alert).toMatchObject({
      prefix_id: expect.stringMatching(/^alt_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      title: 'Disk full',
      description: 'on /var',
      urgency: 'high',
      status: 'open',
      tag_list: ['disk', 'db'],
      source_type: 'AccountUser',
      source_id: acme.adminAccountUserId,
      source_log_id: null,
      thirdparty_id: null,
      acknowledged_at: null,
      resolved_at: null,
      dedup_keys: ['host-1'],
      dedup_count: 0,
      additional_data: [],
      parent_id: null,
      destination_team_ids: [team.id],
      destination_router_ids: [],
      destination_account_user_ids: [],
      meta: { incident: true, incident_severity: 'SEV-2', incident_message: 'Checkout degraded' },
    });
    expect(alert).not.toHaveProperty('escalation');
    expect((await acme.api('GET', `/alerts/${alert.prefix_id}`)).body).toEqual(alert);

    expect((await logsOf(acme, alert.id)).map((l) => l.event)).toEqual(['created', 'routed', 'paged', 'notified']);
    expect(await paged(acme, alert.id)).toEqual([[ann.id, 1, 1]]);
    const workflows = await workflowsOf(acme, alert.id);
    expect(workflows.map((w) => [w.kind, w.team_id, w.account_user_id, w.layer, w.pass, w.status])).toEqual([
      ['team', team.id, null, 1, 1, 'open'],
      ['account_user', team.id, ann.id, 1, 1, 'open'],
    ]);
    // Layer 1 of the default policy waits 5 minutes.
    expect(Date.parse(workflows[1].deadline_at) - Date.parse(workflows[1].started_at)).toBe(5 * 60_000);
    const notifications = await notificationsOf(acme, alert.id);
    expect(notifications.map((n) => [n.account_user_id, n.channel, n.type, queuedStatus(n.status), n.layer, n.pass])).toEqual([
      [ann.id, 'push', 'alert.open', 'queued', 1, 1],
      [ann.id, 'email', 'alert.open', 'queued', 1, 1],
    ]);
    const message = await acme.api('GET', `/outbox/${notifications[1].outbox_id}`);
    expect(message.body).toMatchObject({ channel: 'email', template: 'alert_page', account_user_id: ann.id });
    expect(queuedStatus(message.body.status)).toBe('queued');
    expect(message.body.subject).toContain('Disk full');
    // One timer waits for layer 1.
    expect((await pendingTimers(acme, alert.id)).map((t) => t.dueAt)).toEqual([workflows[1].deadline_at]);
  });

  it('the policy is copied when the alert arrives: editing it later does not change the escalation in flight', async () => {
    const ann = await person(acme);
    const team = await teamWithOnCall(acme, [[ann.id]]);
    const alert = await createAlert(acme, { destination_team_ids: [team.id] });
    const policy = (await acme.api('GET', `/escalation_policies/${team.escalation_policy_id}`)).body;
    const layerIds = policy.escalation_layers.map((l: { id: string }) => l.id);
    expect((await acme.api('PUT', `/escalation_policies/${policy.id}`, { escalation_layers_attributes: [{ id: layerIds[0], timeout: 60 }] })).status).toBe(200);
    const [timer] = await pendingTimers(acme, alert.id);
    expect(Date.parse(timer!.dueAt) - Date.parse(alert.created_at)).toBe(5 * 60_000);
  });

  it('a team with nobody on call: dropped at once, with the reason in the log', async () => {
    const team = await teamWithOnCall(acme, []);
    const alert = await createAlert(acme, { destination_team_ids: [team.id] });
    expect(alert.status).toBe('dropped');
    const events = (await logsOf(acme, alert.id)).map((l) => l.event);
    expect(events).toEqual(['created', 'routed', 'skipped', 'skipped', 'skipped', 'exhausted', 'dropped']);
    expect(await pendingTimers(acme, alert.id)).toEqual([]);
  });

  it('an account user destination is paged directly and has 30 minutes', async () => {
    const bob = await person(acme);
    const alert = await createAlert(acme, { destination_account_user_ids: [bob.id] });
    expect(alert.status).toBe('open');
    expect(alert.destination_account_user_ids).toEqual([bob.id]);
    const workflows = await workflowsOf(acme, alert.id);
    expect(workflows.map((w) => [w.kind, w.account_user_id, w.status])).toEqual([['account_user', bob.id, 'open']]);
    expect(Date.parse(workflows[0].deadline_at) - Date.parse(workflows[0].started_at)).toBe(30 * 60_000);
    // The direct page times out: nothing else runs, so the alert is dropped.
    expect(await fireTimers(acme, alert.id)).toBe(1);
    const after = (await acme.api('GET', `/alerts/${alert.id}`)).body;
    expect(after.status).toBe('dropped');
    expect((await workflowsOf(acme, alert.id))[0].status).toBe('timed_out');
  });

  it('a notification rule that matches chooses the channels; one that ignores queues nothing', async () => {
    const [carol, dave] = await Promise.all([person(acme), person(acme)]);
    const sms = await acme.api('POST', '/notification_rules', { name: 'Email only', rules: 'rules:\n- match: {"alert.urgency": high}\n  actions: [{type: notify, channels: [email]}]\n' });
    expect(sms.status, sms.text).toBe(201);
    const quiet = await acme.api('POST', '/notification_rules', { name: 'Quiet', rules: 'rules:\n- match: {always: true}\n  actions: [{type: ignore}]\n' });
    expect(quiet.status, quiet.text).toBe(201);
    await acme.api('PUT', `/account_users/${carol.id}`, { notification_rule_id: sms.body.id });
    await acme.api('PUT', `/account_users/${dave.id}`, { notification_rule_id: quiet.body.id });
    const alert = await createAlert(acme, { destination_account_user_ids: [carol.id, dave.id] });
    const notifications = await notificationsOf(acme, alert.id);
    expect(notifications.map((n) => [n.account_user_id, n.channel, n.channel === null ? n.status : queuedStatus(n.status)])).toEqual([
      [carol.id, 'email', 'queued'],
      [dave.id, null, 'suppressed'],
    ]);
  });
});

describe('actions', () => {
  it('acknowledge, resolve and every refusal, naming the current status', async () => {
    const ann = await person(acme);
    const alert = await createAlert(acme, { destination_account_user_ids: [ann.id] });
    const ack = await ann.api('POST', `/alerts/${alert.prefix_id}/acknowledge`);
    expect(ack.status, ack.text).toBe(200);
    expect(ack.body.status).toBe('acknowledged');
    expect(ack.body.acknowledged_at).toEqual(expect.any(String));
    const again = await ann.api('POST', `/alerts/${alert.id}/acknowledge`);
    expect(again.status).toBe(422);
    expect(errorMessages(again)).toEqual(['status is acknowledged; only an open, dropped or suppressed alert can be acknowledged']);
    expect(errorMessages(await ann.api('POST', `/alerts/${alert.id}/reject`))).toEqual(['status is acknowledged; only an open alert can be rejected']);
    const resolved = await ann.api('POST', `/alerts/${alert.id}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', acknowledged_at: ack.body.acknowledged_at, resolved_at: expect.any(String) });
    expect(errorMessages(await ann.api('POST', `/alerts/${alert.id}/resolve`))).toEqual(['status is resolved; only an open, dropped or acknowledged alert can be resolved']);
    expect(errorMessages(await ann.api('POST', `/alerts/${alert.id}/acknowledge`))).toEqual(['status is resolved; only an open, dropped or suppressed alert can be acknowledged']);
    expect((await logsOf(acme, alert.id)).map((l) => l.event).slice(-2)).toEqual(['acknowledged', 'resolved']);
    expect((await workflowsOf(acme, alert.id)).map((w) => w.status)).toEqual(['acknowledged']);
  });

  it('a dropped alert can be acknowledged, and an open one resolved directly', async () => {
    const team = await teamWithOnCall(acme, []);
    const dropped = await createAlert(acme, { destination_team_ids: [team.id] });
    expect((await acme.api('POST', `/alerts/${dropped.id}/acknowledge`)).body.status).toBe('acknowledged');
    const ann = await person(acme);
    const open = await createAlert(acme, { destination_account_user_ids: [ann.id] });
    expect((await acme.api('POST', `/alerts/${open.id}/resolve`)).body).toMatchObject({ status: 'resolved', acknowledged_at: null });
  });

  it('a layer timeout pages the next layer; acknowledgement stops all paging, and the stale timer does nothing', async () => {
    const [ann, ben, cid] = await Promise.all([person(acme), person(acme), person(acme)]);
    const team = await teamWithOnCall(acme, [[ann.id], [ben.id], [cid.id]]);
    const alert = await createAlert(acme, { destination_team_ids: [team.id] });
    expect(await fireTimers(acme, alert.id)).toBe(1);
    expect(await paged(acme, alert.id)).toEqual([
      [ann.id, 1, 1],
      [ben.id, 2, 1],
    ]);
    const [layer2] = await pendingTimers(acme, alert.id);
    expect((await ben.api('POST', `/alerts/${alert.id}/acknowledge`)).status).toBe(200);
    const notificationsBefore = (await notificationsOf(acme, alert.id)).length;
    // The wake-up of layer 2 still arrives: its epoch is stale, it only marks the timer fired.
    await onAlertTimer(timerOf(layer2!), new Date(Date.parse(layer2!.dueAt)));
    expect(await pendingTimers(acme, alert.id)).toEqual([]);
    expect(await paged(acme, alert.id)).toEqual([
      [ann.id, 1, 1],
      [ben.id, 2, 1],
    ]);
    expect((await notificationsOf(acme, alert.id)).length).toBe(notificationsBefore);
    const workflows = await workflowsOf(acme, alert.id);
    expect(workflows.map((w) => [w.kind, w.account_user_id, w.status])).toEqual([
      ['team', null, 'acknowledged'],
      ['account_user', ann.id, 'timed_out'],
      ['account_user', ben.id, 'acknowledged'],
    ]);
  });

  it('a firing delivered twice pages once', async () => {
    const [ann, ben] = await Promise.all([person(acme), person(acme)]);
    const team = await teamWithOnCall(acme, [[ann.id], [ben.id]]);
    const alert = await createAlert(acme, { destination_team_ids: [team.id] });
    const [timer] = await pendingTimers(acme, alert.id);
    const due = new Date(Date.parse(timer!.dueAt));
    await Promise.all([onAlertTimer(timerOf(timer!), due), onAlertTimer(timerOf(timer!), due)]);
    expect(await paged(acme, alert.id)).toEqual([
      [ann.id, 1, 1],
      [ben.id, 2, 1],
    ]);
  });

  it('reject: only a person with an open workflow; when everyone on the layer rejected, the next layer is paged at once', async () => {
    const [ann, dave, ben, outsider] = await Promise.all([person(acme), person(acme), person(acme), person(acme)]);
    const team = await teamWithOnCall(acme, [[ann.id, dave.id], [ben.id]]);
    const alert = await createAlert(acme, { destination_team_ids: [team.id] });
    const refused = await outsider.api('POST', `/alerts/${alert.id}/reject`);
    expect(refused.status).toBe(422);
    expect(errorMessages(refused)).toEqual([`account user ${outsider.id} has no open workflow on this alert; only a person being paged can reject it`]);
    expect((await ann.api('POST', `/alerts/${alert.id}/reject`)).body.status).toBe('open');
    expect(await paged(acme, alert.id)).toEqual([
      [ann.id, 1, 1],
      [dave.id, 1, 1],
    ]);
    expect(errorMessages(await ann.api('POST', `/alerts/${alert.id}/reject`))).toEqual([
      `account user ${ann.id} has no open workflow on this alert; only a person being paged can reject it`,
    ]);
    await dave.api('POST', `/alerts/${alert.id}/reject`);
    expect(await paged(acme, alert.id)).toEqual([
      [ann.id, 1, 1],
      [dave.id, 1, 1],
      [ben.id, 2, 1],
    ]);
    const statuses = (await workflowsOf(acme, alert.id)).filter((w) => w.kind === 'account_user').map((w) => [w.account_user_id, w.status]);
    expect(statuses).toEqual([
      [ann.id, 'rejected'],
      [dave.id, 'rejected'],
      [ben.id, 'open'],
    ]);
    // The layer-1 timer fires later and does nothing: the escalation left layer 1.
    await fireTimers(acme, alert.id);
    expect((await paged(acme, alert.id)).length).toBeGreaterThanOrEqual(3);
    expect((await paged(acme, alert.id)).filter(([who]) => who === ann.id)).toEqual([[ann.id, 1, 1]]);
  });

  it('reassign: when the passes are done the reassign team gets its own escalation, in the same step', async () => {
    const [ann, zoe] = await Promise.all([person(acme), person(acme)]);
    const backup = await teamWithOnCall(acme, [[zoe.id]], 'Backup');
    const team = await teamWithOnCall(acme, [[ann.id]], 'Front');
    const policy = (await acme.api('GET', `/escalation_policies/${team.escalation_policy_id}`)).body;
    const layers = policy.escalation_layers.map((l: { id: string }) => l.id);
    const edit = await acme.api('PUT', `/escalation_policies/${policy.id}`, {
      reassign_team_ids: [backup.id],
      escalation_layers_attributes: layers.slice(1).map((id: string) => ({ id, _destroy: true })),
    });
    expect(edit.status, edit.text).toBe(200);
    const alert = await createAlert(acme, { destination_team_ids: [team.id] });
    await fireTimers(acme, alert.id);
    const logs = await logsOf(acme, alert.id);
    expect(logs.map((l) => l.event)).toContain('reassigned');
    expect(await paged(acme, alert.id)).toEqual([
      [ann.id, 1, 1],
      [zoe.id, 1, 1],
    ]);
    expect((await acme.api('GET', `/alerts/${alert.id}`)).body.status).toBe('open');
  });

  it('two concurrent acknowledges: one 200, one 422; nobody is paged after', async () => {
    const [ann, ben] = await Promise.all([person(acme), person(acme)]);
    const team = await teamWithOnCall(acme, [[ann.id, ben.id], [ben.id]]);
    const alert = await createAlert(acme, { destination_team_ids: [team.id] });
    const replies = await Promise.all([ann.api('POST', `/alerts/${alert.id}/acknowledge`), ben.api('POST', `/alerts/${alert.id}/acknowledge`)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = replies.find((r) => r.status === 422)!;
    expect(errorMessages(refused)).toEqual(['status is acknowledged; only an open, dropped or suppressed alert can be acknowledged']);
    await fireTimers(acme, alert.id);
    expect(await paged(acme, alert.id)).toEqual([
      [ann.id, 1, 1],
      [ben.id, 1, 1],
    ]);
    expect((await logsOf(acme, alert.id)).filter((l) => l.event === 'acknowledged')).toHaveLength(1);
  });

  it('404 for an unknown alert and for another account’s alert, on every alert endpoint', async () => {
    const ann = await person(acme);
    const alert = await createAlert(acme, { destination_account_user_ids: [ann.id] });
    await acme.api('POST', `/alerts/${alert.id}/comments`, { body: 'Looking' });
    // What the owner sees of the alert: each refused change below must leave all of it as it was.
    const seen = async () => ({
      alert: (await acme.api('GET', `/alerts/${alert.id}`)).body,
      comments: (await acme.api('GET', `/alerts/${alert.id}/comments?limit=100`)).body,
      logs: (await acme.api('GET', `/alerts/${alert.id}/logs?limit=100`)).body,
    });
    const before = await seen();
    expect(before.alert).toMatchObject({ status: 'open', title: alert.title });
    expect(before.comments.data).toHaveLength(1);
    for (const [method, path] of [
      ['GET', `/alerts/${alert.id}`],
      ['GET', `/alerts/${alert.prefix_id}`],
      ['PUT', `/alerts/${alert.id}`],
      ['DELETE', `/alerts/${alert.id}`],
      ['POST', `/alerts/${alert.id}/acknowledge`],
      ['POST', `/alerts/${alert.id}/resolve`],
      ['POST', `/alerts/${alert.id}/reject`],
      ['GET', `/alerts/${alert.id}/logs`],
      ['GET', `/alerts/${alert.id}/workflows`],
      ['GET', `/alerts/${alert.id}/notifications`],
      ['GET', `/alerts/${alert.id}/comments`],
      ['POST', `/alerts/${alert.id}/comments`],
      ['GET', '/alerts/alt_abcdefghijkl'],
    ] as const) {
      const reply = await globex.api(method, path, method === 'POST' || method === 'PUT' ? { body: 'x', title: 'y' } : undefined);
      expect([path, reply.status]).toEqual([path, 404]);
      expect(errorMessages(reply)).toEqual(['Alert not found']);
    }
    // Status, title, comments and log exactly as before: not acknowledged, resolved, rejected, renamed or commented on.
    // The comment and its timeline entry first, by name, so a comment that landed says so.
    const after = await seen();
    expect(after.comments.data.map((c: { body: string }) => c.body), 'the comments on the alert').toEqual(['Looking']);
    expect(after.logs.data.filter((l: { event: string }) => l.event === 'commented'), 'the alert’s commented log entries').toHaveLength(1);
    expect(after).toEqual(before);
  });
});

describe('PUT /alerts/:id', () => {
  it('changes the editable fields, ignores status, and logs what changed', async () => {
    const ann = await person(acme);
    const alert = await createAlert(acme, { destination_account_user_ids: [ann.id] });
    const reply = await ann.api('PUT', `/alerts/${alert.id}`, { title: 'Disk almost full', urgency: 'low', tag_list: ['x'], status: 'resolved' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ title: 'Disk almost full', urgency: 'low', tag_list: ['x'], status: 'open' });
    expect((await acme.api('GET', `/alerts/${alert.id}`)).body).toEqual(reply.body);
    const updated = (await logsOf(acme, alert.id)).filter((l) => l.event === 'updated');
    expect(updated.map((l) => l.message)).toEqual([`Alert updated by account user ${ann.id}: title, urgency, tag_list.`]);
    expect(errorMessages(await acme.api('PUT', `/alerts/${alert.id}`, { title: '' }))).toEqual(["title can't be blank"]);
  });
});

describe('lists', () => {
  it('newest first with exact total_count; by status and by team from their indexes; other filters through the list engine', async () => {
    const account = await newAccount('Alert lists');
    const ann = await addAccountUser(account);
    const team = (await account.api('POST', '/teams', { name: 'Empty' })).body;
    const first = (await account.api('POST', '/alerts', { title: 'first', urgency: 'low', destination_account_user_ids: [ann.id] })).body;
    const second = (await account.api('POST', '/alerts', { title: 'second', urgency: 'critical', destination_team_ids: [team.id] })).body;
    const third = (await account.api('POST', '/alerts', { title: 'third', urgency: 'low', destination_account_user_ids: [ann.id], destination_team_ids: [team.id] })).body;
    expect([first.status, second.status, third.status]).toEqual(['open', 'dropped', 'open']);

    const all = await list(account, '/alerts');
    expect(all.data.map((a) => a.title)).toEqual(['third', 'second', 'first']);
    expect([all.total_count, all.has_more]).toEqual([3, false]);
    const page = await list(account, '/alerts?limit=1&offset=1');
    expect([page.data.map((a) => a.title), page.total_count, page.has_more]).toEqual([['second'], 3, true]);
    expect((await list(account, '/alerts?sort=created_at')).data.map((a) => a.title)).toEqual(['first', 'second', 'third']);

    const open = await list(account, '/alerts?status=open');
    expect([open.data.map((a) => a.title), open.total_count]).toEqual([['third', 'first'], 2]);
    await account.api('POST', `/alerts/${first.id}/resolve`);
    expect((await list(account, '/alerts?status=open')).total_count).toBe(1);
    const resolved = await list(account, '/alerts?status=resolved');
    expect([resolved.data.map((a) => a.title), resolved.total_count]).toEqual([['first'], 1]);

    const teamAlerts = await list(account, `/teams/${team.prefix_id}/alerts`);
    expect([teamAlerts.data.map((a) => a.title), teamAlerts.total_count]).toEqual([['third', 'second'], 2]);
    expect((await list(account, `/teams/${team.id}/alerts?status=dropped`)).data.map((a) => a.title)).toEqual(['second']);

    expect((await list(account, '/alerts?urgency=low')).data.map((a) => a.title)).toEqual(['third', 'first']);
    const searched = await list(account, '/alerts?q=SEC');
    expect([searched.data.map((a) => a.title), searched.total_count]).toEqual([['second'], 1]);
    expect((await list(account, `/alerts?created_at=${encodeURIComponent(second.created_at)}&ops=created_at:gte`)).data.map((a) => a.title)).toEqual(['third', 'second']);
    expect((await account.api('GET', '/alerts?limit=0')).status).toBe(422);
  });
});

describe('DELETE /alerts/:id', () => {
  it('admins only; removes the alert with its logs, notifications, timers, comments with their replies, outbox messages, and its counts', async () => {
    const account = await newAccount('Alert delete');
    const ann = await person(account as TestAccount);
    const team = (await account.api('POST', '/teams', { name: 'T' })).body;
    const alert = (await account.api('POST', '/alerts', { title: 'gone', urgency: 'low', destination_account_user_ids: [ann.id], destination_team_ids: [team.id] })).body;
    const comment = await ann.api('POST', `/alerts/${alert.id}/comments`, { body: 'looking' });
    expect(comment.status).toBe(201);
    expect((await ann.api('GET', `/alerts/${alert.id}/comments`)).body.total_count).toBe(1);
    const reply = await ann.api('POST', `/comments/${comment.body.id}/comments`, { body: 'found it' });
    expect(reply.status, reply.text).toBe(201);
    const replyToReply = await account.api('POST', `/comments/${reply.body.id}/comments`, { body: 'thanks' });
    expect(replyToReply.status, replyToReply.text).toBe(201);
    expect((await pendingTimers(account, alert.id)).length).toBe(1);
    const outboxIds = (await notificationsOf(account, alert.id)).map((n) => n.outbox_id).filter((id): id is string => id !== null);
    expect(outboxIds.length).toBeGreaterThan(0);
    for (const id of outboxIds) expect((await account.api('GET', `/outbox/${id}`)).status).toBe(200);

    const denied = await ann.api('DELETE', `/alerts/${alert.id}`);
    expect(denied.status).toBe(403);
    expect((await account.api('DELETE', `/alerts/${alert.prefix_id}`)).status).toBe(204);
    expect((await account.api('GET', `/alerts/${alert.id}`)).status).toBe(404);
    expect((await account.api('GET', `/alerts/${alert.id}/logs`)).status).toBe(404);
    expect((await account.api('GET', `/comments/${comment.body.id}`)).status).toBe(404);
    expect((await account.api('GET', `/comments/${reply.body.id}`)).status).toBe(404);
    expect((await account.api('GET', `/comments/${replyToReply.body.id}`)).status).toBe(404);
    for (const id of outboxIds) expect((await account.api('GET', `/outbox/${id}`)).status).toBe(404);
    expect(await partitionOf(account.accountId, alert.id)).toEqual([]);
    expect((await list(account, '/alerts')).total_count).toBe(0);
    expect((await list(account, '/alerts?status=open')).total_count).toBe(0);
    expect((await list(account, `/teams/${team.id}/alerts`)).total_count).toBe(0);
    expect((await account.api('DELETE', `/alerts/${alert.id}`)).status).toBe(404);
  });
});

describe('router destinations', () => {
  async function router(account: TestAccount, name: string, rules: string, defaults: Record<string, string> = {}) {
    const receiver = Object.keys(defaults).length > 0 ? defaults : { default_receiver_account_user_id: account.adminAccountUserId };
    const reply = await account.api('POST', '/routers', { name, rules, ...receiver });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as { id: string; prefix_id: string };
  }

  it('assign with setval and stakeholder: the routed fields are stored and the team is paged; no match → default receiver', async () => {
    const [ann, bob] = await Promise.all([person(acme), person(acme)]);
    const team = await teamWithOnCall(acme, [[ann.id]]);
    const r = await router(
      acme,
      'Databases',
      `rules:\n- match: {alert.title: {$regex: db, $options: i}}\n  actions:\n  - {type: setval, map: {title: "DB: down", urgency: critical}}\n  - {type: stakeholder, ids: [stk_dba123456789]}\n  - {type: assign, receiver: [${team.prefix_id}]}\n`,
      { default_receiver_account_user_id: bob.id },
    );
    const matched = await createAlert(acme, { title: 'db down', destination_router_ids: [r.prefix_id] });
    expect(matched).toMatchObject({ status: 'open', title: 'DB: down', urgency: 'critical', destination_router_ids: [r.id], stakeholder_ids: ['stk_dba123456789'] });
    expect(await paged(acme, matched.id)).toEqual([[ann.id, 1, 1]]);
    const routed = (await logsOf(acme, matched.id)).filter((l) => l.event === 'routed' && l.router_id === r.id);
    expect(routed.length).toBeGreaterThan(0);

    const other = await createAlert(acme, { title: 'web slow', destination_router_ids: [r.id] });
    expect(await paged(acme, other.id)).toEqual([[bob.id, 1, 1]]);
  });

  it('ignore → suppressed, nobody paged; still acknowledgeable', async () => {
    const r = await router(acme, 'Noise', 'rules:\n- match: {alert.urgency: low}\n  actions: [{type: ignore}]\n');
    const alert = await createAlert(acme, { urgency: 'low', destination_router_ids: [r.id] });
    expect(alert.status).toBe('suppressed');
    expect(await paged(acme, alert.id)).toEqual([]);
    expect((await logsOf(acme, alert.id)).map((l) => l.event)).toContain('suppressed');
    expect((await list(acme, '/alerts?status=suppressed')).data.map((a: { id: string }) => a.id)).toContain(alert.id);
    expect((await acme.api('POST', `/alerts/${alert.id}/acknowledge`)).body.status).toBe('acknowledged');
  });

  it('aggregate: the first alert of a fingerprint is paged; later ones in the window become its suppressed children', async () => {
    const ann = await person(acme);
    const r = await router(acme, 'Grouping', `rules:\n- match: {always: true}\n  actions:\n  - {type: aggregate, by: [alert.title], timeout: 30m, receiver: ${ann.prefix_id}}\n`);
    const title = `grouped ${Date.now()}`;
    const parent = await createAlert(acme, { title, destination_router_ids: [r.id] });
    expect(parent).toMatchObject({ status: 'open', parent_id: null });
    const child = await createAlert(acme, { title, destination_router_ids: [r.id] });
    expect(child).toMatchObject({ status: 'suppressed', parent_id: parent.id });
    expect(await paged(acme, child.id)).toEqual([]);
    expect((await logsOf(acme, child.id)).map((l) => l.event)).toContain('aggregated');
    expect((await acme.api('GET', `/alerts/${parent.id}`)).body.dedup_count).toBe(1);
    expect((await logsOf(acme, parent.id)).map((l) => l.event)).toContain('deduplicated');
    // A resolved parent takes no more children: the next alert starts a new group and pages again.
    await acme.api('POST', `/alerts/${parent.id}/resolve`);
    const next = await createAlert(acme, { title, destination_router_ids: [r.id] });
    expect(next).toMatchObject({ status: 'open', parent_id: null });
  });

  it('routers nested deeper than 10: that route is dropped with the chain in the log', async () => {
    let next: { id: string } | undefined;
    for (let i = 11; i >= 1; i--) {
      next = await router(acme, `n${i}`, '', next ? { default_receiver_router_id: next.id } : { default_receiver_account_user_id: acme.adminAccountUserId });
    }
    const alert = await createAlert(acme, { destination_router_ids: [next!.id] });
    expect(alert.status).toBe('dropped');
    const dropped = (await logsOf(acme, alert.id)).filter((l) => l.event === 'dropped');
    expect(dropped[0].message).toContain('Routers nest more than 10 deep');
  });
});
