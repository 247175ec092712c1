// Wrapper keys: what saving refuses, the budget they run within in the worker (same answers as the library within
// it, a bounded refusal past it), and the webhook's plain-path reading that runs no expression (docs/ingest.md).
import { compile, search, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';
import { describe, expect, it } from 'vitest';
import { jsonLengthAtMost, searchWithinBudget, WrapperKeyBudgetError } from '#lib/monitor-readers/jmespath-budget.ts';
import { readFlat as readGenericWebhook } from '../../support/generic-reading.ts';
import { webhookFields } from '#lib/ingest/webhook.ts';
import { plainPathFields, unwrapPayload, wrapperKeyProblem } from '#lib/monitor-readers/wrapper-key.ts';
import { MAX_WRAPPER_KEY_LENGTH, MAX_WRAPPER_KEY_PROJECTIONS, MAX_WRAPPER_KEY_STEPS, MAX_WRAPPER_KEY_TEXT } from '#lib/limits.ts';

const ZABBIX =
  "{event_type: event_value == '0' && 'resolve' || 'create', Id: trigger_id || event_id, Title: title, Description: description, " +
  "Urgency: (event_nseverity == '5' && 'critical') || (event_nseverity == '4' && 'high') || ((event_nseverity == '3' || event_nseverity == '2') && 'medium') || 'low', " +
  "Tags: split(event_tags, ','), zabbix_url: zabbix_url}";

const run = (data: unknown, expression: string) => searchWithinBudget(data as JSONValue, compile(expression));
/** Runs `expression` and returns the budget error's message; fails when it stays within its budget. */
function overBudget(data: unknown, expression: string): string {
  try {
    run(data, expression);
  } catch (error) {
    if (error instanceof WrapperKeyBudgetError) return error.message;
    throw error;
  }
  throw new Error(`${expression} stayed within its budget`);
}
/**
 * The work `work` did, counted where it is done (never timed: docs/testing.md, "Budgets, not timings"): nodes the
 * JMESPath interpreter visited, `String.prototype.replace` calls and the characters they built, and the texts any
 * regular expression ran over.
 */
function counted(work: () => void): { visits: number; replaces: number; replaced: number; regexInputs: number[] } {
  const counts = { visits: 0, replaces: 0, replaced: 0, regexInputs: [] as number[] };
  // The budgeted interpreter extends the library's: every node visit reaches this prototype method.
  const interpreter = Object.getPrototypeOf(TreeInterpreter) as { visit: (...args: unknown[]) => unknown };
  const visit = interpreter.visit;
  interpreter.visit = function (this: unknown, ...args: unknown[]) {
    counts.visits++;
    return visit.apply(this, args);
  };
  const replace = String.prototype.replace;
  const exec = RegExp.prototype.exec;
  String.prototype.replace = function (this: string, ...args: Parameters<typeof replace>) {
    counts.replaces++;
    const result = replace.apply(this, args);
    counts.replaced += result.length;
    return result;
  } as typeof replace;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    counts.regexInputs.push(String(text).length);
    return exec.call(this, text);
  };
  try {
    work();
  } finally {
    interpreter.visit = visit;
    String.prototype.replace = replace;
    RegExp.prototype.exec = exec;
  }
  return counts;
}

const steps = MAX_WRAPPER_KEY_STEPS.toLocaleString('en-US');
const text = MAX_WRAPPER_KEY_TEXT.toLocaleString('en-US');

describe('wrapperKeyProblem: what saving refuses', () => {
  it('accepts the documented keys', () => {
    for (const key of ['data', 'data.attributes', '"alert-body".fields', 'data[0]', 'data.*', '{Id: id}', ZABBIX, 'data.items[*].name', "replace(title, 'a', 'b', `3`)"]) {
      expect(wrapperKeyProblem(key), key).toBeUndefined();
    }
  });

  it(`refuses more than ${MAX_WRAPPER_KEY_PROJECTIONS} nested projections, as the 22 that took 7.5 s`, () => {
    const nested = (n: number) => Array.from({ length: n }, (_, i) => `a${i}[*]`).join('.');
    expect(wrapperKeyProblem(nested(MAX_WRAPPER_KEY_PROJECTIONS))).toBeUndefined();
    expect(wrapperKeyProblem(nested(22))).toBe('costs more than a wrapper key may on every request: it nests more than 8 projections ([*], [], [?…], .*)');
    expect(wrapperKeyProblem(Array(9).fill('[@,@][]').join(' | '))).toBeUndefined();
    expect(wrapperKeyProblem('a[?b[?c[?d[?e[?f[?g[?h[?i[?j]]]]]]]]]')).toMatch(/nests more than 8 projections/);
  });

  it('refuses deep nesting, a long text, and literal counts and widths no payload needs', () => {
    expect(wrapperKeyProblem(`${'('.repeat(40)}a${')'.repeat(40)}`)).toBeUndefined(); // parentheses add no node
    expect(wrapperKeyProblem(Array.from({ length: 40 }, (_, i) => `f${i}`).join('.'))).toMatch(/nests more than 32 levels deep$/);
    expect(wrapperKeyProblem('a'.repeat(MAX_WRAPPER_KEY_LENGTH + 1))).toBe('is longer than 2,000 characters');
    expect(wrapperKeyProblem("replace(title, 'a', 'b', `10000000`)")).toBe(`costs more than a wrapper key may on every request: replace() count 10000000 is more than ${text}`);
    expect(wrapperKeyProblem('pad_left(title, `100000000`)')).toMatch(/pad_left\(\) width 100000000 is more than/);
    expect(wrapperKeyProblem('a..b')).toMatch(/^must be a JMESPath expression such as data or data.attributes \(Syntax error/);
  });
});

describe('searchWithinBudget: the worker runs a wrapper key within its budget', () => {
  const payloads: Record<string, unknown>[] = [
    { event_value: '1', trigger_id: '42', title: 'CPU  ', description: 'high', event_nseverity: '4', event_tags: 'a,b', zabbix_url: 'u' },
    { data: { attributes: { Id: 'x', list: [{ n: 1 }, { n: 2 }], s: '  padded  ' } }, other: [1, [2, [3]]] },
  ];
  const expressions = [
    ZABBIX, 'data.attributes', 'data.attributes.list[*].n', 'other[]', 'data.*', 'data.attributes.list[?n > `1`]', '{a: @}',
    "trim(data.attributes.s)", "trim_left(data.attributes.s)", "trim_right(title)", "trim(title, 'C ')", "pad_left(title, `8`, '-')",
    "replace(title, ' ', '_')", "replace(title, 'C', '$&$&', `2`)", "join('-', ['a', 'b'])", 'to_string(data)', 'let $x = title in {t: $x}',
    "map(&to_string(@), other)", 'sort_by(data.attributes.list, &n)[0]', '@ == @', "data.attributes.list == data.attributes.list", 'length(@)',
  ];

  it('answers as the library does for every expression within its budget', () => {
    for (const payload of payloads) {
      for (const expression of expressions) {
        let expected: unknown;
        try {
          expected = search(payload as JSONValue, expression);
        } catch (error) {
          expect(() => run(payload, expression), expression).toThrow((error as Error).message);
          continue;
        }
        expect(run(payload, expression), expression).toEqual(expected);
      }
    }
  });

  it('stops replace with a count of 10,000,000 (1.7 s before) at once, and a count from the payload too', () => {
    expect(overBudget({ title: 'abc' }, "replace(title, 'x', 'y', `10000000`)")).toBe(`replace count 10000000 is more than ${text}`);
    // Each replacement of "a" by "$`$`a" (twice the text before it) triples the text: 12 of them pass the text limit.
    const work = counted(() => expect(overBudget({ title: 'xa', n: 200_000 }, "replace(title, 'a', '$`$`a', n)")).toBe(`replace would build more than ${text} characters`));
    // Stopped at the 12th replacement of 200,000: what was built is what the budget allowed, plus the one refused.
    expect(work.replaces).toBe(12);
    expect(work.replaced).toBeLessThanOrEqual(MAX_WRAPPER_KEY_STEPS + 3 * MAX_WRAPPER_KEY_TEXT);
    expect(run({ title: 'aaa', n: 2 }, "replace(title, 'a', 'b', n)")).toBe('bba');
    expect(() => run({ title: 'a' }, "replace(title, 'a', 'b', `-1`)")).toThrow('invalid-value: expecting a non-negative integer.');
  });

  it('stops projections that double at every level (22 took 7.5 s and 2.4 GB before) within its steps', () => {
    const doubling = Array(22).fill('[@,@][]').join(' | ');
    const work = counted(() => expect(overBudget({ a: 1 }, doubling)).toBe(`it needs more than ${steps} steps`));
    // Each visit spends at least one step; unbudgeted, the 22 levels visit over 8 million nodes.
    expect(work.visits).toBeGreaterThan(1_000);
    expect(work.visits).toBeLessThanOrEqual(MAX_WRAPPER_KEY_STEPS);
  });

  it('refuses padding, joining and to_string beyond the text limit before building them', () => {
    expect(overBudget({ w: 100_000_000 }, 'pad_left(`"x"`, w)')).toBe(`pad_left width 100000000 would build more than ${text} characters`);
    expect(overBudget({ s: 'x'.repeat(100_000) }, "join(s, [s, s, s])")).toBe(`join would build more than ${text} characters`);
    // Twenty doublings of one list are a million references to one text: counted as JSON before it is written.
    const shared = `[s] | ${Array(20).fill('[@, @]').join(' | ')} | to_string(@)`;
    expect(overBudget({ s: 'x'.repeat(100) }, shared)).toBe(`to_string would build more than ${text} characters`);
  });

  it('compares equal-looking structures built from shared parts node by node, within the budget', () => {
    const tree = `${Array(40).fill('[@, @]').join(' | ')}`;
    expect(overBudget({}, `(${tree}) == (${tree})`)).toBe(`it needs more than ${steps} steps`);
  });

  it('trims long runs of spaces in linear time (the library backtracks quadratically: 170 ms for 20,000)', () => {
    const spaces = { s: `${' '.repeat(200_000)}x${' '.repeat(50_000)}` };
    const work = counted(() => expect(run(spaces, 'trim_right(s)')).toBe(`${' '.repeat(200_000)}x`));
    // Linear: each of the 50,000 trailing spaces and the x is looked at once, by a one-character test; no regular
    // expression runs over the text itself (where the library's backtracks).
    expect(work.regexInputs).toHaveLength(50_001);
    expect(Math.max(...work.regexInputs)).toBe(1);
    expect(run(spaces, 'length(trim(s))')).toBe(1);
  });

  it('counts the steps of let scopes and of every element a projection visits', () => {
    const big = { list: Array.from({ length: 200_000 }, (_, i) => i) };
    expect(overBudget(big, 'list[*].to_string(@)')).toBe(`it needs more than ${steps} steps`);
    expect(overBudget(big, 'let $l = list in $l[*].[$l[0], $l[1]]')).toBe(`it needs more than ${steps} steps`);
    expect(run({ list: [1, 2] }, 'let $l = list in $l[*].[$l[0], @]')).toEqual([[1, 1], [1, 2]]);
  });

  it('refuses a result larger than the text limit as JSON', () => {
    expect(overBudget({ s: 'x'.repeat(200_000) }, '{a: s, b: s}')).toBe(`its result is more than ${text} characters as JSON`);
    expect(jsonLengthAtMost({ a: [1, 'xy', null, true] }, 100)).toBe(JSON.stringify({ a: [1, 'xy', null, true] }).length);
  });
});

describe('unwrapPayload and the worker’s reading', () => {
  it('ignores a request whose wrapper key goes over its budget, with the reason for the log', () => {
    const key = Array(22).fill('[@,@][]').join(' | ');
    expect(unwrapPayload({ a: 1 }, key)).toEqual({ overBudget: `Wrapper key ${key} went over its budget: it needs more than ${steps} steps` });
    const reading = readGenericWebhook({ title: 'abc' }, { wrapperKey: "{event_type: 'create', Title: replace(title, 'x', 'y', `10000000`)}", captureAdditionalData: false, defaultUrgency: 'low' });
    expect(reading).toEqual({ event: 'ignored', reason: expect.stringMatching(/went over its budget: replace count 10000000 is more than 262,144; the payload was not read$/), notes: [] });
  });
});

describe('the webhook runs no wrapper key: a plain path is followed, anything else gives no Id', () => {
  const payload = { data: { attributes: { Id: 'x' }, list: [1] }, 'alert-body': { fields: { Id: 'q' } }, Id: 'top' };

  it('reads plain paths as JMESPath would, the whole payload when they find no object', () => {
    expect(plainPathFields(payload, 'data.attributes')).toEqual({ Id: 'x' });
    expect(plainPathFields(payload, '"alert-body".fields')).toEqual({ Id: 'q' });
    expect(plainPathFields(payload, 'data.list')).toBe(payload);
    expect(plainPathFields(payload, 'missing.deeper')).toBe(payload);
    for (const key of ['data.attributes', '"alert-body".fields', 'data.list', 'missing']) {
      expect(plainPathFields(payload, key), key).toEqual(unwrapPayload(payload, key).fields);
    }
  });

  it('never evaluates any other expression, however costly', () => {
    const costly = Array(22).fill('[@,@][]').join(' | ');
    for (const key of ['{Id: data.attributes.Id}', 'data.attributes || data', costly, 'data[0]', 'nosuch(@)', 'a..b']) {
      const work = counted(() => expect(plainPathFields(payload, key), key).toBeUndefined());
      expect([key, work.visits]).toEqual([key, 0]);
    }
    expect(webhookFields(payload, costly)).toBeUndefined();
    expect(webhookFields(payload, 'data.attributes')).toEqual({ id: 'x' });
    expect(webhookFields(payload, ' ')).toEqual(expect.objectContaining({ id: 'top' }));
  });
});
