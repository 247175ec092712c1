// The reference CLI's alert commands, replayed request by request: the method, path, query (in the order the CLI
// builds it), JSON body (as its HTTP library serialises it) and the headers it sets, and the fields it reads from
// each answer, every `--alias` step included (it lists by thirdparty_id and takes the first row). Commands checked:
// docs/alerts.md, "Works with the reference CLI".
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';
import { cliError, cliPage, referenceCli } from './reference-cli.ts';

let acme: TestAccount;
let teamPrefixId: string;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Reference CLI');
  teamPrefixId = (await teamWithOnCall(acme, [[acme.adminAccountUserId]], 'CLI')).prefix_id;
});

const cli = referenceCli(() => acme.adminKey);

/** `alerts list`: limit, offset, status, q, thirdparty_id, in this order, each only when set. */
const cliList = async (query: string) => cliPage(await cli('GET', `/alerts?${query}`));

/** How every `--alias` step finds its alert: `alerts list` by thirdparty_id, one row; the step uses `data[0].id`. */
async function cliAlias(alias: string, status?: 'open') {
  const { data, total } = await cliList(`limit=1&offset=0${status ? `&status=${status}` : ''}&thirdparty_id=${encodeURIComponent(alias)}`);
  return total === 0 ? undefined : (data[0]!.id as string);
}

describe('the reference CLI alert commands', () => {
  it('create --alias, list, show, and comment, list-comments, reject, acknowledge, resolve by alias; delete', async () => {
    // alerts create --title "Disk full" --description "95% on /var" --team-id <team> --urgency high --tags db --tags prod --alias ext-42
    // (its client drops the None values: destination_route_ids and destination_account_user_ids are not sent)
    const create = (title: string) =>
      cli('POST', '/alerts', {
        title,
        description: '95% on /var',
        destination_team_ids: [teamPrefixId],
        urgency: 'high',
        tags: ['db', 'prod'],
        thirdparty_id: 'ext-42',
        meta: { incident: false, incident_severity: null, incident_message: null },
      });
    const older = await create('Disk full (earlier)');
    expect(older.status, older.text).toBe(201);
    const created = await create('Disk full');
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('warning')).toBeNull(); // every field it sends is a parameter
    const id = created.body.id as string;
    expect(id).toEqual(expect.any(String));

    // alerts list  /  alerts list --status open --search Disk: id, title, status of each row; total_count.
    const all = await cliList('limit=10&offset=0');
    expect(all.data.map((a) => [a.id, a.title, a.status])).toEqual([
      [id, 'Disk full', 'open'],
      [older.body.id, 'Disk full (earlier)', 'open'],
    ]);
    expect(all.total).toBe(2);
    const open = await cliList('limit=10&offset=0&status=open&q=Disk');
    expect(open.data.map((a) => a.id)).toEqual([id, older.body.id]);

    // alerts show <id>: every field it prints, `tags` and `thirdparty_id` included.
    const shown = await cli('GET', `/alerts/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id, status: 'open', urgency: 'high', title: 'Disk full', description: '95% on /var', created_at: expect.any(String) });
    expect(shown.body.tags).toEqual(['db', 'prod']);
    expect(shown.body.thirdparty_id).toBe('ext-42');
    expect(shown.body.destination_team_ids).toHaveLength(1);
    expect(shown.body.destination_router_ids).toEqual([]);
    expect(shown.body.destination_account_user_ids).toEqual([]);

    // alerts comment --alias ext-42 --comment "looking into it": the alias names the newest alert with it.
    expect(await cliAlias('ext-42')).toBe(id);
    const comment = await cli('POST', `/alerts/${id}/comments`, { body: 'looking into it' });
    expect(comment.status, comment.text).toBe(201);

    // alerts list-comments --alias ext-42: created_at, created_by_name, body of each; total_count.
    expect(await cliAlias('ext-42')).toBe(id);
    const comments = await cli('GET', `/alerts/${id}/comments?limit=10&offset=0`);
    expect(comments.status).toBe(200);
    expect(comments.body.total_count).toBe(1);
    expect(comments.body.data.map((c: Record<string, unknown>) => [typeof c.created_at, typeof c.created_by_name, c.body])).toEqual([['string', 'string', 'looking into it']]);

    // alerts reject --alias ext-42 looks among open alerts (the admin is on call and was paged).
    expect(await cliAlias('ext-42', 'open')).toBe(id);
    const rejected = await cli('POST', `/alerts/${id}/reject`);
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.id).toBe(id);

    // alerts acknowledge --alias ext-42, then again (the error it prints), then alerts resolve --alias ext-42.
    expect(await cliAlias('ext-42')).toBe(id);
    const acked = await cli('POST', `/alerts/${id}/acknowledge`);
    expect(acked.status, acked.text).toBe(200);
    expect(acked.body.id).toBe(id);
    expect(cliError(await cli('POST', `/alerts/${await cliAlias('ext-42')}/acknowledge`))).toEqual({
      status: 422,
      errors: [{ message: 'status is acknowledged; only an open, dropped or suppressed alert can be acknowledged' }],
    });
    expect(await cliAlias('ext-42')).toBe(id);
    const resolved = await cli('POST', `/alerts/${id}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.id).toBe(id);

    // alerts reject --alias ext-42 now finds the older alert, the only open one; alerts reject <id> prints the 422.
    expect(await cliAlias('ext-42', 'open')).toBe(older.body.id);
    expect(cliError(await cli('POST', `/alerts/${id}/reject`))).toEqual({ status: 422, errors: [{ message: 'status is resolved; only an open alert can be rejected' }] });
    expect((await cliList('limit=10&offset=0&status=resolved')).data.map((a) => a.id)).toEqual([id]);
    // An alias nobody uses: "No alert found with alias".
    expect(await cliAlias('ext-43')).toBeUndefined();

    // The comment is on the alert's timeline too.
    const logs = await cli('GET', `/alerts/${id}/logs?limit=100`);
    expect(logs.body.data.filter((l: Record<string, unknown>) => l.event === 'commented').map((l: Record<string, unknown>) => l.account_user_id)).toEqual([acme.adminAccountUserId]);

    // alerts delete <id> --force: any 2xx, an empty body is fine; show then prints the 404's errors; the alias is gone.
    const deleted = await cli('DELETE', `/alerts/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(cliError(await cli('GET', `/alerts/${id}`))).toEqual({ status: 404, errors: [{ message: 'Alert not found' }] });
    expect(await cliAlias('ext-42')).toBe(older.body.id);
  });

  it('create without a team and with the CLI-only urgency "silent": 422 naming the field', async () => {
    const meta = { incident: false, incident_severity: null, incident_message: null };
    expect(cliError(await cli('POST', '/alerts', { title: 'No team', destination_team_ids: [], urgency: 'medium', tags: [], meta }))).toEqual({
      status: 422,
      errors: [{ message: 'destination_team_ids, destination_router_ids or destination_account_user_ids must name at least one destination' }],
    });
    expect(cliError(await cli('POST', '/alerts', { title: 'Silent', destination_team_ids: [teamPrefixId], urgency: 'silent', tags: [], meta }))).toEqual({
      status: 422,
      errors: [{ message: 'urgency must be one of low, medium, high, critical' }],
    });
  });
});
