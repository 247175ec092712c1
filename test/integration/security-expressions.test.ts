// Expressions users write cannot stall the service (docs/security.md, "Expressions users write"): a rule's $regex
// runs in linear time, a wrapper key and a template are refused on save or cut off within their budget, and a
// window_events too large for one answer is paged, never built whole. What each may cost is counted by its budget in
// the unit tests (test/unit/monitor-readers/wrapper-key.test.ts, routing-engine/templates.test.ts, schedule-engine/window-budget.test.ts), never
// timed here; what is checked here is order: while a heavy request is held unapplied, another account's request is
// answered (docs/testing.md, "Budgets, not timings"). This file runs a stack of its own, in its own process, so it can
// hold the worker and the storage calls of one request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '#lib/db/client.ts';
import type { RunningStack } from '#lib/local/stack.ts';
import { logger } from '#lib/logger.ts';
import { errorMessages, isoSeconds, newAccount, pollUntil, request, type Reply, type Ref, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';
import { startTestStack } from './test-stack.ts';

let stack: RunningStack;
let acme: TestAccount;
/** Another account: the one whose requests must not wait for acme's heavy one. */
let globex: TestAccount;
let team: Ref;

beforeAll(async () => {
  if (!process.env.POWERTOOLS_LOG_LEVEL) logger.pinLogLevel('WARN');
  stack = await startTestStack({ dataDir: undefined, port: 0, tableName: 'hark-expressions-test', visibilityTimeoutSeconds: 1 });
  [acme, globex] = await Promise.all([newAccount('Expressions', stack), newAccount('Other account', stack)]);
  const reply = await acme.api('POST', '/teams', { name: 'Ops' });
  expect(reply.status, reply.text).toBe(201);
  team = reply.body;
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const webhook = (hook: Ref, payload: Record<string, unknown>) => request('POST', `/integration/${hook.prefix_id}`, { body: payload, base: stack.baseUrl });

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

/** The other account's request: answered, with its own data. */
async function otherAccountAnswers(): Promise<void> {
  const reply = await globex.api('GET', '/routers?limit=1');
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.data).toEqual([]);
}

/**
 * Posts `payload` to the webhook while the worker is held (its receive loops paused, so the request waits unapplied),
 * checks the other account is answered while the request is still unapplied, then lets the worker go and returns
 * `done`'s value once the request is applied.
 */
async function sendWhileHeld<T>(hook: Ref, payload: Record<string, unknown>, done: () => Promise<T | undefined>): Promise<T> {
  await stack.ingestWorker.pause();
  try {
    const accepted = await webhook(hook, payload);
    expect(accepted.status, accepted.text).toBe(200);
    await otherAccountAnswers();
    expect(await done(), 'the heavy request is still unapplied when the other account is answered').toBeUndefined();
  } finally {
    stack.ingestWorker.resume();
  }
  return pollUntil(done, 20_000);
}

/**
 * Holds every storage call of this process whose input names `marker` until released: the request making them waits
 * there, part-way through, for as long as the test wants. `reached` resolves at the first such call.
 */
function holdStorageCallsNaming(marker: string) {
  let reachedNow!: () => void;
  let releaseNow!: () => void;
  const reached = new Promise<void>((resolve) => (reachedNow = resolve));
  const released = new Promise<void>((resolve) => (releaseNow = resolve));
  const name = `hold-${randomUUID()}`;
  const client = documentClient();
  client.middlewareStack.add(
    (next) => async (args) => {
      if (JSON.stringify(args.input).includes(marker)) {
        reachedNow();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    reached,
    release: () => {
      releaseNow();
      client.middlewareStack.remove(name);
    },
  };
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
    const alert = await sendWhileHeld(hook, { event_type: 'create', Id: 'redos-1', Title: title }, () => createdAlert('redos-1'));
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
    const notes = await sendWhileHeld(hook, { id: 'budget-1', title: 'aaa', n: 50_000_000 }, () => appliedNotes(hook));
    expect(notes).toEqual([`Ignored: Wrapper key ${key} went over its budget: replace count 50000000 is more than 262,144; the payload was not read`]);
    expect(await createdAlert('budget-1')).toBeUndefined();
  });

  it('still reads a plain-path or building key as before', async () => {
    const building = await integration({ wrapper_key: '{event_type: event, Id: data.key, Title: trim(data.summary)}' }, { team_ids: [team.id] });
    const built = await sendWhileHeld(building, { event: 'create', data: { key: 'built-1', summary: `  Disk full${' '.repeat(30_000)}` } }, () => createdAlert('built-1'));
    expect(built.title).toBe('Disk full');
    // A plain path: the fields are the object at the path, not the payload's own (a decoy Id and Title at the top).
    // Whichever alert the request created is awaited, so a worker reading the whole payload fails here at once.
    const plain = await integration({ wrapper_key: 'data.attributes' }, { team_ids: [team.id] });
    const payload = { Id: 'decoy-1', Title: 'Decoy', event_type: 'create', data: { attributes: { event_type: 'create', Id: 'plain-1', Title: 'CPU high' } } };
    const read = await sendWhileHeld(plain, payload, async () => (await createdAlert('plain-1')) ?? (await createdAlert('decoy-1')));
    expect({ thirdparty_id: read.thirdparty_id, title: read.title }, 'the fields under data.attributes').toEqual({ thirdparty_id: 'plain-1', title: 'CPU high' });
    expect(await createdAlert('decoy-1')).toBeUndefined();
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
    const alert = await sendWhileHeld(hook, { event_type: 'create', Id: 'template-1', Title: 'Disk full', Tags: tags }, () => createdAlert('template-1'));
    expect(alert.title).toBe('Disk full');
    const log = await alertLog(alert.id);
    expect(log).toContainEqual(expect.stringMatching(/rule 1: the title template could not be rendered \(it went over its budget: it runs more than 10,000 block bodies\), so the title was left as it was\.$/));
  });
});

describe('window_events pages an oversized window instead of building it', () => {
  it('answers a member’s one-year window over 100 hourly events with its first page, another account answered meanwhile', async () => {
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
    const memberKey = await createMemberKey(acme, stack);
    const window = (from: string, to: string) =>
      request('GET', `/api/v4/schedules/${schedule}/window_events?start=${encodeURIComponent(from)}&end=${encodeURIComponent(to)}`, { key: memberKey, base: stack.baseUrl });
    // Held at its first storage call naming the schedule: the year's request is in the gateway, unanswered.
    const hold = holdStorageCallsNaming(schedule);
    let answered = false;
    const asked = window('2026-01-01 00:00:00', '2027-01-01 00:00:00').finally(() => (answered = true));
    try {
      await Promise.race([hold.reached, asked.then(() => expect.fail('the year was answered without a storage call naming its schedule'))]);
      await otherAccountAnswers();
      expect(answered, 'the year is still unanswered when the other account is answered').toBe(false);
    } finally {
      hold.release();
    }
    // One page of the year's 878,400 entries (the occurrences it builds are counted in test/unit/schedule-engine/window-budget.test.ts).
    const year = await asked;
    expect(year.status, year.text).toBe(200);
    expect(year.body).toHaveLength(5_000);
    expect(year.headers.get('link')).toMatch(/^<\/api\/v4\/schedules\/[^>]+&cursor=\d+&limit=5000>; rel="next"$/);
    // A day of it is answered whole, as before: 100 events × 24 hours.
    const day = await window('2026-01-01 00:00:00', '2026-01-02 00:00:00');
    expect(day.status).toBe(200);
    expect(day.body).toHaveLength(2_400);
  }, 120_000);
});
