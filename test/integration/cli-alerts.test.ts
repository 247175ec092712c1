// The reference CLI's alert commands, replayed request by request: the method, path, query (in the order the CLI
// builds it), JSON body (as its HTTP library serialises it) and the headers it sets, and the fields it reads from
// each answer. Commands checked: docs/alerts.md, "Works with the reference CLI".
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount, request, teamWithOnCall, useTestStack, type Reply, type TestAccount } from './helpers.ts';

let acme: TestAccount;
let teamPrefixId: string;

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Reference CLI');
  teamPrefixId = (await teamWithOnCall(acme, [[acme.adminAccountUserId]], 'CLI')).prefix_id;
});

/** What the CLI's HTTP session sends with every request. */
const cliHeaders = () => ({ 'content-type': 'application/json', 'user-agent': 'PagerTree-Python-CLI-Client/1.0', accept: '*/*' });

/** One request as the CLI sends it; `json` is serialised the way its HTTP library does (`", "` and `": "`). */
function cli(method: string, path: string, json?: unknown): Promise<Reply> {
  const rawBody = json === undefined ? undefined : JSON.stringify(json).replace(/","/g, '", "').replace(/":/g, '": ').replace(/,"/g, ', "');
  return request(method, `/api/v4${path}`, { key: acme.adminKey, headers: cliHeaders(), ...(rawBody !== undefined ? { rawBody } : {}) });
}

/** `handle_api_error`: a failure shows the status and the `errors` of the JSON body. */
const cliError = (reply: Reply) => ({ status: reply.status, errors: (reply.body as { errors?: unknown }).errors });

/** `alerts list`: limit, offset, status, q, thirdparty_id, in this order, each only when set. */
async function cliList(query: string) {
  const reply = await cli('GET', `/alerts?${query}`);
  expect(reply.status, reply.text).toBe(200);
  const { data, total_count, has_more } = reply.body;
  expect(typeof total_count).toBe('number');
  expect(typeof has_more).toBe('boolean');
  return { data: data as Record<string, unknown>[], total: total_count as number };
}

describe('the reference CLI alert commands', () => {
  it('create, list, show, comment, list-comments, acknowledge, reject, resolve', async () => {
    // alerts create --title "Disk full" --description "95% on /var" --team-id <team> --urgency high --tags db --tags prod --alias ext-42
    const created = await cli('POST', '/alerts', {
      title: 'Disk full',
      description: '95% on /var',
      destination_team_ids: [teamPrefixId],
      urgency: 'high',
      tags: ['db', 'prod'],
      thirdparty_id: 'ext-42',
      meta: { incident: false, incident_severity: null, incident_message: null },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(id).toEqual(expect.any(String));

    // alerts list  /  alerts list --status open --search Disk
    const all = await cliList('limit=10&offset=0');
    expect(all.data.map((a) => [a.id, a.title, a.status])).toEqual([[id, 'Disk full', 'open']]);
    expect(all.total).toBe(1);
    const open = await cliList('limit=10&offset=0&status=open&q=Disk');
    expect(open.data.map((a) => a.id)).toEqual([id]);

    // alerts show <id>: the fields it prints (it reads `tags`, which the API answers as `tag_list`, so it shows N/A).
    const shown = await cli('GET', `/alerts/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id, status: 'open', urgency: 'high', title: 'Disk full', description: '95% on /var', created_at: expect.any(String) });
    expect(shown.body.destination_team_ids).toHaveLength(1);
    expect(shown.body.destination_router_ids).toEqual([]);
    expect(shown.body.destination_account_user_ids).toEqual([]);
    expect(shown.body.tag_list).toEqual(['db', 'prod']);
    expect(shown.body.thirdparty_id).toBeNull(); // not accepted on an API create, as the reference

    // alerts comment <id> --comment "looking into it"  /  alerts list-comments <id>
    expect((await cli('POST', `/alerts/${id}/comments`, { body: 'looking into it' })).status).toBe(201);
    const comments = await cli('GET', `/alerts/${id}/comments?limit=10&offset=0`);
    expect(comments.status).toBe(200);
    expect(comments.body.total_count).toBe(1);
    expect(comments.body.data.map((c: Record<string, unknown>) => [typeof c.created_at, typeof c.created_by_name, c.body])).toEqual([['string', 'string', 'looking into it']]);

    // alerts acknowledge --alias ext-42: the alias lookup lists by thirdparty_id and finds none.
    expect((await cliList('limit=1&offset=0&thirdparty_id=ext-42')).total).toBe(0);
    // alerts reject --alias ext-42 looks among open alerts.
    expect((await cliList('limit=1&offset=0&status=open&thirdparty_id=ext-42')).total).toBe(0);

    // alerts reject <id> (the admin is on call and was paged), then acknowledge, acknowledge again, resolve, reject.
    const rejected = await cli('POST', `/alerts/${id}/reject`);
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.id).toBe(id);
    const acked = await cli('POST', `/alerts/${id}/acknowledge`);
    expect(acked.status, acked.text).toBe(200);
    expect(acked.body.id).toBe(id);
    expect(cliError(await cli('POST', `/alerts/${id}/acknowledge`))).toEqual({
      status: 422,
      errors: [{ message: 'status is acknowledged; only an open, dropped or suppressed alert can be acknowledged' }],
    });
    const resolved = await cli('POST', `/alerts/${id}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.id).toBe(id);
    expect(cliError(await cli('POST', `/alerts/${id}/reject`))).toEqual({ status: 422, errors: [{ message: 'status is resolved; only an open alert can be rejected' }] });
    expect((await cliList('limit=10&offset=0&status=resolved')).data.map((a) => a.id)).toEqual([id]);
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
