import { describe, expect, it } from 'vitest';
import { loadLocated, type LocatedYaml } from '#lib/rule-engine/located-yaml.ts';

function located(text: string): LocatedYaml {
  const result = loadLocated(text);
  if (!result.ok) throw new Error(result.problem.message);
  return result.yaml;
}

describe('loadLocated', () => {
  it('finds the line of keys and list items in block style, past comments and blank lines', () => {
    const yaml = located(['# header', '', 'rules:', '  # first rule', '  - match:', '      alert.title: x', '', '    actions:', '      - type: ignore', ''].join('\n'));
    expect(yaml.lineOf(['rules'])).toBe(3);
    expect(yaml.lineOf(['rules', 0])).toBe(5);
    expect(yaml.lineOf(['rules', 0, 'match'])).toBe(5);
    expect(yaml.lineOf(['rules', 0, 'match', 'alert.title'])).toBe(6);
    expect(yaml.lineOf(['rules', 0, 'actions'])).toBe(8);
    expect(yaml.lineOf(['rules', 0, 'actions', 0, 'type'])).toBe(9);
  });

  it('finds lines inside multi-line flow collections', () => {
    const yaml = located('rules:\n- match: {$and: [{a: 1},\n                 {b: 2}]}\n  actions: [{type: ignore}]\n');
    expect(yaml.lineOf(['rules', 0, 'match', '$and', 1, 'b'])).toBe(3);
    expect(yaml.lineOf(['rules', 0, 'match', '$and', 0, 'a'])).toBe(2);
    expect(yaml.lineOf(['rules', 0, 'actions', 0, 'type'])).toBe(4);
  });

  it('keeps keys and values paired when a flow key has no value', () => {
    const yaml = located('m: {a,\n  b: 1,\n  c: 2}\n');
    expect(yaml.value).toEqual({ m: { a: null, b: 1, c: 2 } });
    expect(yaml.lineOf(['m', 'b'])).toBe(2);
    expect(yaml.lineOf(['m', 'c'])).toBe(3);
  });

  it('pairs explicit ? keys and empty values', () => {
    const yaml = located('? a\n: 1\nb:\nc: 3\n');
    expect(yaml.value).toEqual({ a: 1, b: null, c: 3 });
    expect(yaml.lineOf(['b'])).toBe(3);
    expect(yaml.lineOf(['c'])).toBe(4);
  });

  it('follows an alias into the anchored mapping', () => {
    const yaml = located('base: &q\n  x: 1\n  y: 2\nuse: *q\n');
    expect(yaml.lineOf(['use'])).toBe(4);
    expect(yaml.lineOf(['use', 'y'])).toBe(3);
  });

  it('stops at the deepest known place when the path leaves the document', () => {
    const yaml = located('a:\n  b: 1\n');
    expect(yaml.lineOf(['a', 'missing', 'deeper'])).toBe(1);
    expect(yaml.lineOf(['a', 'b', 'c'])).toBe(2);
    expect(yaml.lineOf([])).toBe(1);
  });

  it('counts CRLF line breaks', () => {
    const yaml = located('a: 1\r\nb:\r\n  - x\r\n  - y\r\n');
    expect(yaml.lineOf(['b', 1])).toBe(4);
  });

  it('keeps dates and times as strings (core schema)', () => {
    expect(located('d: 2024-12-25\nm: 12-25\nt: 09:00 am\n').value).toEqual({ d: '2024-12-25', m: '12-25', t: '09:00 am' });
  });

  it('reports malformed YAML with js-yaml 1-based line', () => {
    const result = loadLocated('a: 1\nb: 2\na: 3\n');
    expect(result).toEqual({ ok: false, problem: { line: 3, message: 'invalid YAML: duplicated mapping key' } });
  });

  it('never names a line past the end of the text', () => {
    const result = loadLocated('a: [1, 2');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.line).toBe(1);
  });

  it('turns a stack overflow from absurd nesting into a problem', () => {
    const result = loadLocated('['.repeat(50_000));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.message).toMatch(/^invalid YAML/);
  });
});
