// The reference CLI's team, user and integration commands, replayed request by request as its client sends them
// (its headers, its JSON, the query in the order it builds it) and asserting every field it reads from each answer.
// Its alert and broadcast commands: cli-alerts.test.ts, cli-broadcasts.test.ts. docs/alerts.md, "Works with the
// reference CLI".
import { beforeAll, describe, expect, it } from 'vitest';
import { isoSeconds, newAccount, useTestStack, type TestAccount } from './helpers.ts';
import { cliError, cliPage, referenceCli } from './reference-cli.ts';

let acme: TestAccount;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Reference CLI teams');
});

const cli = referenceCli(() => acme.adminKey);

/** `show_user` as `teams show` and `teams current-oncall` read it: id, user.name, the primary email and phone. */
async function cliShowUser(id: string) {
  const reply = await cli('GET', `/account_users/${id}`);
  expect(reply.status, reply.text).toBe(200);
  const user = reply.body.user as { name: string; emails: { email: string; primary: boolean }[]; phones: { phone: string; primary: boolean }[] };
  return {
    id: reply.body.id as string,
    name: user.name,
    email: user.emails.find((e) => e.primary)?.email ?? 'N/A',
    phone: user.phones.find((p) => p.primary)?.phone ?? 'N/A',
    roles: Object.entries(reply.body.roles as Record<string, boolean>)
      .filter(([, on]) => on)
      .map(([role]) => role),
    created_at: reply.body.created_at as string,
  };
}

describe('the reference CLI user commands', () => {
  it('create (with roles and teams), list, show, update, delete', async () => {
    const team = (await cli('POST', '/teams', { name: 'Users team', member_account_user_ids: [], admin_account_user_ids: [] })).body;
    // users create --name "Grace Hopper" --email grace@… --role broadcaster --team-id <team>
    const email = `grace-${process.pid}-${Date.now()}@example.test`;
    const created = await cli('POST', '/account_users', { user_attributes: { name: 'Grace Hopper', emails_attributes: [{ email }] }, roles: { broadcaster: true }, team_ids: [team.id] });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('warning')).toBeNull();
    const id = created.body.id as string;
    expect((await cli('GET', `/teams/${team.id}`)).body.member_account_user_ids).toEqual([id]);

    // users list --search Grace: id, user.name, the primary email and phone, the roles switched on.
    const listed = cliPage(await cli('GET', '/account_users?limit=10&offset=0&q=Grace'));
    expect(listed.total).toBe(1);
    expect(listed.data.map((u) => [u.id, u.user.name, u.user.emails.find((e: { primary: boolean }) => e.primary)?.email, u.roles.broadcaster])).toEqual([[id, 'Grace Hopper', email, true]]);

    // users show <id>
    expect(await cliShowUser(id)).toEqual({ id, name: 'Grace Hopper', email, phone: 'N/A', roles: ['broadcaster'], created_at: expect.any(String) });

    // users update <id> --name "Grace B. Hopper": only user_attributes.name; then with no option, an empty body.
    const updated = await cli('PUT', `/account_users/${id}`, { user_attributes: { name: 'Grace B. Hopper' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.id).toBe(id);
    expect((await cliShowUser(id)).name).toBe('Grace B. Hopper');
    expect((await cli('PUT', `/account_users/${id}`, {})).status).toBe(200);

    // users delete <id> --force: any 2xx; show then prints the 404's errors.
    const deleted = await cli('DELETE', `/account_users/${id}`);
    expect(deleted.status).toBe(204);
    expect(cliError(await cli('GET', `/account_users/${id}`))).toEqual({ status: 404, errors: [{ message: 'Account user not found' }] });
  });
});

describe('the reference CLI team commands', () => {
  it('create (the same person as member and admin), list, show with its members and admins, update, current-oncall, alerts, delete', async () => {
    const me = acme.adminAccountUserId;
    // teams create --name Payments --notes "…" --member-id <me> --admin-id <me>
    const created = await cli('POST', '/teams', { name: 'Payments', notes: 'Card processing', member_account_user_ids: [me], admin_account_user_ids: [me] });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('warning')).toBeNull();
    const id = created.body.id as string;

    // teams list --search Pay: id, name; total_count.
    const listed = cliPage(await cli('GET', '/teams?limit=10&offset=0&q=Pay'));
    expect(listed.data.map((t) => [t.id, t.name])).toEqual([[id, 'Payments']]);
    expect(listed.total).toBe(1);

    // teams show <id>: its details, then each member and each admin through users show. The person named as both is
    // listed in both (an admin is a member with the admin role).
    const shown = await cli('GET', `/teams/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id, name: 'Payments', notes: 'Card processing', created_at: expect.any(String), updated_at: expect.any(String) });
    expect(shown.body.member_account_user_ids).toEqual([me]);
    expect(shown.body.admin_account_user_ids).toEqual([me]);
    const admin = await cliShowUser(me);
    expect(admin).toMatchObject({ id: me, name: expect.any(String), email: expect.stringContaining('@') });

    // teams update <id> --name "Payments EU" --member-id <grace>: a list sent replaces that list only.
    const grace = (await cli('POST', '/account_users', { user_attributes: { name: 'Grace', emails_attributes: [{ email: `g-${process.pid}-${Date.now()}@example.test` }] }, roles: {}, team_ids: [] })).body.id as string;
    const updated = await cli('PUT', `/teams/${id}`, { name: 'Payments EU', member_account_user_ids: [grace] });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Payments EU', member_account_user_ids: [grace], admin_account_user_ids: [me] });

    // teams current-oncall <id>: nobody yet ("No one schedule oncall"), then one layer with me on it.
    expect((await cli('GET', `/teams/${id}/current_oncall`)).body).toEqual([]);
    const now = Date.now();
    const event = await acme.api('POST', '/events', {
      schedule_ids: [created.body.schedule_id],
      layer: 1,
      time_zone: 'UTC',
      start_time: isoSeconds(now - 3_600_000),
      end_time: isoSeconds(now + 3_600_000),
      account_user_ids: [me],
    });
    expect(event.status, event.text).toBe(201);
    const oncall = await cli('GET', `/teams/${id}/current_oncall`);
    expect(oncall.status).toBe(200);
    expect(oncall.body.map((s: Record<string, any>) => [s.layer, typeof s.start_time, typeof s.end_time, s.attendees.map((a: { attendee_id: string }) => a.attendee_id)])).toEqual([[1, 'string', 'string', [me]]]);
    expect((await cliShowUser(me)).id).toBe(me);

    // teams alerts <id>: id, title, status of each; total_count.
    const alert = await cli('POST', '/alerts', { title: 'Card declines', destination_team_ids: [id], urgency: 'high', tags: [], meta: { incident: false, incident_severity: null, incident_message: null } });
    expect(alert.status, alert.text).toBe(201);
    const alerts = cliPage(await cli('GET', `/teams/${id}/alerts?limit=10&offset=0`));
    expect(alerts.data.map((a) => [a.id, a.title, a.status])).toEqual([[alert.body.id, 'Card declines', 'open']]);
    expect(alerts.total).toBe(1);

    // teams delete <id> --force: any 2xx; show then prints the 404's errors.
    const deleted = await cli('DELETE', `/teams/${id}`);
    expect(deleted.status).toBe(204);
    expect(cliError(await cli('GET', `/teams/${id}`))).toEqual({ status: 404, errors: [{ message: 'Team not found' }] });
  });
});

describe('the reference CLI integration commands', () => {
  it('list (--enabled, --disabled, --search), show, disable, enable', async () => {
    const made = await acme.api('POST', '/integrations', { name: 'Grafana CLI', account_user_ids: [acme.adminAccountUserId] });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as string;
    const row = (i: Record<string, any>) => [i.id, i.name, i.integration_type.name, i.enabled];

    // integrations list --search Grafana --enabled (enabled=1); --disabled (enabled=0)
    const enabled = cliPage(await cli('GET', '/integrations?limit=10&offset=0&q=Grafana&enabled=1'));
    expect(enabled.data.map(row)).toEqual([[id, 'Grafana CLI', made.body.integration_type.name, true]]);
    expect(cliPage(await cli('GET', '/integrations?limit=10&offset=0&enabled=0')).total).toBe(0);

    // integrations show <id>: id, name, integration_type.name, enabled, created_at, updated_at.
    const shown = await cli('GET', `/integrations/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id, name: 'Grafana CLI', integration_type: { name: expect.any(String) }, enabled: true, created_at: expect.any(String), updated_at: expect.any(String) });

    // integrations disable <id> / enable <id>: PUT {"enabled": false|true}, reads id.
    const disabled = await cli('PUT', `/integrations/${id}`, { enabled: false });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({ id, enabled: false });
    expect(cliPage(await cli('GET', '/integrations?limit=10&offset=0&enabled=0')).data.map((i) => i.id)).toEqual([id]);
    const reenabled = await cli('PUT', `/integrations/${id}`, { enabled: true });
    expect(reenabled.body).toMatchObject({ id, enabled: true });
  });
});
