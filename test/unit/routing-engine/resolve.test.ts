import { describe, expect, it } from 'vitest';
import { resolveRouting, type FindReceiver, type RoutingAlert, type RoutingInput, type RoutingRouter } from '#lib/routing-engine/index.ts';

// Rules: docs/routing.md.

const NOW = new Date('2026-03-04T10:00:00Z'); // a Wednesday

const ALERT: RoutingAlert = {
  title: 'db down',
  description: 'primary unreachable',
  urgency: 'high',
  tag_list: ['db'],
  meta: {},
  source_type: 'AccountUser',
  source_id: 'u1',
};

type RouterSpec = Partial<RoutingRouter> & { id: string };

function routerOf(spec: RouterSpec): RoutingRouter {
  return {
    prefix_id: `rtr_${spec.id}`,
    name: spec.id,
    enabled: true,
    rules: '',
    default_receiver_account_user_id: null,
    default_receiver_router_id: null,
    default_receiver_team_id: null,
    ...spec,
  };
}

/** Routers reachable by canonical or prefix id; counts the loads so tests can see caching. */
function routersOf(...specs: RouterSpec[]) {
  const routers = specs.map(routerOf);
  const loads: string[] = [];
  const loadRouter = async (id: string) => {
    loads.push(id);
    return routers.find((r) => r.id === id || r.prefix_id === id);
  };
  return { loadRouter, loads };
}

function input(routerIds: string[], extra: Partial<RoutingInput> = {}): RoutingInput {
  return { alert: ALERT, destinations: { router_ids: routerIds }, now: NOW, ...extra };
}

async function route(routerIds: string[], specs: RouterSpec[], extra: Partial<RoutingInput> = {}, findReceiver?: FindReceiver) {
  const { loadRouter } = routersOf(...specs);
  return resolveRouting(input(routerIds, extra), loadRouter, findReceiver);
}

const pairs = (outcome: Awaited<ReturnType<typeof route>>) => outcome.receivers.map((r) => [r.kind, r.id, r.delay_ms]);

describe('resolveRouting: assign', () => {
  it('assigns to teams and account users by prefix id, logging each', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [tem_ops, usr_ann]}]' }]);
    expect(outcome.status).toBe('open');
    expect(pairs(outcome)).toEqual([
      ['team', 'tem_ops', 0],
      ['account_user', 'usr_ann', 0],
    ]);
    expect(outcome.team_ids).toEqual(['tem_ops']);
    expect(outcome.account_user_ids).toEqual(['usr_ann']);
    expect(outcome.receivers.every((r) => r.router_id === 'r1')).toBe(true);
    expect(outcome.log).toEqual([
      { event: 'routed', router_id: 'r1', team_id: 'tem_ops', message: 'Router "r1" (rtr_r1), rule 1, assigned the alert to team tem_ops.' },
      { event: 'routed', router_id: 'r1', account_user_id: 'usr_ann', message: 'Router "r1" (rtr_r1), rule 1, assigned the alert to account user usr_ann.' },
    ]);
    expect(outcome.suppressed).toBe(false);
    expect(outcome.dropped).toEqual([]);
  });

  it('the first matching rule wins', async () => {
    const rules = [
      'rules:',
      '- match: {alert.urgency: low}',
      '  actions: [{type: assign, receiver: tem_low}]',
      '- match: {alert.title: {$regex: db}}',
      '  actions: [{type: assign, receiver: tem_db}]',
      '- match: {always: true}',
      '  actions: [{type: assign, receiver: tem_all}]',
    ].join('\n');
    const outcome = await route(['r1'], [{ id: 'r1', rules }]);
    expect(outcome.team_ids).toEqual(['tem_db']);
    expect(outcome.log[0]?.message).toContain('rule 2');
  });

  it('a delay becomes the destination delay, summed through nested routers', async () => {
    const outcome = await route(
      ['r1'],
      [
        { id: 'r1', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [rtr_r2, tem_now]}, {type: assign, receiver: usr_x, delay: 10m}]' },
        { id: 'r2', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: tem_later, delay: 5m}]' },
      ],
      {},
    );
    expect(pairs(outcome)).toEqual([
      ['team', 'tem_later', 300_000],
      ['team', 'tem_now', 0],
      ['account_user', 'usr_x', 600_000],
    ]);
    expect(outcome.receivers[0]?.router_id).toBe('r2');
    expect(outcome.log.map((e) => e.message)).toContain('Router "r1" (rtr_r1), rule 1, assigned the alert to account user usr_x after 10 minutes.');
  });

  it('delay on the assign to a router carries to that router’s default receivers', async () => {
    const outcome = await route(
      ['r1'],
      [
        { id: 'r1', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: rtr_r2, delay: 90m}]' },
        { id: 'r2', default_receiver_team_id: 'T2' },
      ],
    );
    expect(pairs(outcome)).toEqual([['team', 'T2', 5_400_000]]);
    expect(outcome.log.map((e) => e.message)).toEqual([
      'Router "r1" (rtr_r1), rule 1, assigned the alert to router rtr_r2 after 1 hour and 30 minutes.',
      'Router "r2" (rtr_r2): no rule matched, so the alert goes to its default receivers.',
      'Router "r2" (rtr_r2) sent the alert to team T2 after 1 hour and 30 minutes.',
    ]);
  });
});

describe('resolveRouting: default receivers', () => {
  it('no matching rule → every default receiver', async () => {
    const outcome = await route(
      ['r1'],
      [
        {
          id: 'r1',
          rules: 'rules:\n- match: {alert.urgency: low}\n  actions: [{type: ignore}]',
          default_receiver_team_id: 'T1',
          default_receiver_account_user_id: 'U1',
          default_receiver_router_id: 'r2',
        },
        { id: 'r2', default_receiver_team_id: 'T2' },
      ],
    );
    expect(pairs(outcome)).toEqual([
      ['team', 'T1', 0],
      ['account_user', 'U1', 0],
      ['team', 'T2', 0],
    ]);
    expect(outcome.log[0]).toEqual({
      event: 'routed',
      router_id: 'r1',
      message: 'Router "r1" (rtr_r1): no rule matched, so the alert goes to its default receivers.',
    });
    expect(outcome.log.map((e) => e.message)).toContain('Router "r1" (rtr_r1) sent the alert to router rtr_r2.');
  });

  it('a blank rules document sends to the defaults', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: '# nothing yet', default_receiver_team_id: 'T1' }]);
    expect(outcome.team_ids).toEqual(['T1']);
  });

  it('a disabled router ignores its rules and sends to its defaults', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', enabled: false, rules: 'rules:\n- match: {always: true}\n  actions: [{type: ignore}]', default_receiver_team_id: 'T1' }]);
    expect(outcome.status).toBe('open');
    expect(outcome.suppressed).toBe(false);
    expect(outcome.team_ids).toEqual(['T1']);
    expect(outcome.log[0]?.message).toBe('Router "r1" (rtr_r1) is disabled, so the alert goes to its default receivers.');
  });

  it('a rule that only decorates still sends to the defaults, after changing the alert', async () => {
    const rules = 'rules:\n- match: {always: true}\n  actions: [{type: setval, map: {urgency: critical}}, {type: stakeholder, ids: [stk_a]}]';
    const outcome = await route(['r1'], [{ id: 'r1', rules, default_receiver_team_id: 'T1' }]);
    expect(outcome.team_ids).toEqual(['T1']);
    expect(outcome.changes).toEqual({ urgency: 'critical' });
    expect(outcome.stakeholder_ids).toEqual(['stk_a']);
    expect(outcome.log.map((e) => e.message)).toContain(
      'Router "r1" (rtr_r1), rule 1, only changed the alert, so it also goes to the router\'s default receivers.',
    );
  });

  it('stored rules that no longer parse send to the defaults', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: 'rules: [', default_receiver_account_user_id: 'U1' }]);
    expect(outcome.account_user_ids).toEqual(['U1']);
    expect(outcome.log[0]?.message).toContain('no longer parse');
  });
});

describe('resolveRouting: ignore', () => {
  it('suppresses: nobody is paged, status suppressed', async () => {
    const rules = 'rules:\n- match: {always: true}\n  actions: [{type: ignore}, {type: assign, receiver: tem_never}]';
    const outcome = await route(['r1'], [{ id: 'r1', rules, default_receiver_team_id: 'T1' }]);
    expect(outcome.status).toBe('suppressed');
    expect(outcome.suppressed).toBe(true);
    expect(outcome.receivers).toEqual([]);
    expect(outcome.log).toEqual([
      { event: 'suppressed', router_id: 'r1', message: 'Router "r1" (rtr_r1), rule 1, ignored the alert: nobody is paged through this router.' },
    ]);
  });

  it('an ignore on one route does not silence another destination', async () => {
    const outcome = await route(
      ['r1'],
      [{ id: 'r1', rules: 'rules:\n- match: {always: true}\n  actions: [{type: ignore}]' }],
      { destinations: { router_ids: ['r1'], team_ids: ['T9'] } },
    );
    expect(outcome.status).toBe('open');
    expect(outcome.suppressed).toBe(true);
    expect(outcome.team_ids).toEqual(['T9']);
  });
});

describe('resolveRouting: aggregate', () => {
  const rules = 'rules:\n- match: {always: true}\n  actions: [{type: aggregate, by: [alert.title, log.data.host], timeout: 30m, receiver: [tem_ops, rtr_r2]}]';
  const specs = [
    { id: 'r1', rules },
    { id: 'r2', default_receiver_account_user_id: 'U2' },
  ];

  it('answers fingerprint, window and the receivers of the first alert', async () => {
    const outcome = await route(['r1'], specs, { log: { data: { host: 'h1' } }, logParsed: true });
    expect(outcome.status).toBe('open');
    expect(outcome.aggregates).toHaveLength(1);
    const [decision] = outcome.aggregates;
    expect(decision?.router_id).toBe('r1');
    expect(decision?.window_ms).toBe(1_800_000);
    expect(decision?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(decision?.receivers.map((r) => [r.kind, r.id])).toEqual([
      ['team', 'tem_ops'],
      ['account_user', 'U2'],
    ]);
    expect(pairs(outcome)).toEqual([
      ['team', 'tem_ops', 0],
      ['account_user', 'U2', 0],
    ]);
    expect(outcome.log[0]).toMatchObject({ event: 'aggregated', router_id: 'r1' });
    expect(outcome.log[0]?.message).toContain('aggregates alerts by alert.title, log.data.host for 30 minutes');
  });

  it('the same values give the same fingerprint; other values another', async () => {
    const fingerprint = async (host: string, title = 'db down') =>
      (await route(['r1'], specs, { alert: { ...ALERT, title }, log: { data: { host } } })).aggregates[0]?.fingerprint;
    expect(await fingerprint('h1')).toBe(await fingerprint('h1'));
    expect(await fingerprint('h1')).not.toBe(await fingerprint('h2'));
    expect(await fingerprint('h1')).not.toBe(await fingerprint('h1', 'cpu high'));
  });
});

describe('resolveRouting: incident, setval, stakeholder', () => {
  it('incident marks meta with severity and message', async () => {
    const rules = 'rules:\n- match: {always: true}\n  actions: [{type: incident, severity: sev-2, message: "Checkout is down"}, {type: assign, receiver: tem_ops}]';
    const outcome = await route(['r1'], [{ id: 'r1', rules }]);
    expect(outcome.changes.meta).toEqual({ incident: true, incident_severity: 'SEV-2', incident_message: 'Checkout is down' });
    expect(outcome.log[0]?.message).toBe('Router "r1" (rtr_r1), rule 1, marked the alert an incident of severity SEV-2 with the message "Checkout is down".');
  });

  it('setval overwrites fields, and later routers match the changed alert', async () => {
    const r1 = 'rules:\n- match: {always: true}\n  actions: [{type: setval, map: {title: relabelled, tags: [a, b, a], description: ""}}, {type: assign, receiver: rtr_r2}]';
    const r2 = 'rules:\n- match: {alert.title: relabelled, alert.tag_list: b}\n  actions: [{type: assign, receiver: tem_seen}]';
    const outcome = await route(['r1'], [{ id: 'r1', rules: r1 }, { id: 'r2', rules: r2, default_receiver_team_id: 'T_missed' }]);
    expect(outcome.changes).toEqual({ title: 'relabelled', description: '', tag_list: ['a', 'b'] });
    expect(outcome.team_ids).toEqual(['tem_seen']);
    expect(outcome.log[0]?.message).toBe('Router "r1" (rtr_r1), rule 1, set the title to "relabelled", the description to "", the tags to ["a","b"].');
  });

  it('stakeholders are recorded once each', async () => {
    const r1 = 'rules:\n- match: {always: true}\n  actions: [{type: stakeholder, ids: [stk_a, stk_b]}, {type: assign, receiver: rtr_r2}]';
    const r2 = 'rules:\n- match: {always: true}\n  actions: [{type: stakeholder, ids: stk_a}, {type: assign, receiver: tem_x}]';
    const outcome = await route(['r1'], [{ id: 'r1', rules: r1 }, { id: 'r2', rules: r2 }]);
    expect(outcome.stakeholder_ids).toEqual(['stk_a', 'stk_b']);
  });
});

describe('resolveRouting: Handlebars', () => {
  const setval = (map: string) => `rules:\n- match: {always: true}\n  actions: [{type: setval, handlebars: true, map: ${map}}, {type: assign, receiver: tem_x}]`;

  it('renders over the match data, as plain text (no HTML escaping)', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: setval('{title: "PROD {{alert.title}} on {{log.data.host}} & co", tags: ["{{alert.urgency}}", "{{log.data.missing}}"]}') }], {
      log: { data: { host: '<h1>' } },
      logParsed: true,
    });
    expect(outcome.changes.title).toBe('PROD db down on <h1> & co');
    expect(outcome.changes.tag_list).toEqual(['high']); // an empty rendered tag is left out
  });

  it('renders the incident message', async () => {
    const rules = 'rules:\n- match: {always: true}\n  actions: [{type: incident, severity: SEV-1, handlebars: true, message: "{{alert.title}}!"}]';
    const outcome = await route(['r1'], [{ id: 'r1', rules, default_receiver_team_id: 'T1' }]);
    expect(outcome.changes.meta?.incident_message).toBe('db down!');
  });

  it('without handlebars: true a template is kept as written', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: 'rules:\n- match: {always: true}\n  actions: [{type: setval, map: {title: "{{alert.title}}"}}]', default_receiver_team_id: 'T1' }]);
    expect(outcome.changes.title).toBe('{{alert.title}}');
  });

  it('templates cannot reach prototypes or run code', async () => {
    const attempts = [
      '{{constructor}}',
      '{{alert.constructor}}',
      '{{alert.title.constructor.name}}',
      '{{alert.__proto__}}',
      '{{lookup alert "constructor"}}',
      '{{#with alert.constructor}}{{name}}{{/with}}',
      '{{#with "a"}}{{constructor.constructor}}{{/with}}',
      '{{__defineGetter__}}',
      '{{alert.hasOwnProperty}}',
    ];
    for (const attempt of attempts) {
      const outcome = await route(['r1'], [{ id: 'r1', rules: setval(`{title: ${JSON.stringify(`x${attempt}x`)}}`) }]);
      expect(outcome.changes.title, attempt).toBe('xx');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a helper outside the built-ins is refused and the field kept, with a log entry', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: setval('{title: "{{log alert.title}}{{evil alert}}", urgency: low}') }]);
    expect(outcome.changes).toEqual({ urgency: 'low' });
    expect(outcome.log.some((e) => e.message.includes('the title template could not be rendered'))).toBe(true);
  });

  it('a template that does not compile leaves the field and logs the parse error', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: setval('{description: "{{#if alert.title}}open"}') }]);
    expect(outcome.changes.description).toBeUndefined();
    expect(outcome.log[0]?.message).toMatch(/^Router "r1" \(rtr_r1\), rule 1: the description template could not be rendered \(Parse error .*\), so the description was left as it was\.$/);
  });

  it('rendered text is cut to 10,000 characters', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: setval('{description: "{{log.data.big}}"}') }], { log: { data: { big: 'x'.repeat(20_000) } } });
    expect(outcome.changes.description).toHaveLength(10_000);
  });

  it('a title that renders empty keeps the old title', async () => {
    const outcome = await route(['r1'], [{ id: 'r1', rules: setval('{title: "{{log.data.none}}"}') }]);
    expect(outcome.changes.title).toBeUndefined();
    expect(outcome.log[0]?.message).toContain('rendered empty text, so the title was kept');
  });
});

describe('resolveRouting: nesting, cycles and duplicates', () => {
  const chainOf = (n: number): RouterSpec[] =>
    Array.from({ length: n }, (_, i) =>
      i < n - 1
        ? { id: `n${i + 1}`, rules: `rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: rtr_n${i + 2}}]` }
        : { id: `n${i + 1}`, rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: tem_end}]' },
    );

  it('ten routers deep still routes', async () => {
    const outcome = await route(['n1'], chainOf(10));
    expect(outcome.status).toBe('open');
    expect(outcome.team_ids).toEqual(['tem_end']);
  });

  it('eleven deep drops the alert with the chain in the log', async () => {
    const outcome = await route(['n1'], chainOf(11));
    expect(outcome.status).toBe('dropped');
    expect(outcome.receivers).toEqual([]);
    const chain = Array.from({ length: 11 }, (_, i) => `rtr_n${i + 1}`).join(' → ');
    const reason = `Routers nest more than 10 deep (${chain}), so the alert was dropped on this route.`;
    expect(outcome.dropped).toEqual([{ router_id: 'n11', reason }]);
    expect(outcome.log.at(-1)).toEqual({ event: 'dropped', router_id: 'n11', message: reason });
  });

  it('a cycle is stopped by the depth rule and named as a cycle', async () => {
    const { loadRouter, loads } = routersOf(
      { id: 'a', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: rtr_b}]' },
      { id: 'b', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: rtr_a}]' },
    );
    const outcome = await resolveRouting(input(['a']), loadRouter);
    expect(outcome.status).toBe('dropped');
    expect(outcome.dropped).toHaveLength(1);
    expect(outcome.dropped[0]?.reason).toBe(
      'Routers send the alert around a cycle (rtr_a → rtr_b → rtr_a), so it was dropped on this route after 10 routers; routers nest at most 10 deep.',
    );
    expect(new Set(loads)).toEqual(new Set(['a', 'rtr_b', 'rtr_a']));
    expect(loads).toHaveLength(3); // each id loaded once
  });

  it('a branching cycle is bounded by the evaluation limit', async () => {
    const outcome = await route(
      ['a'],
      [
        { id: 'a', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [rtr_b, rtr_c]}]' },
        { id: 'b', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [rtr_a, rtr_c]}]' },
        { id: 'c', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [rtr_a, rtr_b, tem_c]}]' },
      ],
    );
    expect(outcome.status).toBe('open');
    expect(outcome.team_ids).toEqual(['tem_c']);
    expect(outcome.dropped.filter((d) => d.reason === 'The alert reached more than 100 routers; the routes beyond that were dropped.')).toHaveLength(1);
    expect(outcome.log.filter((e) => e.event === 'dropped').length).toBeLessThan(10);
  });

  it('a destination reached twice is escalated once, at its smallest delay', async () => {
    const rules = [
      'rules:',
      '- match: {always: true}',
      '  actions:',
      '  - {type: assign, receiver: tem_ops, delay: 10m}',
      '  - {type: assign, receiver: [rtr_r2, usr_ann]}',
    ].join('\n');
    const outcome = await route(['r1', 'r2'], [
      { id: 'r1', rules },
      { id: 'r2', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [tem_ops, usr_ann]}]' },
    ], { destinations: { router_ids: ['r1', 'r2'], account_user_ids: ['usr_ann'] } });
    expect(pairs(outcome)).toEqual([
      ['account_user', 'usr_ann', 0],
      ['team', 'tem_ops', 0],
    ]);
    expect(outcome.log.map((e) => e.message)).toContain(
      'Router "r2" (rtr_r2), rule 1, assigned the alert to team tem_ops, which already receives it; it is escalated once, now at once.',
    );
  });

  it('with findReceiver, a team named by prefix id and by canonical id is one destination', async () => {
    const canonical: Record<string, string> = { tem_ops: 'T1', usr_ann: 'U1' };
    const findReceiver: FindReceiver = async (_kind, id) => canonical[id] ?? (Object.values(canonical).includes(id) ? id : undefined);
    const outcome = await route(
      ['r1'],
      [{ id: 'r1', rules: 'rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [tem_ops, usr_ann, tem_gone]}]' }],
      { destinations: { router_ids: ['r1'], team_ids: ['T1'] } },
      findReceiver,
    );
    expect(pairs(outcome)).toEqual([
      ['team', 'T1', 0],
      ['account_user', 'U1', 0],
    ]);
    expect(outcome.dropped.map((d) => d.reason)).toEqual([
      'Router "r1" (rtr_r1), rule 1, assigned the alert to team tem_gone, which does not exist, so that route was dropped.',
    ]);
  });

  it('an alert with no destination at all is dropped, and the log says so', async () => {
    const outcome = await route([], []);
    expect(outcome.status).toBe('dropped');
    expect(outcome.log).toEqual([{ event: 'dropped', router_id: null, message: 'The alert has no destination left to page, so it is dropped.' }]);
  });

  it('nobody paged after an ignore and a drop → dropped, both logged', async () => {
    const outcome = await route(['r1', 'gone'], [{ id: 'r1', rules: 'rules:\n- match: {always: true}\n  actions: [{type: ignore}]' }]);
    expect(outcome.suppressed).toBe(true);
    expect(outcome.status).toBe('dropped');
    expect(outcome.log.map((e) => e.event)).toEqual(['suppressed', 'dropped']);
  });

  it('a router with no default receiver (not allowed on save) drops its default route', async () => {
    const outcome = await route(['r1'], [{ id: 'r1' }]);
    expect(outcome.status).toBe('dropped');
    expect(outcome.dropped.map((d) => d.reason)).toEqual(['Router "r1" (rtr_r1) has no default receiver, so the alert was not routed through it.']);
  });

  it('an unknown router is dropped with a log entry', async () => {
    const outcome = await route(['nope'], []);
    expect(outcome.status).toBe('dropped');
    expect(outcome.log).toEqual([{ event: 'dropped', router_id: null, message: 'Router nope does not exist, so the alert was not routed through it.' }]);
  });
});

describe('resolveRouting: special functions use the given instant', () => {
  it('routes by time of day at `now`', async () => {
    const rules = [
      'rules:',
      '- match: {$timeBetween: {timezone: Europe/Berlin, starttime: "09:00 am", endtime: "06:00 pm"}}',
      '  actions: [{type: assign, receiver: tem_day}]',
    ].join('\n');
    const specs = [{ id: 'r1', rules, default_receiver_team_id: 'T_night' }];
    expect((await route(['r1'], specs)).team_ids).toEqual(['tem_day']);
    expect((await route(['r1'], specs, { now: new Date('2026-03-04T22:00:00Z') })).team_ids).toEqual(['T_night']);
  });
});
