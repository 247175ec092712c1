// Expressions users write cannot stall the service (docs/security.md, "Expressions users write"): a rule's $regex
// runs in linear time, a wrapper key and a template are refused on save or cut off within their budget, and a
// window_events too large for one answer is paged, never built whole. Each scenario also checks that another request
// made at the same time answers promptly (the local stack runs the worker in the gateway's process).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addTeam, errorMessages, isoSeconds, newAccount, request, type Reply, type Ref, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let team: Ref;

beforeAll(async () => {
  acme = await newAccount('Expressions');
  team = await addTeam(acme, 'Ops');
});

/** A router whose default receiver is the team, with these rules; fails the test unless it is created. */
async function router(rules: string): Promise<Ref> {
  const reply = await acme.api('POST', '/routers', { name: `Router ${randomUUID().slice(0, 8)}`, default_receiver_team_id: team.id, rules });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

async function integration(options: Record<string, unknown>, destination: { router_ids?: string[]; team_ids?: string[] }): Promise<Ref> {
  const reply = await acme.api('POST', '/integrations', { name: `Monitor ${randomUUID().slice(0, 8)}`, options, ...destination });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

/** Milliseconds a GET of the account's routers takes: the "other request" that must not wait for an expression. */
async function otherRequestMs(): Promise<number> {
  const started = Date.now();
  const reply = await acme.api('GET', '/routers?limit=1');
  expect(reply.status).toBe(200);
  return Date.now() - started;
}

/**
 * Posts `payload` to the webhook, then keeps making other requests until `done` gives a value: each of them must
 * answer within 5 s (generous; a stalled worker blocks them for as long as it stalls).
 */
async function sendWhileAsking<T>(hook: Ref, payload: Record<string, unknown>, done: () => Promise<T | undefined>): Promise<T> {
  const accepted = await request('POST', `/integration/${hook.prefix_id}`, { body: payload });
  expect(accepted.status).toBe(200);
  const deadline = Date.now() + 20_000;
  for (;;) {
    expect(await otherRequestMs()).toBeLessThan(5_000);
    const value = await done();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('the request was not applied within 20 s');
  }
}

/** The notes (sublogs) of the integration's only request log, once the worker has applied it. */
async function appliedNotes(hook: Ref): Promise<string[] | undefined> {
  const logs = (await acme.api('GET', `/logs?owner_id=${hook.id}&limit=10`)).body.data as { id: string }[];
  if (logs.length === 0) return undefined;
  const log = await acme.api('GET', `/logs/${logs[0]!.id}`);
  const notes = (log.body.details.sublogs as { message: string }[]).map((s) => s.message);
  return notes.length > 0 ? notes : undefined;
}

/** The alert the integration's request created, once it exists. */
async function createdAlert(thirdpartyId: string): Promise<any> {
  const alerts = (await acme.api('GET', `/alerts?thirdparty_id=${encodeURIComponent(thirdpartyId)}`)).body.data as any[];
  return alerts[0];
}

const alertLog = async (alertId: string): Promise<string[]> =>
  ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { message: string }[]).map((l) => l.message);

describe('a router $regex runs in linear time', () => {
  it('routes a 255-character title past ^(a+)+$ at once while other requests answer', async () => {
    const rtr = await router('rules:\n- match: {alert.title: {$regex: "^(a+)+$"}}\n  actions: [{type: ignore}]\n');
    const hook = await integration({}, { router_ids: [rtr.id] });
    const title = `${'a'.repeat(254)}!`;
    // A backtracking engine needs 2^254 steps for this title; 28 characters stalled the whole service for 15 s.
    const alert = await sendWhileAsking(hook, { event_type: 'create', Id: 'redos-1', Title: title }, () => createdAlert('redos-1'));
    expect(alert.title).toBe(title);
    await vi.waitFor(async () => expect((await alertLog(alert.id)).join('\n')).toContain(team.id), { timeout: 10_000 });
    expect(alert.status).not.toBe('suppressed');
  });

  it('refuses on save what the linear engine cannot run, naming the rule’s line', async () => {
    const reply = await acme.api('POST', '/routers', {
      name: 'Backreference',
      default_receiver_team_id: team.id,
      rules: 'rules:\n- match: {always: true}\n  actions: [{type: ignore}]\n- match: {alert.title: {$regex: "(a+)\\\\1"}}\n  actions: [{type: ignore}]\n',
    });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual(['rules line 4: $regex uses a backreference (\\1), which rules do not support: they run regexes in linear time (RE2)']);
    const lookahead = await acme.api('POST', '/notification_rules', { name: 'Lookahead', rules: 'rules:\n- match: {alert.title: {$regex: "a(?=b)"}}\n  actions: [{type: ignore}]\n' });
    expect(lookahead.status).toBe(422);
    expect(errorMessages(lookahead)).toEqual([expect.stringMatching(/^rules line 2: \$regex uses a lookahead/)]);
  });
});

describe('a wrapper key is refused on save or cut off within its budget', () => {
  it('refuses nested projections and literal counts no payload needs (422 naming the field)', async () => {
    const nested = Array.from({ length: 22 }, (_, i) => `a${i}[*]`).join('.');
    const reply = await acme.api('POST', '/integrations', { name: 'Nested', team_ids: [team.id], options: { wrapper_key: nested } });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([expect.stringMatching(/^options\.wrapper_key costs more than a wrapper key may on every request: it nests more than 8 projections/)]);
    const count = await acme.api('POST', '/integrations', { name: 'Count', team_ids: [team.id], option_wrapper_key: "replace(title, 'a', 'b', `10000000`)" });
    expect(count.status).toBe(422);
    expect(errorMessages(count)).toEqual([expect.stringMatching(/^option_wrapper_key costs more .*replace\(\) count 10000000 is more than 262,144$/)]);
  });

  it('logs a request whose wrapper key goes over its budget as ignored, with the reason, and stalls nothing', async () => {
    // The count comes from the payload, so saving cannot see it; the library allocated 50 million entries for it.
    const key = "{event_type: 'create', Id: id, Title: replace(title, 'a', 'b', n)}";
    const hook = await integration({ wrapper_key: key }, { team_ids: [team.id] });
    const notes = await sendWhileAsking(hook, { id: 'budget-1', title: 'aaa', n: 50_000_000 }, () => appliedNotes(hook));
    expect(notes).toEqual([`Ignored: Wrapper key ${key} went over its budget: replace count 50000000 is more than 262,144; the payload was not read`]);
    expect(await createdAlert('budget-1')).toBeUndefined();
  });

  it('still reads a plain-path or building key as before', async () => {
    const hook = await integration({ wrapper_key: '{event_type: event, Id: data.key, Title: trim(data.summary)}' }, { team_ids: [team.id] });
    const alert = await sendWhileAsking(hook, { event: 'create', data: { key: 'built-1', summary: `  Disk full${' '.repeat(30_000)}` } }, () => createdAlert('built-1'));
    expect(alert.title).toBe('Disk full');
  });
});

describe('a router template is refused on save or falls back within its budget', () => {
  const setval = (title: string) => `rules:\n- match: {always: true}\n  actions:\n  - {type: setval, handlebars: true, map: {title: ${JSON.stringify(title)}}}\n`;
  const each = (levels: number) => {
    let body = 'x';
    for (let level = levels; level >= 1; level--) body = `{{#each ${'../'.repeat(level - 1)}alert.tag_list}}${body}{{/each}}`;
    return body;
  };

  it('refuses four nested #each on save (1.4 s per alert over 50 tags before)', async () => {
    const reply = await acme.api('POST', '/routers', { name: 'Nested each', default_receiver_team_id: team.id, rules: setval(each(4)) });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual(['rules line 4: title nests blocks 4 levels deep ({{#each}} inside {{#each}} …); at most 3 are allowed']);
  });

  it('leaves the title as it was, with a log entry, when three nested #each over 50 tags go over the budget', async () => {
    const rtr = await router(setval(each(3)));
    const hook = await integration({}, { router_ids: [rtr.id] });
    const tags = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const alert = await sendWhileAsking(hook, { event_type: 'create', Id: 'template-1', Title: 'Disk full', Tags: tags }, () => createdAlert('template-1'));
    expect(alert.title).toBe('Disk full');
    const log = await alertLog(alert.id);
    expect(log).toContainEqual(expect.stringMatching(/rule 1: the title template could not be rendered \(it went over its budget: it runs more than 10,000 block bodies\), so the title was left as it was\.$/));
  });
});

describe('window_events pages an oversized window instead of building it', () => {
  it('answers a member’s one-year window over 100 hourly events with its first page within seconds', async () => {
    const schedule = (await acme.api('GET', `/teams/${team.id}`)).body.schedule_id as string;
    const start = Date.UTC(2025, 0, 1);
    for (let batch = 0; batch < 10; batch++) {
      const created: Reply[] = await Promise.all(
        Array.from({ length: 10 }, () =>
          acme.api('POST', '/events', {
            schedule_ids: [schedule],
            layer: 1,
            time_zone: 'UTC',
            start_time: isoSeconds(start),
            end_time: isoSeconds(start + 3_600_000),
            repeat: true,
            frequency: 1,
            frequency_unit: 'hourly',
            account_user_ids: [acme.adminAccountUserId],
          }),
        ),
      );
      for (const reply of created) expect(reply.status, reply.text).toBe(201);
    }
    const memberKey = await createMemberKey(acme);
    const window = (from: string, to: string) =>
      request('GET', `/api/v4/schedules/${schedule}/window_events?start=${encodeURIComponent(from)}&end=${encodeURIComponent(to)}`, { key: memberKey });
    const started = Date.now();
    const [year, other] = await Promise.all([window('2026-01-01 00:00:00', '2027-01-01 00:00:00'), otherRequestMs()]);
    // Generous: 4.9 s and 750 MB when the whole year was built; now one page of 878,400 entries is.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(other).toBeLessThan(5_000);
    expect(year.status, year.text).toBe(200);
    expect(year.body).toHaveLength(5_000);
    expect(year.headers.get('link')).toMatch(/^<\/api\/v4\/schedules\/[^>]+&cursor=\d+&limit=5000>; rel="next"$/);
    // A day of it is answered whole, as before: 100 events × 24 hours.
    const day = await window('2026-01-01 00:00:00', '2026-01-02 00:00:00');
    expect(day.status).toBe(200);
    expect(day.body).toHaveLength(2_400);
  });
});
