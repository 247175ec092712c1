// Rule regexes run on RE2 in linear time; what RE2 cannot run is refused by name when a rule is saved
// (docs/rules.md, "Regular expressions").
import { describe, expect, it } from 'vitest';
import { evaluateRouter, matchDataOf, matchQuery, parseRouterRules, problemText } from '#lib/rule-engine/index.ts';
import { linearRegexProblem, linearRegexTest, regexFlagsProblem, regexProblem } from '#lib/rule-engine/regex.ts';
import { MAX_REGEX_LENGTH } from '#lib/limits.ts';
import { regexInputsDuring } from '../../support/regex-inputs.ts';

const now = new Date('2024-06-03T10:00:00Z');

const rulesWith = (match: string) => `rules:\n- match: ${match}\n  actions: [{type: ignore}]\n`;

/** The problems saving a router whose one rule matches `match` (YAML flow text) reports. */
const problemsOf = (match: string): string[] => {
  const parsed = parseRouterRules(rulesWith(match), { onSave: true });
  return parsed.ok ? [] : parsed.problems.map(problemText);
};

/** What saving checks of one `$regex`: JavaScript syntax, then what RE2 runs. */
const saveProblem = (pattern: unknown, options?: unknown) => regexProblem(pattern, options) ?? linearRegexProblem(pattern as string, options);

describe('matching in linear time', () => {
  it('answers ^(a+)+$ on a 255-character title at once, where a backtracking engine takes longer than the age of the universe', () => {
    const title = `${'a'.repeat(255)}!`;
    const data = matchDataOf({ title });
    const inputs = regexInputsDuring(() => {
      expect(matchQuery({ 'alert.title': { $regex: '^(a+)+$' } }, data, now)).toBe(false);
      expect(matchQuery({ 'alert.title': { $regex: '^(a+)+!$' } }, data, now)).toBe(true);
    });
    // The title never reaches JavaScript's backtracking engine (28 characters took 15 s there): RE2 runs it. Its
    // speed is in bench/expressions.ts.
    expect(inputs.filter((length) => length >= title.length)).toEqual([]);
  });

  it('runs every $regex a query holds on RE2: in $not, $elemMatch and inside $now', () => {
    const evil = '^(a+)+$';
    const data = matchDataOf({ title: `${'a'.repeat(40)}!`, tag_list: [`${'a'.repeat(40)}!`] });
    expect(matchQuery({ 'alert.title': { $not: { $regex: evil } } }, data, now)).toBe(true);
    expect(matchQuery({ 'alert.tag_list': { $elemMatch: { $regex: evil } } }, data, now)).toBe(false);
    expect(matchQuery({ $now: { format: 'dddd', $regex: '^(M+)+onday$' } }, data, now)).toBe(true);
  });

  it('keeps JavaScript’s meaning for the common syntax: flags, classes, anchors, named groups, \\u escapes', () => {
    const data = matchDataOf({ title: 'DB down on prod-1\nsecond line', tag_list: ['é'] });
    const matches = (condition: Record<string, unknown>) => matchQuery({ 'alert.title': condition }, data, now);
    expect(matches({ $regex: 'db' })).toBe(false);
    expect(matches({ $regex: 'db', $options: 'i' })).toBe(true);
    expect(matches({ $regex: '^second' })).toBe(false);
    expect(matches({ $regex: '^second', $options: 'm' })).toBe(true);
    expect(matches({ $regex: '1.second' })).toBe(false);
    expect(matches({ $regex: '1.second', $options: 's' })).toBe(true);
    expect(matches({ $regex: '\\bprod-\\d\\b' })).toBe(true);
    expect(matches({ $regex: '(?<env>prod)-[0-9]+' })).toBe(true);
    expect(matchQuery({ 'alert.tag_list': { $regex: '^\\u00e9$' } }, data, now)).toBe(true);
  });

  it('matches strings only, as sift does, and never throws on a pattern that slipped past validation', () => {
    const data = matchDataOf({ count: 7 });
    expect(matchQuery({ 'alert.count': { $regex: '7' } }, data, now)).toBe(false);
    expect(matchQuery({ 'alert.count': { $regex: '(a)\\1' } }, matchDataOf({ count: 'aa' }), now)).toBe(false);
    expect(matchQuery({ 'alert.count': { $regex: 'a', $options: 'g' } }, matchDataOf({ count: 'a' }), now)).toBe(false);
  });

  it('compiles a pattern once per process and flags', () => {
    const test = linearRegexTest('^a.c$', 'i');
    expect(test('ABC')).toBe(true);
    expect(linearRegexTest('^a.c$', undefined)('ABC')).toBe(false);
    expect(() => linearRegexTest('a', 'x')).toThrow('$options must be regex flags from i, m, s, u');
  });
});

describe('validation when a rule is saved', () => {
  it('accepts what RE2 runs with JavaScript’s meaning', () => {
    for (const pattern of ['db', '^(a+)+$', '\\bdisk\\b', '(?<name>x)', '[^]', '\\d{3}-\\d{4}', '\\u0041', '[\\w-]+', 'a{2,}']) {
      expect(saveProblem(pattern), pattern).toBeUndefined();
    }
    expect(saveProblem('x', 'imsu')).toBeUndefined();
  });

  it('refuses backreferences and lookaround by name, with the line of the rule', () => {
    expect(problemsOf('{alert.title: {$regex: "(a)\\\\1"}}')).toEqual([
      'line 2: $regex uses a backreference (\\1), which rules do not support: they run regexes in linear time (RE2)',
    ]);
    expect(saveProblem('(?<n>a)\\k<n>')).toMatch(/uses a named backreference \(\\k<name>\)/);
    expect(saveProblem('a(?=b)')).toMatch(/uses a lookahead/);
    expect(saveProblem('a(?!b)')).toMatch(/uses a lookahead/);
    expect(saveProblem('(?<=a)b')).toMatch(/uses a lookbehind/);
    expect(saveProblem('(?<!a)b')).toMatch(/uses a lookbehind/);
    // Inside a class these are plain characters, and an escaped parenthesis opens no group.
    expect(saveProblem('[(?=]\\(?=')).toBeUndefined();
  });

  it('refuses what RE2 cannot compile with its reason, and JavaScript syntax errors as before', () => {
    expect(saveProblem('x{1001}')).toBe('$regex cannot run in linear time (RE2): invalid repeat count: `{1001}`');
    expect(saveProblem('[\\b]')).toMatch(/^\$regex cannot run in linear time \(RE2\): invalid escape sequence/);
    expect(saveProblem('(')).toMatch(/^\$regex is not a valid regular expression: /);
    expect(saveProblem(5)).toBe('$regex must be a string');
  });

  it(`refuses a pattern longer than ${MAX_REGEX_LENGTH} characters`, () => {
    expect(saveProblem('a'.repeat(MAX_REGEX_LENGTH))).toBeUndefined();
    expect(problemsOf(`{alert.title: {$regex: "${'a'.repeat(MAX_REGEX_LENGTH + 1)}"}}`)).toEqual(['line 2: $regex is longer than 1,000 characters']);
  });

  it('tolerates what only saving refuses in rules stored before: such a regex matches nothing, the rest of the router runs', () => {
    const stored = `rules:\n- match: {alert.title: {$regex: "(a)\\\\1"}}\n  actions: [{type: ignore}]\n- match: {always: true}\n  actions: [{type: assign, receiver: tem_ops}]\n`;
    expect(parseRouterRules(stored, { onSave: true }).ok).toBe(false);
    const parsed = parseRouterRules(stored);
    if (!parsed.ok) throw new Error(parsed.problems.map(problemText).join('; '));
    expect(evaluateRouter(parsed.document, matchDataOf({ title: 'aa' }), now)).toMatchObject({ matched: true, ruleIndex: 1 });
    // A JavaScript syntax error was refused before the engine changed, so it is never tolerated.
    expect(parseRouterRules(rulesWith('{alert.title: {$regex: "("}}')).ok).toBe(false);
  });

  it('checks $options with a loop, so a long options text is answered at once', () => {
    expect(regexFlagsProblem('imsu')).toBeUndefined();
    expect(regexFlagsProblem('')).toBeUndefined();
    for (const bad of ['ii', 'g', 'x', 5, null]) expect(regexFlagsProblem(bad), String(bad)).toBe('$options must be regex flags from i, m, s, u');
    const inputs = regexInputsDuring(() => expect(regexFlagsProblem(`${'i'.repeat(60_000)}x`)).toBeDefined());
    expect(inputs.filter((length) => length > 1)).toEqual([]);
  });
});
