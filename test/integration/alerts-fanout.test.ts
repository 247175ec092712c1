// Steps that page many people at once, through the gateway: the step answers 201 (never a 500), its pages are
// written by one deliver timer (fired here directly through the timers handler, as the timers worker does), every
// person gets exactly one notification record per channel, and firing the deliver timer again writes nothing
// twice, while one after a crash part-way writes only what is missing (each transaction records on the timer how far
// the firing got).
// Rules: docs/alerts.md, "How a step is applied"; the timer kind: docs/timers.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { onAlertTimer } from '../../lib/alerts/index.ts';
import { onDeliverTimer } from '../../lib/alerts/deferred-pages.ts';
import { alertMessageOwner, decideMessages, messageUnits, type DeliveryPayload } from '../../lib/alerts/effects.ts';
import { deliveryUnits } from '../../lib/alerts/batching.ts';
import { findAlert, logsOf, notificationsOf } from '../../lib/alerts/store.ts';
import { queryPrefix, transact } from '../../lib/db/items.ts';
import { batchUnits, type TransactItem } from '../../lib/db/writes.ts';
import { alertPk } from '../../lib/db/keys.ts';
import { newId } from '../../lib/ids.ts';
import { timerOf, timerPutItems, type TimerItem } from '../../lib/timers/items.ts';
import type { DurableTimer } from '../../lib/timers/types.ts';
import { addAccountUser, newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';

let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alerts fan-out');
});

async function people(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, count - i) }, () => addAccountUser(acme)));
    ids.push(...batch.map((p) => p.id));
  }
  return ids;
}

const timersOf = (alertId: string) => queryPrefix<TimerItem>(alertPk(acme.accountId, alertId), 'TIMER#');
const pendingOfKind = async (alertId: string, kind: string) => (await timersOf(alertId)).filter((t) => t.kind === kind && t.state === 'pending');
const fire = (t: TimerItem) => onAlertTimer(timerOf(t), new Date(Date.parse(t.dueAt)));

/** A writer that commits `commits` transactions, then fails as a process stopping would: nothing more is written. */
function crashAfter(commits: number) {
  let left = commits;
  return async (items: readonly TransactItem[]) => {
    if (left-- <= 0) throw new Error('crash');
    await transact(items);
  };
}

/** (person, channel) of every notification record, and how many times each pair occurs. */
async function recordCounts(alertId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const n of await notificationsOf(acme.accountId, alertId)) {
    const key = `${n.account_user_id}/${n.channel}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Every person has exactly one record queued on each of their default channels (push and email), each with its
 * outbox message. The test stack configures no provider, so its sweeper may already have sent a record meanwhile:
 * `suppressed` (docs/notifications.md).
 */
const queuedOrSent = (status: string) => status === 'queued' || status === 'suppressed';
async function expectOneRecordPerChannel(alertId: string, paged: readonly string[]): Promise<void> {
  const counts = await recordCounts(alertId);
  expect([...counts.keys()].sort()).toEqual(paged.flatMap((id) => [`${id}/email`, `${id}/push`]).sort());
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  const records = await notificationsOf(acme.accountId, alertId);
  expect(records.every((r) => queuedOrSent(r.status) && r.outbox_id !== null)).toBe(true);
  expect(new Set(records.map((r) => r.outbox_id)).size).toBe(records.length);
  const notified = (await logsOf(acme.accountId, alertId)).filter((l) => l.event === 'notified');
  expect(notified.map((l) => l.account_user_id).sort()).toEqual([...paged].sort());
}

type Entry = { id: string; event: string; account_user_id?: string };

/**
 * A deliver timer of its own for a new alert paging `direct`: due in an hour, so neither a wake-up nor the sweeper fires
 * it (only the test does), carrying three left-out `paged` entries and a page to each of 30 people.
 */
async function ownDeliverTimer(title: string) {
  const onCall = await people(30);
  const [direct] = await people(1);
  const reply = await acme.api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: [direct] });
  expect(reply.status, reply.text).toBe(201);
  const alertId = reply.body.id as string;
  const at = new Date().toISOString();
  const payload: DeliveryPayload = {
    at,
    logs: onCall.slice(0, 3).map((id) => ({ event: 'paged', message: `Account user ${id} is paged (test).`, account_user_id: id, layer: 1, pass: 1 })),
    messages: onCall.map((id) => ({ account_user_id: id, type: 'alert.open', layer: 1, pass: 1, why: `Paged by the test "${title}".`, escalation: 0 })),
  };
  const dueAt = new Date(Date.now() + 3_600_000).toISOString();
  const timer: DurableTimer = { accountId: acme.accountId, ownerType: 'alert', ownerId: alertId, timerId: newId(), kind: 'deliver', dueAt, epoch: 1, payload: payload as unknown as Record<string, unknown> };
  await transact(timerPutItems(alertPk(acme.accountId, alertId), [timer], at));
  const entries = async () => (await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as Entry[];
  return { onCall, direct, alertId, timer, dueAt, entries };
}

/** The timer's entries, each once, in the order written: its three `paged` entries, then one `notified` per person. */
function expectAddedOnce(after: readonly Entry[], before: readonly Entry[], onCall: readonly string[]): void {
  const added = after.filter((entry) => !before.some((b) => b.id === entry.id));
  expect(added.map((entry) => [entry.event, entry.account_user_id])).toEqual([...onCall.slice(0, 3).map((id) => ['paged', id]), ...onCall.map((id) => ['notified', id])]);
}

// Each record's delivery timer is fired by the test stack's timers worker meanwhile: on a loaded machine these
// steps of hundreds of writes take longer than the default 30 s.
describe('a step that pages many people at once', { timeout: 120_000 }, () => {
  it('60 people on one layer: 201, one deliver timer writes one record per person per channel; a second firing writes nothing', async () => {
    const onCall = await people(60);
    const team = await teamWithOnCall(acme, [onCall], 'Everyone');
    const reply = await acme.api('POST', '/alerts', { title: 'Region down', urgency: 'critical', destination_team_ids: [team.id] });
    expect(reply.status, reply.text).toBe(201);
    const alertId = reply.body.id as string;

    // The step committed the state, its logs and its timers; the pages wait for the deliver timer.
    const paged = (await logsOf(acme.accountId, alertId)).filter((l) => l.event === 'paged').map((l) => l.account_user_id);
    expect(paged.sort()).toEqual([...onCall].sort());
    const [deliver, ...more] = await pendingOfKind(alertId, 'deliver');
    expect(more).toEqual([]);
    expect(await pendingOfKind(alertId, 'layer_timeout')).toHaveLength(1);

    await fire(deliver!);
    await expectOneRecordPerChannel(alertId, onCall);
    expect(await pendingOfKind(alertId, 'deliver')).toEqual([]);

    // A duplicate firing (a wake-up delivered twice, the sweeper racing it) and two at once write nothing more.
    await fire(deliver!);
    await Promise.all([fire(deliver!), fire(deliver!)]);
    await expectOneRecordPerChannel(alertId, onCall);
    const [record] = await notificationsOf(acme.accountId, alertId);
    const message = await acme.api('GET', `/outbox/${record!.outbox_id}`);
    expect(message.body).toMatchObject({ template: 'alert_page', account_user_id: record!.account_user_id });
    expect(queuedOrSent(message.body.status)).toBe(true);
    expect(message.body.subject).toContain('Region down');
  });

  it('a deliver timer that crashed part-way: the next firing writes only what is missing, one log entry per person', async () => {
    const { onCall, direct, alertId, timer, dueAt, entries } = await ownDeliverTimer('Crash part-way');
    const before = await entries();

    // Its first transaction committed, then the process stopped.
    await expect(onDeliverTimer(timer, new Date(dueAt), crashAfter(1))).rejects.toThrow('crash');
    const written = await recordCounts(alertId);
    expect(written.size).toBeGreaterThan(2);
    expect(written.size).toBeLessThan(2 + 60);
    const [halfway] = (await timersOf(alertId)).filter((t) => t.timerId === timer.timerId);
    expect(halfway).toMatchObject({ state: 'pending', progress: expect.any(Number) });

    // Meanwhile the first person paged leaves the account: the next firing decides their message anew (no contact,
    // one write instead of eight), so its parts pack differently; the timer's progress still says where to go on.
    expect((await acme.api('DELETE', `/account_users/${onCall[0]}`)).status).toBe(204);

    // The next firing writes the rest; firings after it, one at a time or at once, nothing.
    await onDeliverTimer(timer, new Date(dueAt));
    await onDeliverTimer(timer, new Date(dueAt));
    await Promise.all([onDeliverTimer(timer, new Date(dueAt)), onDeliverTimer(timer, new Date(dueAt))]);
    await expectOneRecordPerChannel(alertId, [direct!, ...onCall]);
    expect((await timersOf(alertId)).find((t) => t.timerId === timer.timerId)).toMatchObject({ state: 'fired', progress: 3 + 30 });
    await expectAddedOnce(await entries(), before, onCall);
  });

  it('a deliver timer a firing from before grouped log items left part-way: finished the old way, nothing twice', async () => {
    const { onCall, direct, alertId, timer, dueAt, entries } = await ownDeliverTimer('Older firing');
    const before = await entries();
    // That firing wrote one log item per entry, unit by unit, and stopped after its first transaction.
    const alert = (await findAlert(acme.accountId, alertId))!;
    const payload = timer.payload as unknown as DeliveryPayload;
    const at = Date.parse(payload.at);
    const units = await messageUnits(alertMessageOwner(alert), await decideMessages(alert, payload.messages, at), at);
    const [first] = batchUnits(deliveryUnits(alert, timer.timerId, payload.at, payload.logs, units));
    await transact(first!);
    expect((await recordCounts(alertId)).size).toBeGreaterThan(2);

    await onDeliverTimer(timer, new Date(dueAt));
    await onDeliverTimer(timer, new Date(dueAt));
    await expectOneRecordPerChannel(alertId, [direct!, ...onCall]);
    expect((await timersOf(alertId)).find((t) => t.timerId === timer.timerId)).toMatchObject({ state: 'fired' });
    await expectAddedOnce(await entries(), before, onCall);
  });

  it('a deliver timer fired twice at once before either committed writes each page once', async () => {
    const onCall = await people(30);
    const team = await teamWithOnCall(acme, [onCall], 'Thirty');
    const reply = await acme.api('POST', '/alerts', { title: 'Thirty paged', urgency: 'high', destination_team_ids: [team.id] });
    expect(reply.status, reply.text).toBe(201);
    const [deliver] = await pendingOfKind(reply.body.id, 'deliver');
    await Promise.allSettled([fire(deliver!), fire(deliver!)]);
    await fire(deliver!);
    await expectOneRecordPerChannel(reply.body.id, onCall);
  });

  it('reassign to several teams of 20: the timer step answers no error and all 60 are paged once', async () => {
    const backups = await Promise.all([people(20), people(20), people(20)]);
    const backupTeams = await Promise.all(backups.map((onCall, i) => teamWithOnCall(acme, [onCall], `Backup ${i}`)));
    const [first] = await people(1);
    const front = await teamWithOnCall(acme, [[first!]], 'Front');
    const policy = (await acme.api('GET', `/escalation_policies/${front.escalation_policy_id}`)).body;
    const layers = policy.escalation_layers.map((l: { id: string }) => l.id);
    const edit = await acme.api('PUT', `/escalation_policies/${policy.id}`, {
      reassign_team_ids: backupTeams.map((t) => t.id),
      escalation_layers_attributes: layers.slice(1).map((id: string) => ({ id, _destroy: true })),
    });
    expect(edit.status, edit.text).toBe(200);
    const reply = await acme.api('POST', '/alerts', { title: 'Hand-off', urgency: 'high', destination_team_ids: [front.id] });
    expect(reply.status, reply.text).toBe(201);
    const alertId = reply.body.id as string;
    // The small first step fits its own transaction: no deliver timer, the record is there at once.
    expect(await pendingOfKind(alertId, 'deliver')).toEqual([]);
    await expectOneRecordPerChannel(alertId, [first!]);

    // Layer 1 times out with nobody acknowledging: the alert is reassigned to the three teams in one step.
    const [timeout] = await pendingOfKind(alertId, 'layer_timeout');
    await fire(timeout!);
    const everyone = [first!, ...backups.flat()];
    const paged = (await logsOf(acme.accountId, alertId)).filter((l) => l.event === 'paged').map((l) => l.account_user_id);
    expect(paged.sort()).toEqual([...everyone].sort());
    const [deliver, ...more] = await pendingOfKind(alertId, 'deliver');
    expect(more).toEqual([]);
    await fire(deliver!);
    await fire(deliver!);
    await expectOneRecordPerChannel(alertId, everyone);
    expect((await acme.api('GET', `/alerts/${alertId}`)).body.status).toBe('open');
  });
});
