// Seeded fuzz of the request edge: every route of the route table, as an admin and as a member, with hostile
// path ids, query strings and bodies; then, as an admin, every field of every body schema with hostile ids,
// free-form values DynamoDB could not store and deep nesting, in an otherwise valid body. Never a 5xx; every 4xx is
// the JSON error body; nothing is written.
import fc from 'fast-check';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationOf } from '#lib/http/openapi/operations.ts';
// The console's pages answer HTML, not the API's JSON error body: test/integration/console*.test.ts covers them.
import { API_PREFIX, API_ROUTES as ROUTES, type Route } from '#lib/http/routes.ts';
import { baseBody, fieldsOf, hostileValues, withField, type BaseIds } from './fuzz-fields.ts';
import { baseUrl, newAccount, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

/** Fixed so a failure replays; fast-check prints the seed and the smallest failing request. */
const SEED = 20_250_707;
/** Per route and role: with the body phase, a run sends over 10,000 requests (counted and checked below). */
const RUNS_PER_ROUTE = 37;
const MIN_REQUESTS = 10_000;
let requestsSent = 0;
/** Hostile values tried per field of a body schema (of 4 to 24 per kind, fuzz-fields.ts). */
const RUNS_PER_FIELD = 4;

const HOSTILE_IDS = [
  'x'.repeat(10_000),
  '%E0%A4%A',
  '%',
  '..',
  '.',
  '%2E%2E',
  '%2F',
  '%00',
  '%F0%9F%92%A9',
  encodeURIComponent('日本語ü'),
  '__proto__',
  'constructor',
  'a'.repeat(64),
  'a'.repeat(65),
  '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'sch_abcdefghijkl',
  '0',
  '-1',
  '1e400',
  '%20',
];

const HOSTILE_QUERIES = [
  '',
  'sort=name&sort=created_at',
  'limit=1&limit=2',
  'direction=asc&direction=desc',
  'ops=name:equals&ops=name:ne',
  'name=a&name=b',
  'limit=99999999999999999999999',
  'limit=-1',
  'limit=1e3',
  'limit=abc',
  'offset=1e400',
  'offset=-5',
  'page=0',
  'page=99999999999999',
  'a[]=1&a[]=2',
  'a[]=',
  'q=%E0%A4%A',
  '%E0%A4%A=1',
  'q=' + encodeURIComponent('日本語💩'),
  'ops=name:between:..',
  'ops=::::,,,',
  'ops=__proto__:equals',
  'ops=name:regex',
  'direction=sideways',
  'sort=__proto__',
  '__proto__=x',
  'constructor=x&prototype=y',
  'start=x&end=y',
  'start=2025-01-01%2000:00:00&end=3025-01-01%2000:00:00',
  '%00=%00',
  'x=' + 'y'.repeat(6_000),
  'sort=name&direction=asc&limit=100&offset=0',
  // Filters read as keys of an index: longer than a DynamoDB key can be (1,500 é are 3,000 bytes).
  `thirdparty_id=${encodeURIComponent('é'.repeat(1_500))}`,
  `status=${'x'.repeat(3_000)}`,
  `owner_id=${'x'.repeat(3_000)}`,
  `team_id=${'x'.repeat(3_000)}`,
];

/** Every body is refused by every route: not a JSON object, over the size limit, or with fields of the wrong type. */
const wrongFields = { name: 5, body: 5, user_attributes: 5, roles: 5, start_time: 5, rules: 5, integration_ids: 5, account_user_ids: 5 };
const deep = (levels: number, open: string, close: string, inner: string) => open.repeat(levels) + inner + close.repeat(levels);
const HOSTILE_BODIES = [
  'not json',
  '{',
  '{"name":',
  '\u0000',
  'null',
  '[]',
  '[{"name":"x"}]',
  '"a string"',
  '123',
  'true',
  JSON.stringify({ ...wrongFields, name: 'x'.repeat(300 * 1024) }),
  JSON.stringify({ name: 'x'.repeat(300 * 1024) }),
  `{"name":${deep(5_000, '[', ']', '1')}}`,
  `{"name":5,"meta":${deep(2_000, '{"a":', '}', '1')}}`,
  deep(5_000, '[', ']', ''),
  `{"__proto__":{"admin":true,"name":"x"},${JSON.stringify(wrongFields).slice(1)}`,
  JSON.stringify({ constructor: { prototype: { polluted: true } }, ...wrongFields }),
  JSON.stringify(Object.fromEntries(Object.keys(wrongFields).map((k) => [k, { ü: '日本', '💩': [null] }]))),
  JSON.stringify(Object.fromEntries(Object.keys(wrongFields).map((k) => [k, [1, 'two', null]]))),
  JSON.stringify(Object.fromEntries(Object.keys(wrongFields).map((k) => [k, -1e308]))),
];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/octet-stream', 'application/x-www-form-urlencoded'];

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** node:http sends the path exactly as given (fetch would normalise `..` and re-encode). */
function send(method: string, path: string, key: string, body?: { text: string; type: string }): Promise<Reply> {
  requestsSent += 1;
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body) headers['content-type'] = body.type;
    const req = httpRequest({ agent, host: hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body?.text);
  });
}

/** The account's lists as its API key reads them (the intake dialects' `/v2/…` reads take their integration's key instead). */
const LIST_PATHS = ROUTES.filter((r) => r.method === 'GET' && !r.path.includes('{') && r.path.startsWith(API_PREFIX)).map((r) => r.path);

/** Lists kept under each object (GET /<resource>/{id}/<list>): comments, logs, notifications, events, deliveries. */
const CHILD_LISTS = ROUTES.filter((r) => r.method === 'GET' && /^[^{]*\/\{id\}\/(logs|comments|notifications|workflows|events|alerts|deliveries)$/.test(r.path)).map((r) => r.path);

/**
 * Every collection of the account as the API lists it, newest first, and under each object listed the lists it keeps
 * (an alert's comments, log, notifications and workflows, a schedule's events, a broadcast's answers and messages,
 * a webhook's deliveries): any write changes this.
 */
async function snapshot(key: string): Promise<Record<string, unknown>> {
  const read = async (path: string) => {
    const reply = await send('GET', `${path}?limit=100`, key);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text}`);
    return JSON.parse(reply.text) as { data?: { id: string }[] };
  };
  const lists = Object.fromEntries(await Promise.all(LIST_PATHS.map(async (path) => [path, await read(path)] as const)));
  const children: [string, unknown][] = [];
  for (const template of CHILD_LISTS) {
    const parent = template.slice(0, template.indexOf('/{id}'));
    for (const { id } of lists[parent]?.data ?? []) {
      const path = template.replace('{id}', id);
      children.push([path, await read(path)]);
    }
  }
  expect(children.length, 'the snapshot reads the lists kept under objects').toBeGreaterThan(0);
  return { ...lists, ...Object.fromEntries(children) };
}

/** The account as `before`: first the lists that changed, by path (so a write says where it landed), then the whole. */
async function expectUnchanged(before: Record<string, unknown>): Promise<void> {
  const after = await snapshot(admin.adminKey);
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((path) => JSON.stringify(before[path]) !== JSON.stringify(after[path]));
  expect(changed, `lists changed by refused requests: ${changed.join(', ')}`).toEqual([]);
  expect(after).toEqual(before);
}

/** The PagerDuty and Opsgenie rows answer in their sender's dialect (docs/migrating.md), not the API's error body. */
const PAGERDUTY_PATHS = ['/v2/enqueue', '/v2/change/enqueue'];
const isOpsgenieRow = (route: Route) => /(^|\/)v2\//.test(route.path) && !PAGERDUTY_PATHS.includes(route.path);

function checkDialectRefusal(route: Route, reply: Reply): void {
  expect(String(reply.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  // A request the gateway cannot even parse (before any route) gets the gateway's own error body.
  if (body.code === reply.status && Array.isArray(body.errors)) return;
  if (PAGERDUTY_PATHS.includes(route.path)) {
    expect(body.status, reply.text).toBe('invalid event');
    expect((body.errors as unknown[]).every((e) => typeof e === 'string'), reply.text).toBe(true);
  } else {
    expect(typeof body.message, reply.text).toBe('string');
  }
}

function checkReply(route: Route, reply: Reply): void {
  expect(reply.status, reply.text).toBeLessThan(500);
  const isPage = String(reply.headers['content-type']).startsWith('text/html');
  if (reply.status >= 400 && (PAGERDUTY_PATHS.includes(route.path) || isOpsgenieRow(route))) {
    checkDialectRefusal(route, reply);
  } else if (reply.status >= 400 && isPage) {
    // Pages a person opens from a message answer their own refusals as a page (docs/notifications.md).
    expect(operationOf(route).answer, reply.text.slice(0, 200)).toBe('html');
  } else if (reply.status >= 400) {
    expect(String(reply.headers['content-type'])).toMatch(/^application\/json/);
    const body = JSON.parse(reply.text) as { errors: { message: unknown }[]; code: unknown };
    expect(body.code).toBe(reply.status);
    expect(body.errors.length).toBeGreaterThan(0);
    for (const error of body.errors) expect(typeof error.message).toBe('string');
  } else {
    // Only reads may succeed: every hostile write must be refused.
    expect(route.method, `${reply.status} ${reply.text.slice(0, 200)}`).toBe('GET');
  }
}

let admin: TestAccount;
let memberKey: string;
const realIds: Record<string, string[]> = {};
/** One real object per resource whose rows take a body, for the body phase's paths; and what base bodies name. */
const bodyPathIds: Record<string, string> = {};
let baseIds: BaseIds;

/** Waits until two snapshots a second apart are equal: objects created for the fuzz have finished their background work. */
async function settled(): Promise<void> {
  let previous = await snapshot(admin.adminKey);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await snapshot(admin.adminKey);
    if (JSON.stringify(next) === JSON.stringify(previous)) return;
    previous = next;
  }
  throw new Error('the fuzz account did not settle');
}

/** Creates an object for the body phase and keeps its id as the path id of its resource. */
async function real(resource: string, body: Record<string, unknown>, path = `/${resource}`): Promise<Record<string, any>> {
  const reply = await admin.api('POST', path, body);
  if (reply.status !== 201) throw new Error(`${resource}: ${reply.status} ${reply.text}`);
  bodyPathIds[resource] = reply.body.id;
  return reply.body;
}

beforeAll(async () => {
  admin = await newAccount('Fuzz');
  memberKey = await createMemberKey(admin);
  const team = (await admin.api('POST', '/teams', { name: 'Fuzzed team' })).body;
  const schedule = (await admin.api('POST', '/schedules', { name: 'Fuzzed schedule' })).body;
  realIds.teams = [team.id, team.prefix_id];
  realIds.schedules = [schedule.id, schedule.prefix_id, team.schedule_id];
  realIds.escalation_policies = [team.escalation_policy_id];
  realIds.account_users = [admin.adminAccountUserId];

  const me = (await admin.api('GET', `/account_users/${admin.adminAccountUserId}`)).body;
  Object.assign(bodyPathIds, { teams: team.id, schedules: schedule.id, escalation_policies: team.escalation_policy_id, account_users: me.id, users: me.user_id });
  const integration = await real('integrations', { name: 'Fuzzed integration', account_user_ids: [me.id] });
  baseIds = { adminAccountUserId: me.id, scheduleId: schedule.id, teamId: team.id, integrationId: integration.id };
  const bodyOf = (path: string) => baseBody(ROUTES.find((r) => r.method === 'POST' && r.path === `${API_PREFIX}${path}`)!, baseIds);
  await real('events', bodyOf('/events'));
  await real('routers', bodyOf('/routers'));
  await real('notification_rules', { name: 'Fuzzed rule' });
  await real('maintenance_windows', bodyOf('/maintenance_windows'));
  await real('time_off', bodyOf('/time_off'));
  // The team has nobody on call: the alert is dropped at once and pages nobody, so nothing changes afterwards.
  await real('alerts', bodyOf('/alerts'));
  await real('comments', { body: 'Fuzzed comment' });
  await real('broadcasts', { ...bodyOf('/broadcasts'), broadcast_response_options_attributes: [{ value: 'Yes' }], response_requested: true, response_requested_by: '2031-01-01T00:00:00Z' });
  await real('outgoing_webhooks', bodyOf('/outgoing_webhooks'));
  await settled();
}, 90_000);

afterAll(() => agent.destroy());

/** Path ids for a route: the hostile ones, plus real ids of its kind for reads and updates (bodies are always refused). */
function idsFor(route: Route): string[] {
  const resource = route.path.replace('/api/v4/', '').split('/')[0]!;
  const real = route.method === 'GET' || route.method === 'PUT' ? (realIds[resource] ?? []) : [];
  return [...HOSTILE_IDS, ...real];
}

describe('fuzzing every route of the route table', () => {
  it('never a 5xx, every 4xx is the JSON error body, and nothing is written', async () => {
    const before = await snapshot(admin.adminKey);
    for (const [role, key] of [
      ['admin', admin.adminKey],
      ['member', memberKey],
    ] as const) {
      for (const [index, route] of ROUTES.entries()) {
        const request = fc.record({
          id: fc.constantFrom(...idsFor(route)),
          query: fc.constantFrom(...HOSTILE_QUERIES),
          body: fc.option(fc.record({ text: fc.constantFrom(...HOSTILE_BODIES), type: fc.constantFrom(...CONTENT_TYPES) }), { nil: undefined, freq: 4 }),
        });
        await fc.assert(
          fc.asyncProperty(request, async ({ id, query, body }) => {
            // A PUT without a body on a real object is a valid update that changes nothing but updated_at: not hostile.
            fc.pre(!(route.method === 'PUT' && body === undefined && !HOSTILE_IDS.includes(id)));
            const path = route.path.replace(/\{[a-z_]+\}/, id) + (query ? `?${query}` : '');
            checkReply(route, await send(route.method, path, key, body));
          }),
          { seed: SEED + index, numRuns: RUNS_PER_ROUTE, endOnFailure: true, reporter: (details) => {
            if (details.failed) throw new Error(`${role} ${route.method} ${route.path}: seed ${details.seed}, path ${details.counterexamplePath}\n${String(details.errorInstance)}\n${fc.defaultReportMessage(details)}`);
          } },
        );
      }
    }
    await expectUnchanged(before);
  }, 400_000);

  // Admin only: a member is refused admin rows by role before validation, and member rows validate as for an admin.
  // The webhook and Twilio's routes (public) take any payload by design; their limits: limits-at-the-door.test.ts.
  it('hostile ids, free-form values and deep nesting in every field of every body: never a 5xx, and nothing is written', async () => {
    const before = await snapshot(admin.adminKey);
    for (const [index, route] of ROUTES.entries()) {
      const fields = route.role === 'public' ? [] : fieldsOf(route);
      if (fields.length === 0) continue;
      const resource = route.path.slice(API_PREFIX.length).split('/')[1]!;
      if (route.path.includes('{') && !bodyPathIds[resource]) throw new Error(`no object to fuzz ${route.method} ${route.path} on`);
      const path = route.path.replace(/\{[a-z_]+\}/, bodyPathIds[resource] ?? '');
      const base = baseBody(route, baseIds);
      for (const [f, field] of fields.entries()) {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...hostileValues(field)), async (value) => {
            const reply = await send(route.method, path, admin.adminKey, { text: JSON.stringify(withField(base, field.path, value)), type: 'application/json' });
            checkReply(route, reply);
          }),
          { seed: SEED + 1_000 * index + f, numRuns: RUNS_PER_FIELD, endOnFailure: true, reporter: (details) => {
            if (details.failed) throw new Error(`${route.method} ${route.path} ${field.path.join('.')}: seed ${details.seed}\n${String(details.errorInstance)}\n${fc.defaultReportMessage(details)}`);
          } },
        );
      }
    }
    await expectUnchanged(before);
  }, 180_000);

  it(`sent at least ${MIN_REQUESTS} requests in all`, () => {
    expect(requestsSent).toBeGreaterThanOrEqual(MIN_REQUESTS);
  });
});
