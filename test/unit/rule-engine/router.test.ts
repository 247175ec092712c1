import { describe, expect, it } from 'vitest';
import {
  evaluateRouter,
  matchDataOf,
  parseRouterRules,
  problemText,
  receiverIdsOf,
  routesToDefaultReceiver,
  stakeholderIdsOf,
  type RouterDocument,
} from '#lib/rule-engine/index.ts';
import { MAX_RULES_TEXT_LENGTH } from '#lib/limits.ts';

function parsed(text: string): RouterDocument {
  const result = parseRouterRules(text);
  if (!result.ok) throw new Error(result.problems.map(problemText).join('\n'));
  return result.document;
}

function problemsOf(text: string): string[] {
  const result = parseRouterRules(text);
  return result.ok ? [] : result.problems.map(problemText);
}

/** The match sits on line 2. */
const withMatch = (match: string) => `rules:\n- match: ${match}\n  actions: [{type: ignore}]\n`;
/** The action sits on line 4. */
const withAction = (action: string) => `rules:\n- match: {always: true}\n  actions:\n  - ${action}\n`;

const EXAMPLE_OFFICE_HOURS = `rules:   # 1 weekday office hours → team, everything else suppressed
- match: {$and: [{$timeBetween: {timezone: Europe/Berlin, starttime: "09:00 am", endtime: "06:00 pm"}},
                 {$day: {timezone: Europe/Berlin, $in: [1,2,3,4,5]}}]}
  actions: [{type: assign, receiver: tem_ops}]
- match: {always: true}
  actions: [{type: ignore}]
`;
const EXAMPLE_DBA = `rules:   # 2 "db" in title (any case) and urgent: stakeholder, page two receivers after 10 min
- match: {alert.title: {$regex: db, $options: i}, alert.urgency: {$in: [high, critical]}}
  actions: [{type: stakeholder, ids: [stk_dba]}, {type: assign, receiver: [tem_dba, usr_lead], delay: 10m}]
`;
const EXAMPLE_PROD = `rules:   # 3 prod payloads: relabel, collapse per source for 30 min (also: $now {format: MM-DD, $in: [...]} for holidays)
- match: {log_parsed: true, log.data.env: prod}
  actions: [{type: setval, handlebars: true, map: {title: "PROD {{alert.title}}", urgency: critical}},
            {type: aggregate, by: [alert.source_id], timeout: 30m, receiver: tem_ops}]
`;

describe('docs/rules.md example 1: weekday office hours', () => {
  const doc = parsed(EXAMPLE_OFFICE_HOURS);
  const alert = matchDataOf({ title: 'Disk full', urgency: 'high' });

  it('parses into two rules', () => {
    expect(doc.rules).toHaveLength(2);
    expect(doc.rules[0]?.actions).toEqual([{ type: 'assign', receiver: ['tem_ops'], delayMs: 0 }]);
    expect(doc.rules[1]?.actions).toEqual([{ type: 'ignore' }]);
    expect(receiverIdsOf(doc)).toEqual(['tem_ops']);
  });

  it('assigns to the team on a weekday during office hours in Berlin', () => {
    const result = evaluateRouter(doc, alert, new Date('2024-06-03T10:00:00+02:00'));
    expect(result).toEqual({ matched: true, ruleIndex: 0, actions: [{ type: 'assign', receiver: ['tem_ops'], delayMs: 0 }] });
    expect(routesToDefaultReceiver(result)).toBe(false);
  });

  it('ignores alerts in the evening and at the weekend', () => {
    expect(evaluateRouter(doc, alert, new Date('2024-06-03T19:00:00+02:00'))).toMatchObject({ ruleIndex: 1, actions: [{ type: 'ignore' }] });
    expect(evaluateRouter(doc, alert, new Date('2024-06-08T10:00:00+02:00'))).toMatchObject({ ruleIndex: 1 });
  });
});

describe('docs/rules.md example 2: database alerts', () => {
  const doc = parsed(EXAMPLE_DBA);

  it('attaches the stakeholder and pages two receivers after 10 minutes for urgent db alerts', () => {
    const result = evaluateRouter(doc, matchDataOf({ title: 'Primary DB latency', urgency: 'critical' }), new Date());
    expect(result).toEqual({
      matched: true,
      ruleIndex: 0,
      actions: [
        { type: 'stakeholder', ids: ['stk_dba'] },
        { type: 'assign', receiver: ['tem_dba', 'usr_lead'], delayMs: 600_000 },
      ],
    });
  });

  it('falls back to the default receiver for other alerts', () => {
    const low = evaluateRouter(doc, matchDataOf({ title: 'db backup', urgency: 'low' }), new Date());
    expect(low).toEqual({ matched: false });
    expect(routesToDefaultReceiver(low)).toBe(true);
    expect(evaluateRouter(doc, matchDataOf({ title: 'web down', urgency: 'high' }), new Date())).toEqual({ matched: false });
  });

  it('lists the ids the API must check', () => {
    expect(receiverIdsOf(doc)).toEqual(['tem_dba', 'usr_lead']);
    expect(stakeholderIdsOf(doc)).toEqual(['stk_dba']);
  });
});

describe('docs/rules.md example 3: production payloads', () => {
  const doc = parsed(EXAMPLE_PROD);

  it('relabels and aggregates parsed prod payloads', () => {
    const data = matchDataOf({ title: 'CPU', source_id: 'int_1' }, { data: { env: 'prod' } }, true);
    expect(evaluateRouter(doc, data, new Date())).toEqual({
      matched: true,
      ruleIndex: 0,
      actions: [
        { type: 'setval', handlebars: true, map: { title: 'PROD {{alert.title}}', urgency: 'critical' } },
        { type: 'aggregate', by: ['alert.source_id'], timeoutMs: 1_800_000, receiver: ['tem_ops'] },
      ],
    });
  });

  it('leaves other payloads to the default receiver', () => {
    expect(evaluateRouter(doc, matchDataOf({}, { data: { env: 'prod' } }, false), new Date())).toEqual({ matched: false });
    expect(evaluateRouter(doc, matchDataOf({}, { data: { env: 'staging' } }, true), new Date())).toEqual({ matched: false });
  });

  it('takes the holiday variant with $now', () => {
    const holidays = parsed(withMatch('{$now: {format: MM-DD, $in: [12-25, 12-26]}}'));
    expect(evaluateRouter(holidays, matchDataOf({}), new Date('2024-12-25T12:00:00Z')).matched).toBe(true);
    expect(evaluateRouter(holidays, matchDataOf({}), new Date('2024-12-27T12:00:00Z')).matched).toBe(false);
  });
});

describe('evaluateRouter', () => {
  it('stops at the first matching rule, top-down', () => {
    const doc = parsed(`rules:
- match: {alert.urgency: low}
  actions: [{type: ignore}]
- match: {alert.title: {$regex: disk}}
  actions: [{type: assign, receiver: usr_first}]
- match: {always: true}
  actions: [{type: assign, receiver: usr_second}]
`);
    const disk = evaluateRouter(doc, matchDataOf({ title: 'disk full', urgency: 'high' }), new Date());
    expect(disk).toEqual({ matched: true, ruleIndex: 1, actions: [{ type: 'assign', receiver: ['usr_first'], delayMs: 0 }] });
    const lowDisk = evaluateRouter(doc, matchDataOf({ title: 'disk full', urgency: 'low' }), new Date());
    expect(lowDisk).toMatchObject({ ruleIndex: 0 });
    expect(evaluateRouter(doc, matchDataOf({ title: 'cpu' }), new Date())).toMatchObject({ ruleIndex: 2 });
  });

  it('keeps actions in the order written', () => {
    const doc = parsed(withAction('{type: incident, severity: SEV-2}\n  - {type: stakeholder, ids: stk_a}\n  - {type: assign, receiver: rtr_next}'));
    const result = evaluateRouter(doc, matchDataOf({}), new Date());
    expect(result.matched && result.actions.map((a) => a.type)).toEqual(['incident', 'stakeholder', 'assign']);
  });

  it('sends a matched rule without assign, aggregate or ignore to the default receiver', () => {
    const doc = parsed(withAction('{type: setval, map: {urgency: low}}'));
    const result = evaluateRouter(doc, matchDataOf({}), new Date());
    expect(result.matched).toBe(true);
    expect(routesToDefaultReceiver(result)).toBe(true);
  });

  it('means "no rules" for a blank document', () => {
    for (const blank of ['', '   \n\n', '# only a comment\n', '---\n']) {
      const doc = parsed(blank);
      expect(doc.rules).toEqual([]);
      expect(evaluateRouter(doc, matchDataOf({}), new Date())).toEqual({ matched: false });
    }
  });
});

describe('receiverIdsOf and stakeholderIdsOf', () => {
  it('collect each id once across rules, assign and aggregate', () => {
    const doc = parsed(`rules:
- match: {a: 1}
  actions: [{type: assign, receiver: [tem_a, usr_b]}, {type: stakeholder, ids: [stk_1, stk_2]}]
- match: {a: 2}
  actions: [{type: aggregate, by: alert.title, timeout: 1h, receiver: [rtr_c, tem_a]}, {type: stakeholder, ids: stk_1}]
`);
    expect(receiverIdsOf(doc)).toEqual(['tem_a', 'usr_b', 'rtr_c']);
    expect(stakeholderIdsOf(doc)).toEqual(['stk_1', 'stk_2']);
  });
});

describe('parseRouterRules: document problems', () => {
  it.each([
    ['a root that is not a mapping', '- rules\n', 'line 1: the document must be a mapping with a rules key'],
    ['rules that are not a list', '# routing\nrules: foo\n', 'line 2: rules must be a list'],
    ['rules left empty', 'rules:\n', 'line 1: rules must be a list'],
    ['an empty rules list', '\nrules: []\n', 'line 2: rules must have at least one rule'],
    ['a rule that is not a mapping', 'rules:\n- just text\n', 'line 2: each rule must be a mapping with match and actions'],
    ['a rule without match', 'rules:\n- actions: [{type: ignore}]\n', 'line 2: match is required'],
    ['a rule without actions', 'rules:\n- match: {always: true}\n', 'line 2: actions is required'],
    ['a match that is not a mapping', 'rules:\n- match: always\n  actions: [{type: ignore}]\n', 'line 2: match must be a query mapping'],
    ['an empty match', withMatch('{}'), 'line 2: match must not be empty; use {always: true} to match everything'],
    ['actions that are not a list', 'rules:\n- match: {always: true}\n  actions: {type: ignore}\n', 'line 3: actions must be a list'],
    ['an empty actions list', 'rules:\n- match: {always: true}\n  actions: []\n', 'line 3: actions must have at least one action'],
    ['an action that is not a mapping', withAction('ignore'), 'line 4: each action must be a mapping with a type'],
    ['an action without type', withAction('{receiver: tem_a}'), 'line 4: action type is required'],
    ['an unknown action type', withAction('{type: asign, receiver: tem_a}'), 'line 4: unknown action type "asign"'],
    ['a type that is not a string', withAction('{type: [assign]}'), 'line 4: unknown action type ["assign"]'],
  ])('reports %s', (_case, text, problem) => {
    expect(problemsOf(text)).toEqual([problem]);
  });

  it('reports unknown keys at the top level and in rules', () => {
    expect(problemsOf('rules:\n- match: {always: true}\n  actions: [{type: ignore}]\n  name: x\nrule: []\n')).toEqual([
      'line 4: unknown key "name" in rule',
      'line 5: unknown key "rule" at the top level; the document holds only rules',
    ]);
  });

  it('reports a missing rules key', () => {
    expect(problemsOf('\n\nroutes: []\n')).toEqual([
      'line 3: unknown key "routes" at the top level; the document holds only rules',
      'line 3: rules is required',
    ]);
  });

  it('reports malformed YAML with its line', () => {
    expect(problemsOf('rules:\n- match: {always: true}\n  match: {a: 1}\n  actions: [{type: ignore}]\n')).toEqual([
      'line 3: invalid YAML: duplicated mapping key',
    ]);
    expect(problemsOf('rules:\n- match: {always: true\n  actions: [{type: ignore}]\n')[0]).toMatch(/^line \d: invalid YAML: /);
    expect(problemsOf('rules:\n  - a\n - b\n')).toEqual([expect.stringMatching(/^line 3: invalid YAML: /)]);
  });

  it('reports every problem, sorted by line, in block style', () => {
    const text = [
      'rules:',
      '  - match:',
      '      alert.urgency:',
      '        $in: high',
      '    actions:',
      '      - type: assign',
      '        receiver:',
      '          - tem_ok',
      '          - team_bad',
      '        delay: soon',
      '      - type: ignore',
      '        why: because',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'line 4: $in must be a list',
      'line 9: receiver must be a prefix id of an account user (usr_), team (tem_) or router (rtr_); got "team_bad"',
      'line 10: delay must be a duration of 0 or more such as "30s", "5m", "2h", "1d" or milliseconds; got "soon"',
      'line 12: unknown key "why" in ignore action',
    ]);
  });

  it('refuses documents that are too long, too large with aliases, or refer to themselves', () => {
    expect(problemsOf(`rules: []\n#${'x'.repeat(MAX_RULES_TEXT_LENGTH)}`)).toEqual([
      `line 1: the document is longer than ${MAX_RULES_TEXT_LENGTH} characters`,
    ]);
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const name of ['b', 'c', 'd', 'e']) laughs.push(`${name}: &${name} [${Array(10).fill(`*${String.fromCharCode(name.charCodeAt(0) - 1)}`).join(', ')}]`);
    expect(problemsOf(`${laughs.join('\n')}\nrules: []\n`)).toEqual(['line 1: the document holds more than 10000 values (aliases expanded)']);
    expect(problemsOf('rules: &r [*r]\n')).toEqual(['line 1: an alias refers to the mapping or list that contains it']);
  });

  it('accepts aliases that reuse a query', () => {
    const doc = parsed(`rules:
- match: &urgent {alert.urgency: {$in: [high, critical]}}
  actions: [{type: assign, receiver: tem_a}]
- match: {$nor: [*urgent]}
  actions: [{type: ignore}]
`);
    expect(evaluateRouter(doc, matchDataOf({ urgency: 'low' }), new Date())).toMatchObject({ ruleIndex: 1 });
  });
});

describe('parseRouterRules: action problems', () => {
  it.each([
    ['assign without receiver', '{type: assign}', 'line 4: receiver is required'],
    ['assign to an unknown kind of id', '{type: assign, receiver: esc_abc}', 'line 4: receiver must be a prefix id of an account user (usr_), team (tem_) or router (rtr_); got "esc_abc"'],
    ['assign to an empty list', '{type: assign, receiver: []}', 'line 4: receiver must name at least one id'],
    ['assign with a negative delay', '{type: assign, receiver: tem_a, delay: -5m}', 'line 4: delay must be a duration of 0 or more such as "30s", "5m", "2h", "1d" or milliseconds; got "-5m"'],
    ['assign with an unknown key', '{type: assign, reciever: tem_a, receiver: tem_a}', 'line 4: unknown key "reciever" in assign action'],
    ['aggregate without timeout', '{type: aggregate, by: [alert.title], receiver: tem_a}', 'line 4: timeout is required'],
    ['aggregate with a zero timeout', '{type: aggregate, by: [alert.title], timeout: 0, receiver: tem_a}', 'line 4: timeout must be a duration of more than 0 such as "30s", "5m", "2h", "1d" or milliseconds; got 0'],
    ['aggregate without by', '{type: aggregate, timeout: 5m, receiver: tem_a}', 'line 4: by is required'],
    ['aggregate by a broken path', '{type: aggregate, by: [alert..title], timeout: 5m, receiver: tem_a}', 'line 4: by path "alert..title" has an empty part'],
    ['aggregate by a non-string', '{type: aggregate, by: [5], timeout: 5m, receiver: tem_a}', 'line 4: by must hold non-empty strings; got 5'],
    ['aggregate without receiver', '{type: aggregate, by: [alert.title], timeout: 5m}', 'line 4: receiver is required'],
    ['ignore with parameters', '{type: ignore, receiver: tem_a}', 'line 4: unknown key "receiver" in ignore action'],
    ['incident without severity', '{type: incident}', 'line 4: severity is required'],
    ['incident with an unknown severity', '{type: incident, severity: SEV-9}', 'line 4: severity must be one of SEV-1, SEV-2, SEV-3, SEV-4, SEV-5, SEV-UNKNOWN'],
    ['incident with a non-string message', '{type: incident, severity: SEV-1, message: [a]}', 'line 4: message must be a string'],
    ['incident with a non-boolean handlebars', '{type: incident, severity: SEV-1, handlebars: yes}', 'line 4: handlebars must be true or false'],
    ['incident with an unclosed template', '{type: incident, severity: SEV-1, handlebars: true, message: "{{alert.title"}', 'line 4: message has a {{ without a closing }}'],
    ['setval without map', '{type: setval}', 'line 4: map is required'],
    ['setval with an empty map', '{type: setval, map: {}}', 'line 4: map must be a mapping of title, description, tags, urgency'],
    ['setval of another field', '{type: setval, map: {status: open}}', 'line 4: unknown key "status" in setval map; only title, description, tags and urgency can be set'],
    ['setval of an unknown urgency', '{type: setval, map: {urgency: urgent}}', 'line 4: urgency must be one of low, medium, high, critical'],
    ['setval of an empty title', '{type: setval, map: {title: " "}}', 'line 4: title must not be empty'],
    ['setval of tags that are not strings', '{type: setval, map: {tags: [a, 5]}}', 'line 4: tags must hold non-empty strings; got 5'],
    ['setval of a non-string description', '{type: setval, map: {description: 5}}', 'line 4: description must be a string'],
    ['setval with an unclosed template', '{type: setval, handlebars: true, map: {title: "{{x"}}', 'line 4: title has a {{ without a closing }}'],
    ['stakeholder without ids', '{type: stakeholder}', 'line 4: ids is required'],
    ['stakeholder with a user id', '{type: stakeholder, ids: [usr_a]}', 'line 4: ids must be a stakeholder prefix id (stk_); got "usr_a"'],
  ])('reports %s', (_case, action, problem) => {
    expect(problemsOf(withAction(action))).toEqual([problem]);
  });

  it('accepts every action with all its parameters, normalising single ids and severity case', () => {
    const doc = parsed(`rules:
- match: {always: true}
  actions:
  - {type: incident, severity: sev-3, message: "{{alert.title}} is down", handlebars: true}
  - {type: setval, map: {title: T, description: "", tags: [a, b], urgency: low}}
  - {type: stakeholder, ids: stk_a}
  - {type: aggregate, by: alert.title, timeout: 90000, receiver: usr_a}
  - {type: assign, receiver: [tem_a, tem_a], delay: "1.5h"}
  - {type: ignore}
`);
    expect(doc.rules[0]?.actions).toEqual([
      { type: 'incident', severity: 'SEV-3', message: '{{alert.title}} is down', handlebars: true },
      { type: 'setval', map: { title: 'T', description: '', tags: ['a', 'b'], urgency: 'low' }, handlebars: false },
      { type: 'stakeholder', ids: ['stk_a'] },
      { type: 'aggregate', by: ['alert.title'], timeoutMs: 90_000, receiver: ['usr_a'] },
      { type: 'assign', receiver: ['tem_a'], delayMs: 5_400_000 },
      { type: 'ignore' },
    ]);
  });
});

describe('parseRouterRules: query problems', () => {
  it.each([
    ['an unknown operator', '{alert.title: {$contains: db}}', 'line 2: unknown operator "$contains"'],
    ['an unknown top-level operator', '{$text: db}', 'line 2: unknown operator "$text"'],
    ['$where on a field', '{alert.title: {$where: "1"}}', 'line 2: $where is not allowed'],
    ['$where at the top', '{$where: "this.a"}', 'line 2: $where is not allowed'],
    ['$in that is not a list', '{alert.urgency: {$in: high}}', 'line 2: $in must be a list'],
    ['$nin that is not a list', '{alert.urgency: {$nin: high}}', 'line 2: $nin must be a list'],
    ['$in holding operators', '{alert.urgency: {$in: [{$gt: 1}]}}', 'line 2: $in values cannot hold operators'],
    ['$all that is empty', '{alert.tag_list: {$all: []}}', 'line 2: $all must be a non-empty list'],
    ['$exists that is not a boolean', '{alert.title: {$exists: 1}}', 'line 2: $exists must be true or false'],
    ['$gt with a list', '{alert.count: {$gt: [1]}}', 'line 2: $gt must be a number or a string'],
    ['$lte with null', '{alert.count: {$lte: null}}', 'line 2: $lte must be a number or a string'],
    ['$mod with a zero divisor', '{alert.count: {$mod: [0, 1]}}', 'line 2: $mod must be [divisor, remainder] with a non-zero divisor'],
    ['$mod with one number', '{alert.count: {$mod: [2]}}', 'line 2: $mod must be [divisor, remainder] with a non-zero divisor'],
    ['$size that is negative', '{alert.tag_list: {$size: -1}}', 'line 2: $size must be a whole number of 0 or more'],
    ['$type with an unknown alias', '{alert.meta: {$type: object}}', 'line 2: $type must be one of number, string, bool, array, null, timestamp'],
    ['$regex that is not a string', '{alert.title: {$regex: 5}}', 'line 2: $regex must be a string'],
    ['$options without $regex', '{alert.title: {$options: i}}', 'line 2: $options needs a $regex next to it'],
    ['$options with a stateful flag', '{alert.title: {$regex: a, $options: g}}', 'line 2: $options must be regex flags from i, m, s, u'],
    ['$options with a repeated flag', '{alert.title: {$regex: a, $options: ii}}', 'line 2: $options must be regex flags from i, m, s, u'],
    ['$elemMatch that is not a mapping', '{alert.tags: {$elemMatch: [a]}}', 'line 2: $elemMatch must hold a query'],
    ['$not with a plain value', '{alert.title: {$not: {a: 1}}}', 'line 2: $not must hold operators, e.g. {$not: {$regex: test}}'],
    ['an empty $not at the top', '{$not: {}}', 'line 2: $not must hold a query'],
    ['an empty $or', '{$or: []}', 'line 2: $or must be a non-empty list of queries'],
    ['$and that is not a list', '{$and: {a: 1}}', 'line 2: $and must be a non-empty list of queries'],
    ['$nor holding a non-query', '{$nor: [a]}', 'line 2: a query must be a mapping of conditions'],
    ['a field operator at the top', '{$in: [1]}', 'line 2: $in must be used on a field, e.g. {alert.title: {$in: ...}}'],
    ['$or on a field', '{alert.urgency: {$or: [{$eq: low}]}}', 'line 2: $or cannot be used on a field'],
    ['a special function on a field', '{alert.created_at: {$day: {$eq: 1}}}', 'line 2: $day cannot be used on a field'],
    ['operators mixed with plain keys', '{alert.meta: {$exists: true, x: 1}}', 'line 2: "x" is not an operator; a condition holds either operators or a plain value, not both'],
    ['a field path with an empty part', '{alert..title: x}', 'line 2: field path "alert..title" has an empty part'],
  ])('reports %s', (_case, match, problem) => {
    expect(problemsOf(withMatch(match))).toEqual([problem]);
  });

  it('reports an invalid $regex with the reason', () => {
    expect(problemsOf(withMatch('{alert.title: {$regex: "("}}'))).toEqual([expect.stringMatching(/^line 2: \$regex is not a valid regular expression: /)]);
  });

  it('validates operators inside $elemMatch, $not, $all and nested logic', () => {
    expect(problemsOf(withMatch('{log.data.items: {$elemMatch: {v: {$gt: [1]}}}}'))).toEqual(['line 2: $gt must be a number or a string']);
    expect(problemsOf(withMatch('{log.data.scores: {$elemMatch: {$gt: 1, $foo: 2}}}'))).toEqual(['line 2: unknown operator "$foo"']);
    expect(problemsOf(withMatch('{alert.title: {$not: {$regex: 1}}}'))).toEqual(['line 2: $regex must be a string']);
    expect(problemsOf(withMatch('{alert.tags: {$all: [{$elemMatch: {$size: x}}]}}'))).toEqual(['line 2: $size must be a whole number of 0 or more']);
    expect(problemsOf(withMatch('{$or: [{a: 1}, {$and: [{b: {$exists: maybe}}]}]}'))).toEqual(['line 2: $exists must be true or false']);
    expect(problemsOf(withMatch('{$not: {$day: {timezone: Nowhere, $eq: 1}}}'))).toEqual(['line 2: unknown time zone "Nowhere"']);
  });

  it('accepts every operator where it belongs', () => {
    const match = `{$and: [
      {alert.urgency: {$in: [high], $nin: [low], $ne: medium, $eq: high, $exists: true, $type: string}},
      {alert.count: {$gt: 1, $gte: 1, $lt: 9, $lte: 9, $mod: [2, 1]}},
      {alert.tags: {$all: [a], $size: 2, $elemMatch: {$regex: "^a", $options: i}}},
      {alert.title: {$not: {$regex: x}}}],
    $or: [{always: true}], $nor: [{alert.x: 1}], $not: {alert.y: 2},
    $day: {timezone: Berlin, $in: [1, 7]}, $now: {format: "HH:mm", $gte: "08:00"},
    $timeBetween: {timeformat: "HH:mm", starttime: "08:00", endtime: "20:00"}}`;
    expect(problemsOf(withMatch(match))).toEqual([]);
  });

  it('refuses queries nested more than 32 levels', () => {
    const deep = `${'{$and: ['.repeat(40)}{a: 1}${']}'.repeat(40)}`;
    expect(problemsOf(withMatch(deep))).toEqual(['line 2: the query is nested more than 32 levels deep']);
  });
});

describe('parseRouterRules: special function problems', () => {
  it.each([
    ['$day that is not a mapping', '{$day: 1}', 'line 2: $day must be a mapping of parameters'],
    ['$day in an unknown zone', '{$day: {timezone: Europe/Atlantis, $eq: 1}}', 'line 2: unknown time zone "Europe/Atlantis"'],
    ['$day with a non-string zone', '{$day: {timezone: 5, $eq: 1}}', 'line 2: timezone must be a time zone name, e.g. Europe/Berlin'],
    ['$day without an operator', '{$day: {timezone: UTC}}', 'line 2: $day needs an operator to test its value, e.g. $in: [1, 2, 3, 4, 5]'],
    ['$day with an unknown parameter', '{$day: {tz: UTC, $eq: 1}}', 'line 2: unknown $day parameter "tz"'],
    ['$day compared with a name', '{$day: {$in: [1, sat]}}', 'line 2: $day compares ISO weekdays 1 (Monday) to 7 (Sunday); got "sat"'],
    ['$day compared with 0', '{$day: {$eq: 0}}', 'line 2: $day compares ISO weekdays 1 (Monday) to 7 (Sunday); got 0'],
    ['$day with $or inside', '{$day: {$or: [{$eq: 1}]}}', 'line 2: $or cannot be used inside $day'],
    ['$now with an unsupported token', '{$now: {format: "Qo", $eq: x}}', 'line 2: format has an unsupported token "Q" in "Qo"; put literal text in [brackets]'],
    ['$now with a non-string format', '{$now: {format: 5, $eq: x}}', 'line 2: format must be a string of moment-style tokens, e.g. MM-DD'],
    ['$now compared with a number', '{$now: {format: HH, $in: [9]}}', 'line 2: $now produces text; put 9 in quotes'],
    ['$now without an operator', '{$now: {format: HH}}', 'line 2: $now needs an operator to test its value, e.g. $in: ["12-24", "12-25"]'],
    ['$timeBetween without starttime', '{$timeBetween: {endtime: "06:00 pm"}}', 'line 2: starttime is required'],
    ['$timeBetween with a time that does not fit', '{$timeBetween: {starttime: "9 o\'clock", endtime: "06:00 pm"}}', 'line 2: starttime "9 o\'clock" does not fit the time format "hh:mm a"'],
    ['$timeBetween with a non-string time', '{$timeBetween: {starttime: 900, endtime: "06:00 pm"}}', 'line 2: starttime must be a time written as a string, e.g. "09:00 am"'],
    ['$timeBetween with a date format', '{$timeBetween: {timeformat: "YYYY HH", starttime: "1", endtime: "2"}}', 'line 2: timeformat may only use the tokens H, HH, h, hh, m, mm, s, ss, a, A; got "YYYY"'],
    ['$timeBetween with equal times', '{$timeBetween: {starttime: "09:00 am", endtime: "9:00 am"}}', 'line 2: starttime and endtime are the same; leave out $timeBetween to match all day'],
    ['$timeBetween with an operator', '{$timeBetween: {starttime: "09:00 am", endtime: "10:00 am", $eq: true}}', 'line 2: unknown $timeBetween parameter "$eq"'],
    ['$timeBetween in an unknown zone', '{$timeBetween: {timezone: Gotham, starttime: "09:00 am", endtime: "10:00 am"}}', 'line 2: unknown time zone "Gotham"'],
  ])('reports %s', (_case, match, problem) => {
    expect(problemsOf(withMatch(match))).toEqual([problem]);
  });

  it('reports special function problems on the line of the parameter in block style', () => {
    const text = 'rules:\n- match:\n    $timeBetween:\n      timezone: Europe/Berlin\n      starttime: "09:00 am"\n      endtime: "25:00"\n  actions: [{type: ignore}]\n';
    expect(problemsOf(text)).toEqual(['line 6: endtime "25:00" does not fit the time format "hh:mm a"']);
  });

  it('accepts interface zone names and 24-hour times without am/pm', () => {
    expect(problemsOf(withMatch('{$timeBetween: {timezone: "Eastern Time (US & Canada)", starttime: "18:00", endtime: "07:30 am"}}'))).toEqual([]);
  });
});
