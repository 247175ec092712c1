// Alerts from other sources (the webhook worker's entry points): createAlertFrom with a thirdparty_id, the
// thirdparty_id list through the gateway, a retried create colliding with the first, destinations deleted since
// they were configured, the integration's newest/active lookups, and acknowledge/resolve by an integration.
// Rules: docs/alerts.md, "Other sources".
import { beforeAll, describe, expect, it } from 'vitest';
import { monotonicFactory } from 'ulid';
import { acknowledgeAlertFrom, resolveAlertFrom } from '../../lib/alerts/actions.ts';
import { createAlertFrom, type AlertFromInput } from '../../lib/alerts/create.ts';
import { activeAlertOfThirdparty, newestAlertOfThirdparty } from '../../lib/alerts/store.ts';
import { getItem, transact } from '../../lib/db/items.ts';
import { putNew } from '../../lib/db/writes.ts';
import { findAlert } from '../../lib/alerts/store.ts';
import { addAccountUser, newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';

const ulid = monotonicFactory();
let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alert sources');
});

const integration = (id: string, thirdparty: string | null, log = 'req-1') =>
  ({ source_type: 'Integration', source_id: id, source_log_id: log, thirdparty_id: thirdparty }) as const;

const input = (over: Partial<AlertFromInput> = {}): AlertFromInput => ({
  title: 'CPU high',
  urgency: 'high',
  destination_team_ids: [],
  destination_router_ids: [],
  destination_account_user_ids: [],
  ...over,
});

const logsOf = async (id: string) => (await acme.api('GET', `/alerts/${id}/logs?limit=100`)).body.data as { event: string; message: string }[];

describe('createAlertFrom', () => {
  it('stores an integration alert routed like an API create, with its source and thirdparty_id', async () => {
    const bob = await addAccountUser(acme);
    const { alert, outcome } = await createAlertFrom(acme.accountId, integration('int_a', 'ext-1', 'req-7'), input({ destination_account_user_ids: [bob.id] }));
    expect(outcome).toBe('created');
    const shown = (await acme.api('GET', `/alerts/${alert.id}`)).body;
    expect(shown).toMatchObject({ status: 'open', source_type: 'Integration', source_id: 'int_a', source_log_id: 'req-7', thirdparty_id: 'ext-1' });
    const logs = await logsOf(alert.id);
    expect(logs[0]).toMatchObject({ event: 'created', message: 'Alert created by integration int_a (request req-7).' });
    expect(logs.some((l) => l.event === 'paged')).toBe(true);
  });

  it('GET /alerts?thirdparty_id=X answers that identity newest first with an exact count, and a delete leaves it', async () => {
    const bob = await addAccountUser(acme);
    const make = async () => (await createAlertFrom(acme.accountId, integration('int_b', 'ext-list'), input({ destination_account_user_ids: [bob.id] }))).alert;
    const first = await make();
    const second = await make();
    const third = await make();
    await createAlertFrom(acme.accountId, integration('int_b', 'ext-other'), input({ destination_account_user_ids: [bob.id] }));
    const page = (await acme.api('GET', '/alerts?thirdparty_id=ext-list&limit=2')).body;
    expect(page.data.map((a: { id: string }) => a.id)).toEqual([third.id, second.id]);
    expect(page).toMatchObject({ total_count: 3, has_more: true });
    // With another filter the identity's index is read whole by the list engine: still correct.
    const open = (await acme.api('GET', '/alerts?thirdparty_id=ext-list&status=open')).body;
    expect(open.data.map((a: { id: string }) => a.id)).toEqual([third.id, second.id, first.id]);

    expect((await acme.api('DELETE', `/alerts/${second.id}`)).status).toBe(204);
    const after = (await acme.api('GET', '/alerts?thirdparty_id=ext-list')).body;
    expect(after.data.map((a: { id: string }) => a.id)).toEqual([third.id, first.id]);
    expect(after.total_count).toBe(2);
  });

  it('a retried create with the same alert id returns the first alert and stores no second one', async () => {
    const bob = await addAccountUser(acme);
    const alertId = ulid();
    const attempts = await Promise.all([1, 2, 3].map(() => createAlertFrom(acme.accountId, integration('int_c', 'ext-retry'), input({ destination_account_user_ids: [bob.id] }), { alertId })));
    expect(attempts.every((a) => a.alert.id === alertId)).toBe(true);
    expect(attempts.filter((a) => a.outcome === 'created')).toHaveLength(1);
    const again = await createAlertFrom(acme.accountId, integration('int_c', 'ext-retry'), input({ destination_account_user_ids: [bob.id] }), { alertId });
    expect(again.outcome).toBe('existing');
    const listed = (await acme.api('GET', '/alerts?thirdparty_id=ext-retry')).body;
    expect(listed.total_count).toBe(1);
    expect((await logsOf(alertId)).filter((l) => l.event === 'paged')).toHaveLength(1);
  });

  it('markStored writes ride in the transaction of what the create stores: a failing mark stores and counts nothing', async () => {
    /**
     * The refusal a failing mark gives: the whole transaction cancelled because a condition failed (the mark's), or,
     * where the change is retried on a failed condition (the fold into an existing alert), the conflict it ends as.
     * Any other error (a crash, a plain storage failure) is not this refusal.
     */
    const markConditionFailed = (error: unknown) =>
      ((error as { name?: string }).name === 'TransactionCanceledException' &&
        ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed')) ||
      (error as Error).message === 'Alert was changed by another request at the same time; retry';
    const bob = await addAccountUser(acme);
    const markKey = (name: string) => ({ pk: `TEST#MARK#${acme.accountId}`, sk: `${name}#${ulid()}` });
    // A mark that always fails its condition: a put-if-absent of an item that exists.
    const taken = markKey('taken');
    await transact([putNew({ ...taken })]);
    const failingMark = () => [putNew({ ...taken })];
    const dedupKey = `mark-${ulid()}`;

    const first = await createAlertFrom(acme.accountId, integration('int_m', 'ext-mark'), input({ destination_account_user_ids: [bob.id], dedup_keys: [dedupKey] }));
    // Folded by the dedup key, with a failing mark: the count does not move.
    await expect(
      createAlertFrom(acme.accountId, integration('int_m', 'ext-mark-2'), input({ destination_account_user_ids: [bob.id], dedup_keys: [dedupKey] }), { markStored: failingMark }),
    ).rejects.toSatisfy(markConditionFailed);
    expect((await findAlert(acme.accountId, first.alert.id))?.data.dedup_count).toBe(0);
    // A new alert with a failing mark: nothing stored under its id.
    const alertId = ulid();
    await expect(createAlertFrom(acme.accountId, integration('int_m', 'ext-mark-3'), input({ destination_account_user_ids: [bob.id] }), { alertId, markStored: failingMark })).rejects.toSatisfy(markConditionFailed);
    expect(await findAlert(acme.accountId, alertId)).toBeUndefined();

    // A mark that can be written lands with the alert and is built from it as stored.
    const written = markKey('written');
    const made = await createAlertFrom(acme.accountId, integration('int_m', 'ext-mark-3'), input({ destination_account_user_ids: [bob.id] }), {
      alertId,
      markStored: (stored) => [putNew({ ...written, outcome: stored.outcome, prefixId: stored.alert.prefixId, status: stored.alert.data.status })],
    });
    expect(made.outcome).toBe('created');
    expect(await getItem(written)).toMatchObject({ outcome: 'created', prefixId: made.alert.prefixId, status: 'open' });
    const folded = markKey('folded');
    const dup = await createAlertFrom(acme.accountId, integration('int_m', 'ext-mark-4'), input({ destination_account_user_ids: [bob.id], dedup_keys: [dedupKey] }), {
      markStored: (stored) => [putNew({ ...folded, outcome: stored.outcome, alertId: stored.alert.id })],
    });
    expect(dup.outcome).toBe('deduplicated');
    expect(await getItem(folded)).toMatchObject({ outcome: 'deduplicated', alertId: first.alert.id });
    expect((await findAlert(acme.accountId, first.alert.id))?.data.dedup_count).toBe(1);
  });

  it('skips destinations deleted since they were configured, with a log entry; none left → dropped', async () => {
    const bob = await addAccountUser(acme);
    const team = await teamWithOnCall(acme, [[bob.id]], 'Gone soon');
    expect((await acme.api('DELETE', `/teams/${team.id}`)).status).toBe(204);
    const { alert } = await createAlertFrom(acme.accountId, integration('int_d', null), input({ destination_team_ids: [team.id], destination_account_user_ids: [bob.id] }));
    expect(alert.data.destination_team_ids).toEqual([]);
    expect(alert.data.destination_account_user_ids).toEqual([bob.id]);
    expect(alert.escalation.status).toBe('open');
    expect((await logsOf(alert.id)).find((l) => l.event === 'routed' && l.message.includes(team.id))?.message).toBe(`Destination team ${team.id} no longer exists; skipped.`);

    const { alert: none } = await createAlertFrom(acme.accountId, integration('int_d', null), input({ destination_team_ids: [team.id] }));
    expect((await acme.api('GET', `/alerts/${none.id}`)).body.status).toBe('dropped');
  });
});

describe('the integration lookups and actions', () => {
  it('newest and active alert of an integration identity; acknowledge and resolve by the integration', async () => {
    const bob = await addAccountUser(acme);
    const create = async (integrationId: string) => (await createAlertFrom(acme.accountId, integration(integrationId, 'ext-look'), input({ destination_account_user_ids: [bob.id] }))).alert;
    const older = await create('int_e');
    const newer = await create('int_e');
    const otherIntegration = await create('int_f');
    expect((await newestAlertOfThirdparty(acme.accountId, 'int_e', 'ext-look'))?.id).toBe(newer.id);
    expect((await newestAlertOfThirdparty(acme.accountId, 'int_f', 'ext-look'))?.id).toBe(otherIntegration.id);
    expect(await newestAlertOfThirdparty(acme.accountId, 'int_e', 'ext-none')).toBeUndefined();
    expect((await activeAlertOfThirdparty(acme.accountId, 'int_e', 'ext-look'))?.id).toBe(newer.id);

    const acked = await acknowledgeAlertFrom(acme.accountId, newer.id, { source_type: 'Integration', source_id: 'int_e' });
    expect(acked.data.status).toBe('acknowledged');
    expect((await activeAlertOfThirdparty(acme.accountId, 'int_e', 'ext-look'))?.id).toBe(newer.id);
    expect((await logsOf(newer.id)).find((l) => l.event === 'acknowledged')?.message).toBe('Alert acknowledged by integration int_e.');
    const workflows = (await acme.api('GET', `/alerts/${newer.id}/workflows`)).body.data as { kind: string; status: string }[];
    expect(workflows.filter((w) => w.kind === 'account_user').map((w) => w.status)).toEqual(['closed']);

    await resolveAlertFrom(acme.accountId, newer.id, { source_type: 'Integration', source_id: 'int_e' });
    expect((await logsOf(newer.id)).find((l) => l.event === 'resolved')?.message).toBe('Alert resolved by integration int_e.');
    // The newest is resolved: no active alert, even though an older one is still open.
    expect(await activeAlertOfThirdparty(acme.accountId, 'int_e', 'ext-look')).toBeUndefined();
    expect((await acme.api('GET', `/alerts/${older.id}`)).body.status).toBe('open');
  });
});
