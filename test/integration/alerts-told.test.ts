// Acknowledgement tells the others, through the gateway: when an alert is acknowledged (or resolved), each person
// paged on it who has not acted gets one alert.acknowledged (alert.resolved) record and outbox message, on their
// notification rule's channels for that type, else their defaults. Rules: docs/alerts.md, "Notifications".
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';
import { personWithKey } from './members.ts';

let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Alerts told');
});

interface NotificationRow {
  account_user_id: string;
  type: string;
  channel: string | null;
  status: string;
  outbox_id: string | null;
}

const notificationsOf = async (id: string) => (await acme.api('GET', `/alerts/${id}/notifications?limit=100`)).body.data as NotificationRow[];
/**
 * Who got a message of the type, on which channel, and that it was handed to delivery: `queued`, or already
 * `suppressed` by the delivery worker (the test stack configures no provider), docs/notifications.md.
 */
const ofType = (rows: NotificationRow[], type: string) =>
  rows.filter((n) => n.type === type).map((n) => [n.account_user_id, n.channel, ['queued', 'suppressed'].includes(n.status) ? 'handed to delivery' : n.status]);

describe('acknowledgement tells the others', () => {
  it('acknowledge tells the paged people who did not act; resolve then tells those still not acting', async () => {
    const [alice, carol, dave] = await Promise.all([personWithKey(acme), personWithKey(acme), personWithKey(acme)]);
    // Dave hears of acknowledgements and resolves by email only.
    const rule = await acme.api('POST', '/notification_rules', {
      name: 'Email for the rest',
      rules: 'rules:\n- types: [alert.acknowledged, alert.resolved]\n  match: {always: true}\n  actions: [{type: notify, channels: [email]}]\n',
    });
    expect(rule.status, rule.text).toBe(201);
    expect((await acme.api('PUT', `/account_users/${dave.id}`, { notification_rule_id: rule.body.id })).status).toBe(200);
    const team = await teamWithOnCall(acme, [[alice.id, carol.id, dave.id]], 'Told');
    const alert = (await acme.api('POST', '/alerts', { title: 'Queue stuck', urgency: 'high', destination_team_ids: [team.id] })).body;
    const pagesBefore = ofType(await notificationsOf(alert.id), 'alert.open').length;
    expect(pagesBefore).toBeGreaterThan(0);

    expect((await carol.api('POST', `/alerts/${alert.id}/reject`)).status).toBe(200);
    const ack = await alice.api('POST', `/alerts/${alert.id}/acknowledge`);
    expect(ack.status, ack.text).toBe(200);
    const afterAck = await notificationsOf(alert.id);
    // Alice acted (acknowledged) and Carol acted (rejected): only Dave is told, once, by his rule's channel.
    expect(ofType(afterAck, 'alert.acknowledged')).toEqual([[dave.id, 'email', 'handed to delivery']]);
    expect(ofType(afterAck, 'alert.open')).toHaveLength(pagesBefore);
    const outboxId = afterAck.find((n) => n.type === 'alert.acknowledged')!.outbox_id!;
    const message = (await acme.api('GET', `/outbox/${outboxId}`)).body;
    expect(message).toMatchObject({ template: 'alert_acknowledged', channel: 'email' });
    expect(message.subject).toBe(`Acknowledged Queue stuck (${alert.prefix_id})`);
    // The message names who acted by name, not by id.
    const aliceName = (await acme.api('GET', `/account_users/${alice.id}`)).body.user.name as string;
    expect(message.body).toContain(`The alert you were paged for was acknowledged by ${aliceName}.`);
    expect(message.body).not.toContain(alice.id);

    // The admin resolves: Dave (still not acting) is told again; Alice and Carol are not.
    expect((await acme.api('POST', `/alerts/${alert.id}/resolve`)).status).toBe(200);
    const afterResolve = await notificationsOf(alert.id);
    expect(ofType(afterResolve, 'alert.resolved')).toEqual([[dave.id, 'email', 'handed to delivery']]);
    expect(ofType(afterResolve, 'alert.acknowledged')).toHaveLength(1);
  });

  it('without a rule for the type, the person is told on their default channels; the actor is never told', async () => {
    const [ann, ben] = await Promise.all([personWithKey(acme), personWithKey(acme)]);
    const alert = (await acme.api('POST', '/alerts', { title: 'Disk', urgency: 'low', destination_account_user_ids: [ann.id, ben.id] })).body;
    const pageChannels = (await notificationsOf(alert.id)).filter((n) => n.type === 'alert.open' && n.account_user_id === ben.id).map((n) => n.channel);
    expect((await ben.api('POST', `/alerts/${alert.id}/resolve`)).status).toBe(200);
    const rows = await notificationsOf(alert.id);
    expect(rows.filter((n) => n.type === 'alert.resolved').map((n) => n.account_user_id)).toEqual(pageChannels.map(() => ann.id));
    expect(rows.filter((n) => n.type === 'alert.resolved').map((n) => n.channel)).toEqual(pageChannels);
    expect(rows.filter((n) => n.type === 'alert.acknowledged')).toEqual([]);
  });
});
